import { expect, test } from 'vitest';
import { backoffMs, DEFAULT_RETRY } from './replication.ts';

test('the sync backoff doubles from the base and stops at the maximum', () => {
  const waits = [1, 2, 3, 6, 7, 50, 10_000].map((failures) => backoffMs(DEFAULT_RETRY, failures));
  expect(waits).toEqual([1000, 2000, 4000, 32_000, 60_000, 60_000, 60_000]);
  // Before any failure (a reset counter), the base.
  expect(backoffMs({ baseMs: 50, maxMs: 200 }, 0)).toBe(50);
});
