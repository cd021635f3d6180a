/**
 * Prices, dates and times as the user's locale writes them: one set of formats for every screen
 * (issue 16: cards and orders used to write dates two different ways).
 *
 * - Money is always US dollars, the marketplace's one currency, written the locale's way
 *   ("$1,234.56", "1.234,56 $", "US$1,234.56").
 * - A flight's date (yyyy-mm-dd) is a calendar date and its hours (hh:mm) are the times printed on
 *   the ticket: they are formatted in UTC, so they never move with the viewer's time zone.
 * - A timestamp (a purchase, a sale, a review) is an instant: shown in the viewer's time zone, with
 *   the same date style as a calendar date.
 */

/** When the browser names no language that Intl can format. */
export const FALLBACK_LOCALE = 'en-US';

/** The browser's preferred languages, best first (none outside a browser). */
function browserLanguages(): readonly string[] {
  if (typeof navigator === 'undefined') return [];
  return navigator.languages?.length ? navigator.languages : [navigator.language];
}

/** The first of `languages` that Intl can format (canonicalised), else `FALLBACK_LOCALE`. */
export function preferredLocale(languages: readonly string[] = browserLanguages()): string {
  for (const language of languages) {
    if (!language) continue;
    try {
      const [supported] = Intl.DateTimeFormat.supportedLocalesOf(language);
      if (supported) return supported;
    } catch {
      // Not a well-formed language tag: try the next one.
    }
  }
  return FALLBACK_LOCALE;
}

export interface Formats {
  /** A price in cents with two decimals ("$1,234.56", as the spec shows the fee). */
  price(cents: number): string;
  /** A price in cents without ".00" when it is whole ("$1,200", "$12.50"): the chart's axis. */
  shortPrice(cents: number): string;
  /** A yyyy-mm-dd calendar date ("Feb 6, 2027", "06.02.2027"); anything else is shown as given. */
  date(isoDate: string): string;
  /** An hh:mm time of day ("3:47 PM", "15:47"); anything else is shown as given. */
  hour(hhmm: string): string;
  /** An instant, in ms since the epoch or ISO 8601 ("Nov 26, 2026, 3:47 PM"). */
  timestamp(instant: number | string): string;
  /**
   * How long before `now` an instant was, in its largest whole unit ("12 minutes ago", "3 hours
   * ago", "yesterday"); an instant in the future (a clock set back) counts as now.
   */
  timeAgo(instant: number, now: number): string;
  /** An instant's time of day, in the viewer's time zone ("3:47 PM"): a short chart label. */
  instantTime(instant: number): string;
  /** An instant's day, in the viewer's time zone ("Nov 26"): a short chart label. */
  instantDay(instant: number): string;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** How recent "now" is. */
const JUST_NOW = 10 * SECOND;

/**
 * The formats of one locale. `timeZone` is where timestamps are shown (default: the viewer's);
 * calendar dates and hours ignore it.
 */
export function createFormats(locale: string, timeZone?: string): Formats {
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency: 'USD' });
  const shortMoney = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'USD',
    trailingZeroDisplay: 'stripIfInteger',
  });
  const calendarDate = new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const timeOfDay = new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone: 'UTC' });
  const instant = new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  });
  // Made on first use, like the formats themselves (the home page's start-up is timed). "auto"
  // for "yesterday"; "always" for seconds, where "auto" would say "now" for 0.
  let relative: Intl.RelativeTimeFormat | undefined;
  let instantTimeFormat: Intl.DateTimeFormat | undefined;
  let instantDayFormat: Intl.DateTimeFormat | undefined;
  let relativeSeconds: Intl.RelativeTimeFormat | undefined;
  return {
    price: (cents) => money.format(cents / 100),
    shortPrice: (cents) => shortMoney.format(cents / 100),
    date(isoDate) {
      const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
      if (!match) return isoDate;
      const [, year, month, day] = match.map(Number) as [number, number, number, number];
      return calendarDate.format(Date.UTC(year, month - 1, day));
    },
    hour(hhmm) {
      const match = /^(\d{2}):(\d{2})$/.exec(hhmm);
      if (!match) return hhmm;
      return timeOfDay.format(Date.UTC(1970, 0, 1, Number(match[1]), Number(match[2])));
    },
    timestamp(value) {
      const ms = typeof value === 'number' ? value : Date.parse(value);
      return Number.isFinite(ms) ? instant.format(ms) : String(value);
    },
    timeAgo(value, now) {
      const elapsed = Math.max(0, now - value);
      relative ??= new Intl.RelativeTimeFormat(locale, { numeric: 'auto', style: 'long' });
      relativeSeconds ??= new Intl.RelativeTimeFormat(locale, { numeric: 'always', style: 'long' });
      // A few seconds read as "now" ("jetzt"), not "0 seconds ago".
      if (elapsed < JUST_NOW) return relative.format(0, 'second');
      if (elapsed < MINUTE) return relativeSeconds.format(-Math.floor(elapsed / SECOND), 'second');
      if (elapsed < HOUR) return relative.format(-Math.floor(elapsed / MINUTE), 'minute');
      if (elapsed < DAY) return relative.format(-Math.floor(elapsed / HOUR), 'hour');
      return relative.format(-Math.floor(elapsed / DAY), 'day');
    },
    instantTime(value) {
      instantTimeFormat ??= new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone });
      return instantTimeFormat.format(value);
    },
    instantDay(value) {
      instantDayFormat ??= new Intl.DateTimeFormat(locale, {
        month: 'short',
        day: 'numeric',
        timeZone,
      });
      return instantDayFormat.format(value);
    },
  };
}

// Built on first use, not when the module loads: the home page's start-up is timed (decision 006).
let userFormats: Formats | undefined;
const formats = (): Formats => (userFormats ??= createFormats(preferredLocale()));

/** See `Formats.price`: the user's locale. */
export const formatPrice = (cents: number): string => formats().price(cents);
/** See `Formats.shortPrice`: the user's locale. */
export const formatShortPrice = (cents: number): string => formats().shortPrice(cents);
/** See `Formats.date`: the user's locale, never shifted by the time zone. */
export const formatDate = (isoDate: string): string => formats().date(isoDate);
/** See `Formats.hour`: the user's locale, never shifted by the time zone. */
export const formatHour = (hhmm: string): string => formats().hour(hhmm);
/** See `Formats.timeAgo`: the user's locale. */
export const formatTimeAgo = (instant: number, now: number): string =>
  formats().timeAgo(instant, now);
/** See `Formats.instantTime`: the user's locale and time zone. */
export const formatInstantTime = (instant: number): string => formats().instantTime(instant);
/** See `Formats.instantDay`: the user's locale and time zone. */
export const formatInstantDay = (instant: number): string => formats().instantDay(instant);
/** See `Formats.timestamp`: the user's locale and time zone. */
export const formatTimestamp = (instant: number | string): string => formats().timestamp(instant);
