import { messages, notEnoughStockWithAmount } from '../messages.ts';
import { snapshotForCartLine, type CartLine } from '../schemas/cart.ts';
import type { Flight } from '../schemas/flight.ts';
import { calculateTotals, type Totals } from './pricing.ts';

/**
 * Cart transitions (spec §4 Cart, §8 stock messages). Every function returns new arrays and new
 * line objects and never mutates its input. They are generic over the line type, so the browser's
 * full `CartLine` and any leaner line with `flightId`, `amount` and `tickets` both work.
 */

/** What the cart rules need of a line: which flight, how many tickets, how many are in stock. */
export interface StockedLine {
  readonly flightId: string;
  readonly amount: number;
  readonly tickets: number;
}

/** A line whose flight may have left the catalogue (the server's `flightDeleted`, schemas/cart.ts). */
export interface MaybeDeletedLine {
  readonly flightDeleted?: boolean | undefined;
}

/**
 * Whether a cart line (or favourite) can still be bought: false once its flight has been deleted.
 * Such a line stays in the cart, shown as no longer available, until the customer removes it; it
 * counts in no total and is never sent to checkout.
 */
export function isFlightAvailable(line: MaybeDeletedLine): boolean {
  return line.flightDeleted !== true;
}

/** The lines that can be bought (what checkout is given): those whose flight is still listed. */
export function payableCartLines<L extends MaybeDeletedLine>(lines: readonly L[]): L[] {
  return lines.filter(isFlightAvailable);
}

/** The outcome of a cart change that can be refused: the new lines, or the §8 message to show. */
export type CartResult<L> = { ok: true; lines: L[] } | { ok: false; message: string };

function outOfStock(tickets: number): { ok: false; message: string } {
  return {
    ok: false,
    message: tickets <= 0 ? messages.noStockAvailable : notEnoughStockWithAmount(tickets),
  };
}

/** A fresh cart line (amount 1) from a flight: the snapshot the cart shows. */
export function cartLineFromFlight(flight: Flight): CartLine {
  return { flightId: flight.id, ...snapshotForCartLine(flight), amount: 1 };
}

/**
 * Adds one ticket of a flight. `line` is the flight's current snapshot; its own `amount` is
 * ignored. A flight not yet in the cart is appended with amount 1. A flight already in the cart
 * gets amount + 1 while the amount is below the stock, and its snapshot (price, stock…) is
 * refreshed from `line`; the stock checked is `line.tickets`, the latest seen.
 * Refused with "No stock available" when the stock is 0, and with "You can't buy more tickets,
 * there's not enough in stock {stock}" when the cart already holds all of it.
 */
export function addToCart<L extends StockedLine>(lines: readonly L[], line: L): CartResult<L> {
  const stock = line.tickets;
  if (stock <= 0) return outOfStock(stock);
  const existing = lines.find((l) => l.flightId === line.flightId);
  if (existing === undefined) {
    return { ok: true, lines: [...lines, { ...line, amount: 1 }] };
  }
  if (existing.amount >= stock) return outOfStock(stock);
  const raised = { ...line, amount: existing.amount + 1 };
  return { ok: true, lines: lines.map((l) => (l.flightId === line.flightId ? raised : l)) };
}

/**
 * The plus button: one more ticket of a flight in the cart, capped by the line's `tickets`.
 * Refused with the same messages as `addToCart`, and with "This flight is no longer available"
 * when the flight was deleted. A flight not in the cart changes nothing.
 */
export function incrementCartLine<L extends StockedLine & MaybeDeletedLine>(
  lines: readonly L[],
  flightId: string,
): CartResult<L> {
  const existing = lines.find((l) => l.flightId === flightId);
  if (existing === undefined) return { ok: true, lines: [...lines] };
  if (!isFlightAvailable(existing)) return { ok: false, message: messages.flightNoLongerAvailable };
  if (existing.tickets <= 0 || existing.amount >= existing.tickets) {
    return outOfStock(existing.tickets);
  }
  return {
    ok: true,
    lines: lines.map((l) => (l.flightId === flightId ? { ...l, amount: l.amount + 1 } : l)),
  };
}

/**
 * The minus button: one ticket fewer, never below 1 (a line at 1 stays at 1; removing is a
 * separate action). A line of a deleted flight does not change (only removing it does). It cannot
 * be refused, so it returns the lines directly.
 */
export function decrementCartLine<L extends StockedLine & MaybeDeletedLine>(
  lines: readonly L[],
  flightId: string,
): L[] {
  return lines.map((l) =>
    l.flightId === flightId && l.amount > 1 && isFlightAvailable(l)
      ? { ...l, amount: l.amount - 1 }
      : l,
  );
}

/** The remove button: drops the flight's line; a flight not in the cart changes nothing. */
export function removeFromCart<L extends StockedLine>(lines: readonly L[], flightId: string): L[] {
  return lines.filter((l) => l.flightId !== flightId);
}

/**
 * Merges a guest's browser cart into the customer's saved cart at login (design §4). Lines of
 * the same flight become one line with the guest line's snapshot (the one just browsed) and the
 * sum of both amounts, capped at that snapshot's stock but never below 1. Saved lines keep their
 * order; guest-only flights follow in theirs. The server still checks stock at checkout.
 */
export function mergeCartLines<L extends StockedLine>(
  saved: readonly L[],
  guest: readonly L[],
): L[] {
  const merged = saved.map((line) => {
    const other = guest.find((g) => g.flightId === line.flightId);
    if (other === undefined) return line;
    const latest = { ...line, ...other };
    const cap = Math.max(1, latest.tickets);
    return { ...latest, amount: Math.min(line.amount + other.amount, cap) };
  });
  const savedIds = new Set(saved.map((line) => line.flightId));
  return [...merged, ...guest.filter((g) => !savedIds.has(g.flightId))];
}

/** Number of tickets in the cart (the sum of amounts), e.g. for the cart icon's count. */
export function cartTicketCount(lines: readonly { readonly amount: number }[]): number {
  return lines.reduce((sum, line) => sum + line.amount, 0);
}

/**
 * Subtotal, fee and total of cart lines, from their `priceCents` and `amount` (see
 * `calculateTotals`). Lines of deleted flights (`flightDeleted`) are left out: they cannot be
 * bought, so they are no part of what the customer would pay.
 */
export function calculateCartTotals(
  lines: readonly ({ readonly priceCents: number; readonly amount: number } & MaybeDeletedLine)[],
): Totals {
  return calculateTotals(
    payableCartLines(lines).map((line) => ({
      unitPriceCents: line.priceCents,
      amount: line.amount,
    })),
  );
}
