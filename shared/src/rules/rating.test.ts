import { expect, test } from 'vitest';
import { averageRating, averageRatingOf } from './rating.ts';

test('no reviews give no average rather than zero', () => {
  expect(averageRating([])).toBeNull();
  expect(averageRatingOf([])).toBeNull();
});

test('a single review is its own average', () => {
  expect(averageRating([4])).toBe(4);
});

test('an average rounds to the nearest half star', () => {
  expect(averageRating([4, 5])).toBe(4.5);
  expect(averageRating([4, 4, 5])).toBe(4.5); // 4.33
  expect(averageRating([4, 5, 5])).toBe(4.5); // 4.67
  expect(averageRating([4, 5, 5, 5, 5, 5])).toBe(5); // 4.83
  expect(averageRating([1, 1, 2])).toBe(1.5); // 1.33
  expect(averageRating([1, 1, 1, 1, 2])).toBe(1); // 1.2
  expect(averageRating([1, 2, 2])).toBe(1.5); // 1.67
  expect(averageRating([3, 3, 3, 4, 4, 4, 4, 4, 4, 4])).toBe(3.5); // 3.7
});

test('an exact quarter rounds up to the next half', () => {
  expect(averageRating([1, 1, 1, 2])).toBe(1.5); // 1.25
  expect(averageRating([4, 5, 5, 5])).toBe(5); // 4.75
});

test('a just-below-quarter average rounds down', () => {
  expect(averageRating([2, 2, 2, 2, 3])).toBe(2); // 2.2
});

test('all ones and all fives stay at the ends of the scale', () => {
  expect(averageRating([1, 1, 1])).toBe(1);
  expect(averageRating(Array.from({ length: 1000 }, () => 5))).toBe(5);
});

test('a rating outside 1 to 5 or not whole is refused', () => {
  expect(() => averageRating([0])).toThrow(RangeError);
  expect(() => averageRating([6])).toThrow(RangeError);
  expect(() => averageRating([3.5])).toThrow(RangeError);
  expect(() => averageRating([Number.NaN])).toThrow(RangeError);
});

test('the average of reviews reads their rating field', () => {
  expect(averageRatingOf([{ rating: 2 }, { rating: 3 }])).toBe(2.5);
});
