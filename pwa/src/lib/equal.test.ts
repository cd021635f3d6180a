import { expect, test } from 'vitest';
import { sameItems, shallowEqual } from './equal.ts';

test('shallowEqual compares one level deep', () => {
  expect(shallowEqual({ live: true, at: 1 }, { live: true, at: 1 })).toBe(true);
  expect(shallowEqual({ live: true, at: 1 }, { live: true, at: 2 })).toBe(false);
  expect(shallowEqual({ a: 1 }, { a: 1, b: undefined } as { a: number })).toBe(false);
  expect(shallowEqual({ a: 1, b: undefined }, { a: 1, c: 2 } as never)).toBe(false);
  expect(shallowEqual({ list: [1] }, { list: [1] })).toBe(false);
});

test('sameItems compares lists of objects item by item', () => {
  const airlines = [
    { id: 'a', name: 'Alpha' },
    { id: 'b', name: 'Beta' },
  ];
  expect(
    sameItems(
      airlines,
      airlines.map((airline) => ({ ...airline })),
    ),
  ).toBe(true);
  expect(sameItems(airlines, [airlines[0]!])).toBe(false);
  expect(sameItems(airlines, [airlines[0]!, { id: 'b', name: 'Beta Air' }])).toBe(false);
  expect(sameItems([], [])).toBe(true);
});
