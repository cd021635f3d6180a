import { expect, test } from 'vitest';
import {
  formatCountdown,
  holdCoversCart,
  holdDeadline,
  requoteOf,
  timeLeft,
} from './hold-clock.ts';

const hold = {
  holdId: '00000000-0000-4000-8000-000000000001',
  totalCents: 125_13,
  expiresInMs: 600_000,
  lines: [
    { flightId: 'b', amount: 1, unitPriceCents: 50_00 },
    { flightId: 'a', amount: 2, unitPriceCents: 37_50 },
  ],
};

test('the countdown runs from what the server said was left when its answer arrived, not from the device clock against expiresAt', () => {
  const receivedAt = 1_000_000;
  const deadline = holdDeadline(hold, receivedAt);
  expect(timeLeft(deadline, receivedAt)).toBe(600_000);
  expect(timeLeft(deadline, receivedAt + 599_001)).toBe(999);
  expect(timeLeft(deadline, receivedAt + 700_000)).toBe(0);
});

test('the countdown shows minutes and seconds, rounded up, and 0:00 only once over', () => {
  expect(formatCountdown(600_000)).toBe('10:00');
  expect(formatCountdown(545_000)).toBe('9:05');
  expect(formatCountdown(999)).toBe('0:01');
  expect(formatCountdown(0)).toBe('0:00');
  expect(formatCountdown(-5)).toBe('0:00');
});

test('a re-quote shows the old and new totals until the buyer agrees to this quote', () => {
  expect(requoteOf(125_13, hold, null)).toBeNull();
  expect(requoteOf(100_10, hold, null)).toEqual({ oldTotalCents: 100_10, newTotalCents: 125_13 });
  expect(requoteOf(100_10, hold, { holdId: hold.holdId, totalCents: 125_13 })).toBeNull();
  // Agreeing to one quote is not agreeing to another (a new hold, a new price).
  expect(requoteOf(100_10, hold, { holdId: hold.holdId, totalCents: 110_11 })).not.toBeNull();
  expect(
    requoteOf(100_10, hold, { holdId: '00000000-0000-4000-8000-000000000002', totalCents: 125_13 }),
  ).not.toBeNull();
});

test('a hold covers the cart when flights and amounts match, in any order', () => {
  expect(
    holdCoversCart(hold, [
      { flightId: 'a', amount: 2 },
      { flightId: 'b', amount: 1 },
    ]),
  ).toBe(true);
  expect(
    holdCoversCart(hold, [
      { flightId: 'a', amount: 1 },
      { flightId: 'b', amount: 1 },
    ]),
  ).toBe(false);
  expect(holdCoversCart(hold, [{ flightId: 'a', amount: 2 }])).toBe(false);
});
