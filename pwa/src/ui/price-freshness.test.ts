import { expect, test } from 'vitest';
import { createFormats } from './format.ts';
import { freshnessText } from './price-freshness.tsx';

const usa = createFormats('en-US', 'UTC');
const now = Date.UTC(2026, 10, 27, 12, 0, 0);

test('live prices, or prices before the local data has opened, say nothing', () => {
  expect(freshnessText(null, now, usa.timeAgo)).toBeNull();
  expect(freshnessText({ live: true, asOf: now - 3_600_000 }, now, usa.timeAgo)).toBeNull();
  expect(freshnessText({ live: true, asOf: null }, now, usa.timeAgo)).toBeNull();
});

test('prices that are not live say how old they are, in the locale', () => {
  expect(freshnessText({ live: false, asOf: now - 12 * 60_000 }, now, usa.timeAgo)).toBe(
    'Prices as of 12 minutes ago',
  );
  expect(freshnessText({ live: false, asOf: now - 20_000 }, now, usa.timeAgo)).toBe(
    'Prices as of 20 seconds ago',
  );
  expect(freshnessText({ live: false, asOf: now - 2 * 86_400_000 }, now, usa.timeAgo)).toBe(
    'Prices as of 2 days ago',
  );
});

test('prices of unknown age say they may have changed', () => {
  expect(freshnessText({ live: false, asOf: null }, now, usa.timeAgo)).toBe(
    'Prices as last saved on this device: they may have changed',
  );
});
