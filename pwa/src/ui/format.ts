import { formatCents } from '@skyport/shared';

const money = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** A price in cents as "$1,234.56" (two decimals, as the spec shows the fee). */
export function formatPrice(cents: number): string {
  return money.format(Number(formatCents(cents)));
}

const dateFormat = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

/** A yyyy-mm-dd date as "05 Mar 2027" (read as a calendar date, not shifted by time zone). */
export function formatDate(isoDate: string): string {
  const date = new Date(`${isoDate}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? isoDate : dateFormat.format(date);
}

const dateTimeFormat = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
});

/** Milliseconds since the epoch as a local date and time. */
export function formatTimestamp(ms: number): string {
  return dateTimeFormat.format(new Date(ms));
}
