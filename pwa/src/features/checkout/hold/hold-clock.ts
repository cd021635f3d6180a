import type { SeatHold } from '@skyport/shared';

/**
 * The seat hold's countdown and the re-quote, as pure rules (issue 17). The countdown runs from
 * what the server said was left (`expiresInMs`) when its answer arrived, so a device clock that
 * is off does not shorten or lengthen it; the server decides expiry by its own clock anyway.
 */

/** When the hold ends on this device's clock: its answer's arrival plus what was left then. */
export function holdDeadline(hold: Pick<SeatHold, 'expiresInMs'>, receivedAt: number): number {
  return receivedAt + hold.expiresInMs;
}

/** Milliseconds left at `now`, never below zero. */
export function timeLeft(deadline: number, now: number): number {
  return Math.max(0, deadline - now);
}

/** "9:05" for 545 s left, rounded up to the second (0:00 only once it is over). */
export function formatCountdown(ms: number): string {
  const seconds = Math.ceil(Math.max(0, ms) / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The totals a re-quote shows: what the cart showed, and what the server now asks. */
export interface Requote {
  oldTotalCents: number;
  newTotalCents: number;
}

/**
 * A re-quote when the server's quote of the hold differs from the total the buyer's cart showed
 * (an airline changed a price meanwhile): the payment page shows both and charges only once the
 * buyer agrees. Null when they agree, or when the buyer already agreed to this very quote.
 */
export function requoteOf(
  shownTotalCents: number,
  hold: Pick<SeatHold, 'holdId' | 'totalCents'>,
  accepted: { holdId: string; totalCents: number } | null,
): Requote | null {
  if (hold.totalCents === shownTotalCents) return null;
  if (accepted && accepted.holdId === hold.holdId && accepted.totalCents === hold.totalCents) {
    return null;
  }
  return { oldTotalCents: shownTotalCents, newTotalCents: hold.totalCents };
}

/** Whether the hold covers exactly these cart lines (flight and amount), whatever their order. */
export function holdCoversCart(
  hold: Pick<SeatHold, 'lines'>,
  lines: readonly { flightId: string; amount: number }[],
): boolean {
  const key = (items: readonly { flightId: string; amount: number }[]) =>
    items
      .map((line) => `${line.flightId}x${line.amount}`)
      .sort()
      .join(',');
  return key(hold.lines) === key(lines);
}
