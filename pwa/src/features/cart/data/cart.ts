import { useMemo } from 'react';
import { firstValueFrom, map, NEVER, of, switchMap, type Observable } from 'rxjs';
import {
  addToCart,
  calculateCartTotals,
  cartLineFromFlight,
  cartTicketCount,
  decrementCartLine,
  incrementCartLine,
  messages,
  removeFromCart,
  snapshotForCartLine,
  type CartDoc,
  type CartLine,
  type CartResult,
  type Flight,
  type Totals,
} from '@skyport/shared';
import { guestCart$, readGuestCart, writeGuestCart } from '../../../db/local-state.ts';
import { useLocalDataIfOpen, useLocalDataLoader } from '../../../data/provider.tsx';
import { useObservable } from '../../../data/use-observable.ts';
import type { LocalData } from '../../../data/local-data.ts';
import { flightsByIds$ } from '../../../db/catalogue-reads.ts';

/**
 * The cart (spec §4), local-first: a customer's cart is the replicated `cart` collection (synced
 * to the server, so checkout and other devices see it); a guest's lives only in this browser and
 * is merged into the customer's cart at login (sync/engine.ts). Changes follow the shared cart
 * rules and return their refusal message (§8) for the screen to show. Accounts that cannot buy
 * (airlines, administrators) have no cart.
 */

export interface CartSummary {
  lines: CartLine[];
  totals: Totals;
  /** Tickets in the cart (the cart icon's count). */
  count: number;
}

/** A line with its flight's current data, when the flight is in the local database. */
function refreshed(line: CartLine, flight: Flight | undefined): CartLine {
  return flight ? { ...line, ...snapshotForCartLine(flight) } : line;
}

function toLine(doc: CartDoc): CartLine {
  const { id: _id, userId: _userId, ...line } = doc;
  return line;
}

/**
 * Lines with their flights' current data from the replicated catalogue, where this device has
 * the flight. A line's own copy of price, stock and hours is only as fresh as its last write: the
 * server does not rewrite every cart line of a flight when its stock or price changes (a sale
 * would cost as many writes as the flight has carts; sync-server's 010 migration).
 */
function withCurrentFlights(data: LocalData, lines: CartLine[]): Observable<CartLine[]> {
  if (lines.length === 0) return of(lines);
  return flightsByIds$(
    data.catalogue,
    lines.map((line) => line.flightId),
  ).pipe(
    map((flights) =>
      lines.map((line) =>
        line.flightDeleted ? line : refreshed(line, flights.get(line.flightId)),
      ),
    ),
  );
}

/** The cart lines of whoever is signed in (or of the guest), live. */
export function cartLines$(data: LocalData): Observable<CartLine[]> {
  const { db, engine } = data;
  return engine.user$.pipe(
    switchMap((user) => {
      if (user?.role === 'customer') {
        return db.collections.cart.find().$.pipe(
          map((docs) => docs.map((doc) => toLine(doc._data as CartDoc))),
          switchMap((lines) => withCurrentFlights(data, lines)),
        );
      }
      if (user) return of([] as CartLine[]);
      return guestCart$(db).pipe(switchMap((lines) => withCurrentFlights(data, lines)));
    }),
  );
}

export function cartSummary$(data: LocalData): Observable<CartSummary> {
  return cartLines$(data).pipe(
    map((lines) => ({ lines, totals: calculateCartTotals(lines), count: cartTicketCount(lines) })),
  );
}

async function currentLines(data: LocalData): Promise<CartLine[]> {
  return firstValueFrom(cartLines$(data));
}

/** Applies a cart transition to the current cart and stores what changed. */
async function changeCart(
  data: LocalData,
  transition: (lines: CartLine[]) => CartResult<CartLine>,
): Promise<CartResult<CartLine>> {
  const { db, engine } = data;
  const user = engine.user;
  if (user && user.role !== 'customer') return { ok: false, message: messages.notAllowed };
  const before = user ? await currentLines(data) : await readGuestCart(db);
  const result = transition(before);
  if (!result.ok) return result;
  if (!user) {
    await writeGuestCart(db, result.lines);
    return result;
  }
  const kept = new Set(result.lines.map((line) => line.flightId));
  const removed = before.filter((line) => !kept.has(line.flightId)).map((line) => line.flightId);
  const changed = result.lines.filter((line) => {
    const previous = before.find((other) => other.flightId === line.flightId);
    return !previous || previous.amount !== line.amount;
  });
  if (changed.length > 0) {
    await db.collections.cart.bulkUpsert(
      changed.map((line) => ({ ...line, id: line.flightId, userId: user.id })),
    );
  }
  if (removed.length > 0) await db.collections.cart.bulkRemove(removed);
  return result;
}

/** "Add to cart": a new line at 1, or one more ticket; refused when the stock is reached. */
export function addFlightToCart(data: LocalData, flight: Flight): Promise<CartResult<CartLine>> {
  return changeCart(data, (lines) => addToCart(lines, cartLineFromFlight(flight)));
}

/** The plus button. */
export function incrementLine(data: LocalData, flightId: string): Promise<CartResult<CartLine>> {
  return changeCart(data, (lines) => incrementCartLine(lines, flightId));
}

/** The minus button (never below 1). */
export function decrementLine(data: LocalData, flightId: string): Promise<CartResult<CartLine>> {
  return changeCart(data, (lines) => ({ ok: true, lines: decrementCartLine(lines, flightId) }));
}

/** The remove button. */
export function removeLine(data: LocalData, flightId: string): Promise<CartResult<CartLine>> {
  return changeCart(data, (lines) => ({ ok: true, lines: removeFromCart(lines, flightId) }));
}

/** Empties the cart (after a payment; the server empties its copy in the same checkout). */
export function clearCart(data: LocalData): Promise<CartResult<CartLine>> {
  return changeCart(data, () => ({ ok: true, lines: [] }));
}

// Hooks --------------------------------------------------------------------------------------

/** The cart with its totals and ticket count; `undefined` while loading. */
export function useCart(): CartSummary | undefined {
  const data = useLocalDataIfOpen();
  return useObservable(() => (data ? cartSummary$(data) : NEVER), [data]);
}

const NO_LINES: CartLine[] = [];

/** The cart lines (empty while loading). */
export function useCartLines(): CartLine[] {
  return useCart()?.lines ?? NO_LINES;
}

/** Cart actions; one taken before the local data layer has opened waits for it. */
export function useCartActions() {
  const load = useLocalDataLoader();
  // The same actions at every render: screens pass them to memoised lists.
  return useMemo(
    () => ({
      add: async (flight: Flight) => addFlightToCart(await load(), flight),
      increment: async (flightId: string) => incrementLine(await load(), flightId),
      decrement: async (flightId: string) => decrementLine(await load(), flightId),
      remove: async (flightId: string) => removeLine(await load(), flightId),
      clear: async () => clearCart(await load()),
    }),
    [load],
  );
}
