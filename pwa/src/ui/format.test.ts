import { afterEach, expect, test } from 'vitest';
import { FALLBACK_LOCALE, createFormats, preferredLocale } from './format.ts';

/**
 * One way to write prices, dates and times, the user's locale's (issue 16). Intl puts a narrow
 * no-break space in some of them (before "PM" in en-US); the tests compare with plain spaces.
 */
const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, ' ');

const usa = createFormats('en-US', 'UTC');
const germany = createFormats('de-DE', 'UTC');
const britain = createFormats('en-GB', 'UTC');

test('each locale writes a calendar date its own way', () => {
  expect(usa.date('2027-02-06')).toBe('Feb 6, 2027');
  expect(germany.date('2027-02-06')).toBe('06.02.2027');
  expect(britain.date('2027-02-06')).toBe('6 Feb 2027');
});

test('a timestamp uses the same date style as a calendar date, with the time', () => {
  const at = Date.UTC(2026, 10, 26, 15, 47, 18);
  expect(plain(usa.timestamp(at))).toBe('Nov 26, 2026, 3:47 PM');
  expect(germany.timestamp(at)).toBe('26.11.2026, 15:47');
  expect(britain.timestamp(at)).toBe('26 Nov 2026, 15:47');
  // An order's creation date comes as ISO 8601 text.
  expect(plain(usa.timestamp('2026-11-26T15:47:18.000Z'))).toBe('Nov 26, 2026, 3:47 PM');
});

test('money stays US dollars, written the way of each locale', () => {
  expect(usa.price(123_456)).toBe('$1,234.56');
  expect(plain(germany.price(123_456))).toBe('1.234,56 $');
  expect(britain.price(123_456)).toBe('US$1,234.56');
  expect(usa.price(5)).toBe('$0.05');
  expect(usa.shortPrice(120_000)).toBe('$1,200');
  expect(usa.shortPrice(1_250)).toBe('$12.50');
});

test('an hour of a flight is a time of day in the locale', () => {
  expect(plain(usa.hour('15:47'))).toBe('3:47 PM');
  expect(germany.hour('08:05')).toBe('08:05');
  expect(britain.hour('00:30')).toBe('00:30');
});

test('a calendar date and an hour never shift in a zone behind UTC', () => {
  // Midnight UTC is still the day before in Honolulu (UTC−10) and in Los Angeles.
  const honolulu = createFormats('en-US', 'Pacific/Honolulu');
  expect(honolulu.date('2027-02-06')).toBe('Feb 6, 2027');
  expect(honolulu.date('2027-01-01')).toBe('Jan 1, 2027');
  expect(plain(honolulu.hour('00:15'))).toBe('12:15 AM');
  // A timestamp is an instant: it does move to the viewer's zone.
  expect(plain(honolulu.timestamp(Date.UTC(2027, 0, 1, 5, 0)))).toBe('Dec 31, 2026, 7:00 PM');
});

const originalTz = process.env.TZ;
afterEach(() => {
  process.env.TZ = originalTz;
});

test("the default formats ignore the host's zone for calendar dates", () => {
  process.env.TZ = 'America/Sao_Paulo';
  const local = createFormats('en-GB');
  expect(local.date('2027-03-01')).toBe('1 Mar 2027');
  expect(local.hour('23:59')).toBe('23:59');
});

test('something that is not a date or an hour is shown as it came', () => {
  expect(usa.date('soon')).toBe('soon');
  expect(usa.hour('8h')).toBe('8h');
  expect(usa.timestamp('not a time')).toBe('not a time');
});

test("the locale is the browser's first language Intl knows, else en-US", () => {
  expect(preferredLocale(['de-DE', 'en-US'])).toBe('de-DE');
  expect(preferredLocale(['', 'not a tag!', 'en-gb'])).toBe('en-GB');
  expect(preferredLocale([])).toBe(FALLBACK_LOCALE);
  expect(FALLBACK_LOCALE).toBe('en-US');
});

test('how long ago, in the largest whole unit of the locale', () => {
  const now = Date.UTC(2026, 10, 27, 12, 0, 0);
  expect(usa.timeAgo(now - 12 * 60_000 - 30_000, now)).toBe('12 minutes ago');
  expect(usa.timeAgo(now - 45_000, now)).toBe('45 seconds ago');
  expect(usa.timeAgo(now, now)).toBe('now');
  expect(usa.timeAgo(now - 9_999, now)).toBe('now');
  expect(usa.timeAgo(now - 10_000, now)).toBe('10 seconds ago');
  expect(germany.timeAgo(now - 3_000, now)).toBe('jetzt');
  expect(usa.timeAgo(now - 60_000, now)).toBe('1 minute ago');
  expect(usa.timeAgo(now - 3 * 3_600_000, now)).toBe('3 hours ago');
  expect(usa.timeAgo(now - 26 * 3_600_000, now)).toBe('yesterday');
  expect(usa.timeAgo(now - 5 * 86_400_000, now)).toBe('5 days ago');
  expect(germany.timeAgo(now - 12 * 60_000, now)).toBe('vor 12 Minuten');
  // A clock set back: the instant is not in the future.
  expect(usa.timeAgo(now + 5000, now)).toBe('now');
});

test("an instant's time of day or day, short, in the viewer's time zone", () => {
  const at = Date.UTC(2026, 10, 26, 15, 47, 18);
  expect(plain(usa.instantTime(at))).toBe('3:47 PM');
  expect(usa.instantDay(at)).toBe('Nov 26');
  expect(germany.instantTime(at)).toBe('15:47');
  expect(germany.instantDay(at)).toBe('26. Nov.');
  expect(createFormats('en-US', 'Asia/Tokyo').instantDay(at)).toBe('Nov 27');
});
