import { filter, from, map, startWith, switchMap, type Observable } from 'rxjs';
import { z } from 'zod';
import {
  CartLineSchema,
  IdSchema,
  ThemeSchema,
  TicketJwksSchema,
  type CartLine,
  type Theme,
  type TicketJwks,
} from '@skyport/shared';
import type { SkyportDatabase } from './database.ts';
import { ChangeJournalSchema, type ChangeJournal } from './change-journal.ts';
import type { PriceHistories } from '../lib/price-history.ts';

/**
 * What this device keeps for itself, never replicated (RxDB local documents in the same
 * IndexedDB): the guest's cart (merged into the customer's cart at login), the flights a guest
 * tried to add to favourites (saved once they log in), the theme chosen before any login, the
 * price history of the customer's favourites (lib/price-history.ts) and when the catalogue was
 * last known to match the server's (docs/architecture.md §4.9).
 * Values are parsed with the shared schemas when read, like any other input.
 */

const GuestCartSchema = z.object({ lines: z.array(CartLineSchema) });
const FavouriteAttemptsSchema = z.object({ flightIds: z.array(IdSchema) });
const ThemeStateSchema = z.object({ theme: ThemeSchema });
const TicketKeysSchema = TicketJwksSchema.extend({ fetchedAt: z.number().int().nonnegative() });
/** The ticket key set this device keeps for offline checks, and when it was fetched (ms). */
export type StoredTicketKeys = z.infer<typeof TicketKeysSchema>;
const PricePointSchema = z.object({
  at: z.number().int().nonnegative(),
  priceCents: z.number().int().nonnegative(),
});
const PriceHistoryStateSchema = z.object({
  /** Whose favourites these are: another user's history is never shown. */
  userId: IdSchema,
  flights: z.record(IdSchema, z.array(PricePointSchema)),
});
const CatalogueFreshStateSchema = z.object({ at: z.number().int().nonnegative() });

const KEYS = {
  guestCart: 'guest-cart',
  favouriteAttempts: 'guest-favourite-attempts',
  theme: 'theme',
  ticketKeys: 'ticket-keys',
  priceHistory: 'favourite-price-history',
  catalogueFreshAt: 'catalogue-fresh-at',
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

export interface StoredPriceHistories {
  userId: string;
  flights: PriceHistories;
}

const NO_HISTORIES: PriceHistories = {};

/** The price histories of `userId`'s favourites on this device (none for anybody else). */
export function priceHistories$(db: SkyportDatabase, userId: string): Observable<PriceHistories> {
  return watch(db, KEYS.priceHistory, PriceHistoryStateSchema.nullable(), null).pipe(
    map((state) => (state?.userId === userId ? state.flights : NO_HISTORIES)),
  );
}

export async function readPriceHistories(
  db: SkyportDatabase,
  userId: string,
): Promise<PriceHistories> {
  const state = await read(db, KEYS.priceHistory, PriceHistoryStateSchema.nullable(), null);
  return state?.userId === userId ? state.flights : {};
}

export async function writePriceHistories(
  db: SkyportDatabase,
  histories: StoredPriceHistories,
): Promise<void> {
  await db.upsertLocal(KEYS.priceHistory, PriceHistoryStateSchema.parse(histories));
}

/** Forgets the price histories (logout: which flights a customer follows is theirs). */
export async function clearPriceHistories(db: SkyportDatabase): Promise<void> {
  const doc = await db.getLocal(KEYS.priceHistory);
  await doc?.remove();
}

/** When this device's catalogue last matched the server's, as last saved (null: never). */
export async function readCatalogueFreshAt(db: SkyportDatabase): Promise<number | null> {
  return (
    (await read(db, KEYS.catalogueFreshAt, CatalogueFreshStateSchema.nullable(), null))?.at ?? null
  );
}

export async function writeCatalogueFreshAt(db: SkyportDatabase, at: number): Promise<void> {
  await db.upsertLocal(KEYS.catalogueFreshAt, CatalogueFreshStateSchema.parse({ at }));
}

/**
 * The sync states of this device's changes that RxDB does not keep (sync/change-states.ts):
 * refused changes with their reasons, conflicts not yet seen, recently sent changes. Only the
 * journal of `userId` is read; another user's counts as none.
 */
export async function readChangeJournal(
  db: SkyportDatabase,
  userId: string,
): Promise<ChangeJournal | null> {
  const journal = await read(db, 'change-journal', ChangeJournalSchema.nullable(), null);
  return journal?.userId === userId ? journal : null;
}

export async function writeChangeJournal(db: SkyportDatabase, journal: ChangeJournal) {
  await db.upsertLocal('change-journal', ChangeJournalSchema.parse(journal));
}

/** Forgets the journal (logout: what a customer changed is theirs). */
export async function clearChangeJournal(db: SkyportDatabase): Promise<void> {
  const doc = await db.getLocal('change-journal');
  await doc?.remove();
}

/**
 * The public keys signed e-tickets verify against (issue 17, features/tickets/): the last key set
 * fetched from the server, so that a ticket verifies on this device without a connection.
 */
export function ticketKeys$(db: SkyportDatabase): Observable<StoredTicketKeys | null> {
  return watch(db, KEYS.ticketKeys, TicketKeysSchema.nullable(), null);
}

export async function writeTicketKeys(
  db: SkyportDatabase,
  jwks: TicketJwks,
  fetchedAt: number,
): Promise<void> {
  await db.upsertLocal(KEYS.ticketKeys, TicketKeysSchema.parse({ ...jwks, fetchedAt }));
}
