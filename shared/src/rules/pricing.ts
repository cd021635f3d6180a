import {
  FEE_RATE_DENOMINATOR,
  FEE_RATE_NUMERATOR,
  PRICE_BAND_LOW_MAX_CENTS,
  PRICE_BAND_MID_MAX_CENTS,
} from '../constants.ts';

/**
 * Money rules (spec §9). Every amount here is an integer number of cents; floats only appear at
 * the edge, in `toCents`, where a price typed in currency units enters the system.
 */

/** The price slider's marks (spec §4): every flight, up to 20.000, 20.000 to 40.000, from 40.000. */
export const PRICE_BANDS = ['all', 'low', 'mid', 'high'] as const;
/** A price slider mark; `all` means no price filter. */
export type PriceBand = (typeof PRICE_BANDS)[number];
/** The band a single price falls in: every price is in exactly one of these. */
export type FlightPriceBand = Exclude<PriceBand, 'all'>;

/**
 * The price band of a unit price in cents.
 * Edges: `low` is ≤ 20.000,00; `mid` is strictly between 20.000,00 and 40.000,00; `high` is
 * ≥ 40.000,00. So exactly 20.000 is low and exactly 40.000 is high.
 */
export function priceBandOf(priceCents: number): FlightPriceBand {
  if (priceCents <= PRICE_BAND_LOW_MAX_CENTS) return 'low';
  if (priceCents < PRICE_BAND_MID_MAX_CENTS) return 'mid';
  return 'high';
}

/** Whether a price in cents passes the slider mark `band` (`all` passes every price). */
export function isInPriceBand(priceCents: number, band: PriceBand): boolean {
  return band === 'all' || priceBandOf(priceCents) === band;
}

function assertCents(value: number, name: string): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a non-negative integer number of cents, got ${value}`);
  }
}

/**
 * The 0.1 % fee on a subtotal, in cents, rounded half-up to the cent:
 * 499 cents → 0, 500 → 1 (0,5 rounds up), 1 499 → 1, 1 500 → 2.
 * Computed in integers, so no float error can move a value across the half.
 * @throws RangeError if the subtotal is not a non-negative safe integer.
 */
export function calculateFeeCents(subtotalCents: number): number {
  assertCents(subtotalCents, 'subtotalCents');
  const numerator = subtotalCents * FEE_RATE_NUMERATOR;
  return Math.floor((2 * numerator + FEE_RATE_DENOMINATOR) / (2 * FEE_RATE_DENOMINATOR));
}

/** One priced line of a cart or order: unit price in cents and number of tickets. */
export interface PricedLine {
  readonly unitPriceCents: number;
  readonly amount: number;
}

/** Order summary (spec §2 cart): subtotal, fee and total, in cents. Total = subtotal + fee. */
export interface Totals {
  subtotalCents: number;
  feeCents: number;
  totalCents: number;
}

/**
 * Subtotal (sum of unit price × amount), fee (0.1 % of the subtotal, half-up to the cent,
 * computed once on the subtotal, not per line) and total. An empty list gives all zeros.
 * @throws RangeError on a negative or fractional price or amount, or a total beyond safe integers.
 */
export function calculateTotals(lines: readonly PricedLine[]): Totals {
  let subtotalCents = 0;
  for (const line of lines) {
    assertCents(line.unitPriceCents, 'unitPriceCents');
    if (!Number.isSafeInteger(line.amount) || line.amount < 0) {
      throw new RangeError(`amount must be a non-negative integer, got ${line.amount}`);
    }
    subtotalCents += line.unitPriceCents * line.amount;
  }
  assertCents(subtotalCents, 'subtotalCents');
  const feeCents = calculateFeeCents(subtotalCents);
  const totalCents = subtotalCents + feeCents;
  assertCents(totalCents, 'totalCents');
  return { subtotalCents, feeCents, totalCents };
}

/**
 * Cents as a display string with exactly 2 decimals and a dot, no grouping:
 * 123456 → "1234.56", 5 → "0.05", -150 → "-1.50". Localised grouping is the UI's job.
 * @throws RangeError if `cents` is not a safe integer.
 */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) {
    throw new RangeError(`cents must be a safe integer, got ${cents}`);
  }
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const units = Math.trunc(abs / 100);
  const rest = abs % 100;
  return `${sign}${units}.${String(rest).padStart(2, '0')}`;
}

/** `units × 100` with the binary float noise removed (0.1 + 0.2 → 30.000000000000004 → 30). */
function scaledByHundred(units: number): number {
  return Number((units * 100).toPrecision(15));
}

/**
 * A price in currency units (as typed in a form) to integer cents, rounding half away from zero
 * after removing float noise: 0.1 + 0.2 → 30, 1.005 → 101, 19.99 → 1999, -1.005 → -101.
 * @throws RangeError if `units` is not finite or the result is not a safe integer.
 */
export function toCents(units: number): number {
  if (!Number.isFinite(units)) throw new RangeError(`units must be finite, got ${units}`);
  const scaled = scaledByHundred(Math.abs(units));
  const cents = Math.round(scaled) * (units < 0 ? -1 : 1);
  if (!Number.isSafeInteger(cents)) throw new RangeError(`units out of range: ${units}`);
  return cents === 0 ? 0 : cents;
}

/** Whether an amount in currency units has at most 2 decimals (19.99 yes, 0.1 + 0.2 yes, 1.001 no). */
export function hasAtMostTwoDecimals(units: number): boolean {
  if (!Number.isFinite(units)) return false;
  return Number.isInteger(scaledByHundred(units));
}
