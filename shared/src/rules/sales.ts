import { SALES_CHART_MONTHS } from '../constants.ts';
import type { MonthlySalesTotal } from '../schemas/sale.ts';

/** What the sales rules need of a sale: unit price in cents, tickets, time in ms since the epoch. */
export interface SaleForTotals {
  readonly priceCents: number;
  readonly amount: number;
  readonly createdAt: number;
}

/** Options of `calculateMonthlySalesTotals`. */
export interface MonthlySalesOptions {
  /** Count only sales of this calendar year; without it, every year adds into its month. */
  readonly year?: number;
  /**
   * Offset of the viewer's time zone from UTC in minutes (UTC−3 is -180), used to decide a sale's
   * month and year. Defaults to 0 (UTC). Passed in so that the rule never reads the host's zone.
   */
  readonly utcOffsetMinutes?: number;
}

/** "Total sale" of one sale card (spec §2): unit price times tickets, in cents. */
export function saleTotalCents(sale: {
  readonly priceCents: number;
  readonly amount: number;
}): number {
  return sale.priceCents * sale.amount;
}

/**
 * The 12 points of the "Sales Chart" (spec §2): for months 1 to 12, the tickets sold and the total
 * sale in cents. Months without sales are zeros; no sales at all give 12 zero points.
 * @throws RangeError if a sale's time or the offset is not finite.
 */
export function calculateMonthlySalesTotals(
  sales: readonly SaleForTotals[],
  options: MonthlySalesOptions = {},
): MonthlySalesTotal[] {
  const offsetMinutes = options.utcOffsetMinutes ?? 0;
  if (!Number.isFinite(offsetMinutes)) {
    throw new RangeError(`utcOffsetMinutes must be finite, got ${offsetMinutes}`);
  }
  const totals = Array.from({ length: SALES_CHART_MONTHS }, (_, index) => ({
    month: index + 1,
    tickets: 0,
    amountCents: 0,
  }));
  for (const sale of sales) {
    const local = new Date(sale.createdAt + offsetMinutes * 60_000);
    if (Number.isNaN(local.getTime())) {
      throw new RangeError(`a sale's createdAt must be a valid time, got ${sale.createdAt}`);
    }
    if (options.year !== undefined && local.getUTCFullYear() !== options.year) continue;
    const point = totals[local.getUTCMonth()];
    if (point === undefined) continue;
    point.tickets += sale.amount;
    point.amountCents += saleTotalCents(sale);
  }
  return totals;
}
