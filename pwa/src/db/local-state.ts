import { filter, from, map, startWith, switchMap, type Observable } from 'rxjs';
import { z } from 'zod';
import { CartLineSchema, IdSchema, ThemeSchema, type CartLine, type Theme } from '@skyport/shared';
import type { SkyportDatabase } from './database.ts';

/**
 * What this device keeps for itself, never replicated (RxDB local documents in the same
 * IndexedDB): the guest's cart (merged into the customer's cart at login), the flights a guest
 * tried to add to favourites (saved once they log in), and the theme chosen before any login.
 * Values are parsed with the shared schemas when read, like any other input.
 */

const GuestCartSchema = z.object({ lines: z.array(CartLineSchema) });
const FavouriteAttemptsSchema = z.object({ flightIds: z.array(IdSchema) });
const ThemeStateSchema = z.object({ theme: ThemeSchema });

const KEYS = {
  guestCart: 'guest-cart',
  favouriteAttempts: 'guest-favourite-attempts',
  theme: 'theme',
} as const;

/**
 * A local document's parsed value, now and after every write of it. Not RxDB's `getLocal$`: that
 * one runs two `mergeMap(async …)` steps for every change event of the whole database, one event
 * per written document, and an initial sync writes the catalogue in bulks of thousands: thousands
 * of pending inner subscriptions, each removed from an array of thousands when it settles, a
 * teardown quadratic in the bulk's size (seconds of main thread for 100,000 flights, in one task).
 * Here a bulk of changes costs one test: is it a write of the database's local documents naming
 * this key? Only then is the document read again.
 */
function watch<S extends z.ZodType>(
  db: SkyportDatabase,
  key: string,
  schema: S,
  fallback: z.output<S>,
): Observable<z.output<S>> {
  return db.eventBulks$.pipe(
    // The database's own local documents (a collection's carry its name), this key among them.
    filter(
      (bulk) =>
        bulk.isLocal === true &&
        !bulk.collectionName &&
        bulk.events.some((event) => event.documentId === key),
    ),
    startWith(null),
    switchMap(() => from(db.getLocal<Record<string, unknown>>(key))),
    map((doc) => {
      const parsed = schema.safeParse(doc?.toJSON().data);
      return parsed.success ? parsed.data : fallback;
    }),
  );
}

async function read<S extends z.ZodType>(
  db: SkyportDatabase,
  key: string,
  schema: S,
  fallback: z.output<S>,
): Promise<z.output<S>> {
  const doc = await db.getLocal<Record<string, unknown>>(key);
  const parsed = schema.safeParse(doc?.toJSON().data);
  return parsed.success ? parsed.data : fallback;
}

const NO_LINES: CartLine[] = [];

export function guestCart$(db: SkyportDatabase): Observable<CartLine[]> {
  return watch(db, KEYS.guestCart, GuestCartSchema, { lines: NO_LINES }).pipe(
    map((state) => state.lines),
  );
}

export async function readGuestCart(db: SkyportDatabase): Promise<CartLine[]> {
  return (await read(db, KEYS.guestCart, GuestCartSchema, { lines: [] })).lines;
}

export async function writeGuestCart(
  db: SkyportDatabase,
  lines: readonly CartLine[],
): Promise<void> {
  await db.upsertLocal(KEYS.guestCart, { lines: GuestCartSchema.shape.lines.parse(lines) });
}

export async function readFavouriteAttempts(db: SkyportDatabase): Promise<string[]> {
  return (await read(db, KEYS.favouriteAttempts, FavouriteAttemptsSchema, { flightIds: [] }))
    .flightIds;
}

/** Remembers that a guest tried to save this flight; it is saved to favourites at login. */
export async function rememberFavouriteAttempt(
  db: SkyportDatabase,
  flightId: string,
): Promise<void> {
  const current = await readFavouriteAttempts(db);
  if (current.includes(flightId)) return;
  await db.upsertLocal(KEYS.favouriteAttempts, {
    flightIds: [...current, IdSchema.parse(flightId)],
  });
}

export async function clearFavouriteAttempts(db: SkyportDatabase): Promise<void> {
  await db.upsertLocal(KEYS.favouriteAttempts, { flightIds: [] });
}

export function localTheme$(db: SkyportDatabase): Observable<Theme> {
  const fallback: { theme: Theme } = { theme: 'system' };
  return watch(db, KEYS.theme, ThemeStateSchema, fallback).pipe(map((state) => state.theme));
}

export async function readLocalTheme(db: SkyportDatabase): Promise<Theme> {
  return (await read(db, KEYS.theme, ThemeStateSchema, { theme: 'system' })).theme;
}

export async function writeLocalTheme(db: SkyportDatabase, theme: Theme): Promise<void> {
  await db.upsertLocal(KEYS.theme, { theme: ThemeSchema.parse(theme) });
}
