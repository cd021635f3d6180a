import { expect, test } from 'vitest';
import { canReviewLine, markFlightReviewed } from './order.ts';

test('reviewing a flight marks every line of that flight in the order', () => {
  const lines = Object.freeze([
    Object.freeze({ id: 'l1', flightId: 'a', review: false }),
    Object.freeze({ id: 'l2', flightId: 'b', review: false }),
    Object.freeze({ id: 'l3', flightId: 'a', review: false }),
  ]);
  expect(markFlightReviewed(lines, 'a')).toEqual([
    { id: 'l1', flightId: 'a', review: true },
    { id: 'l2', flightId: 'b', review: false },
    { id: 'l3', flightId: 'a', review: true },
  ]);
});

test('reviewing a flight not in the order changes nothing', () => {
  const lines = [{ flightId: 'a', review: false }];
  expect(markFlightReviewed(lines, 'z')).toEqual(lines);
});

test('an already reviewed line stays the same object', () => {
  const reviewed = { flightId: 'a', review: true };
  expect(markFlightReviewed([reviewed], 'a')[0]).toBe(reviewed);
});

test('the review button is enabled only for a line not yet reviewed', () => {
  expect(canReviewLine({ flightId: 'a', review: false })).toBe(true);
  expect(canReviewLine({ flightId: 'a', review: true })).toBe(false);
});
