/**
 * Calendar dates (yyyy-mm-dd, DateStringSchema) and their arithmetic, by the UTC calendar: below
 * both the schemas (a date range's length) and the rules (a departure window) that use them.
 */

/** `date` (yyyy-mm-dd) moved by `days` calendar days, by the UTC calendar (no zone, no DST). */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  const moved = new Date(Date.UTC(year, month - 1, day + days));
  // Years below 100 would be read as 19xx by Date.UTC; the schema's dates start at 1000.
  return moved.toISOString().slice(0, 10);
}
