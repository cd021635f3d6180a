import { expect, test } from 'vitest';
import {
  PRICE_HISTORY_MAX_POINTS,
  latestPriceDrop,
  pruneHistories,
  recordPrice,
  recordPrices,
  type PriceHistory,
} from './price-history.ts';

const FLIGHT = 'f-1';

test('the first price seen starts the history and is no drop', () => {
  const { history, drop } = recordPrice([], FLIGHT, 50_000, 1000);
  expect(history).toEqual([{ at: 1000, priceCents: 50_000 }]);
  expect(drop).toBeNull();
});

test('the same price again changes nothing and returns the same history', () => {
  const before: PriceHistory = [{ at: 1000, priceCents: 50_000 }];
  const { history, drop } = recordPrice(before, FLIGHT, 50_000, 2000);
  expect(history).toBe(before);
  expect(drop).toBeNull();
});

test('a lower price is recorded and reported as a drop from the last recorded price', () => {
  const before: PriceHistory = [
    { at: 1000, priceCents: 60_000 },
    { at: 2000, priceCents: 50_000 },
  ];
  const { history, drop } = recordPrice(before, FLIGHT, 40_000, 3000);
  expect(history).toEqual([...before, { at: 3000, priceCents: 40_000 }]);
  expect(drop).toEqual({ flightId: FLIGHT, fromCents: 50_000, toCents: 40_000, at: 3000 });
});

test('a higher price is recorded but is no drop', () => {
  const { history, drop } = recordPrice([{ at: 1000, priceCents: 40_000 }], FLIGHT, 45_000, 2000);
  expect(history.map((point) => point.priceCents)).toEqual([40_000, 45_000]);
  expect(drop).toBeNull();
});

test('the history keeps only the last 50 points, oldest dropped first', () => {
  let history: PriceHistory = [];
  for (let i = 0; i < PRICE_HISTORY_MAX_POINTS + 7; i += 1)
    history = recordPrice(history, FLIGHT, 10_000 + i, i).history;
  expect(history).toHaveLength(PRICE_HISTORY_MAX_POINTS);
  expect(history[0]).toEqual({ at: 7, priceCents: 10_007 });
  expect(history.at(-1)).toEqual({ at: 56, priceCents: 10_056 });
});

test('a smaller bound is respected too', () => {
  let history: PriceHistory = [];
  for (const price of [5, 4, 3, 2]) history = recordPrice(history, FLIGHT, price, price, 3).history;
  expect(history.map((point) => point.priceCents)).toEqual([4, 3, 2]);
});

test('a clock set back does not put a point before the last one', () => {
  const { history } = recordPrice([{ at: 5000, priceCents: 100 }], FLIGHT, 90, 4000);
  expect(history.at(-1)).toEqual({ at: 5000, priceCents: 90 });
});

test('recordPrices reports the drops of one sync and whether anything changed', () => {
  const histories = {
    a: [{ at: 1, priceCents: 100 }],
    b: [{ at: 1, priceCents: 200 }],
    c: [{ at: 1, priceCents: 300 }],
  };
  const result = recordPrices(
    histories,
    [
      { flightId: 'a', priceCents: 100 }, // unchanged
      { flightId: 'b', priceCents: 150 }, // dropped
      { flightId: 'c', priceCents: 350 }, // rose
      { flightId: 'd', priceCents: 400 }, // first seen
    ],
    10,
  );
  expect(result.changed).toBe(true);
  expect(result.drops).toEqual([{ flightId: 'b', fromCents: 200, toCents: 150, at: 10 }]);
  expect(result.histories.a).toBe(histories.a);
  expect(result.histories.b).toHaveLength(2);
  expect(result.histories.c).toHaveLength(2);
  expect(result.histories.d).toEqual([{ at: 10, priceCents: 400 }]);
  // The input is not modified.
  expect(histories.b).toHaveLength(1);
});

test('recordPrices with nothing new returns the same histories, unchanged', () => {
  const histories = { a: [{ at: 1, priceCents: 100 }] };
  const result = recordPrices(histories, [{ flightId: 'a', priceCents: 100 }], 10);
  expect(result).toEqual({ histories, drops: [], changed: false });
  expect(result.histories).toBe(histories);
});

test('the first sync after a drop detects it once; the next sync with that price does not', () => {
  let histories = recordPrices({}, [{ flightId: 'a', priceCents: 500 }], 1).histories;
  const afterDrop = recordPrices(histories, [{ flightId: 'a', priceCents: 400 }], 2);
  expect(afterDrop.drops).toHaveLength(1);
  histories = afterDrop.histories;
  expect(recordPrices(histories, [{ flightId: 'a', priceCents: 400 }], 3).drops).toEqual([]);
});

test('latestPriceDrop shows the last change while it was a drop', () => {
  expect(latestPriceDrop(FLIGHT, [])).toBeNull();
  expect(latestPriceDrop(FLIGHT, [{ at: 1, priceCents: 100 }])).toBeNull();
  expect(
    latestPriceDrop(FLIGHT, [
      { at: 1, priceCents: 100 },
      { at: 2, priceCents: 80 },
    ]),
  ).toEqual({ flightId: FLIGHT, fromCents: 100, toCents: 80, at: 2 });
  // It rose again afterwards: no badge.
  expect(
    latestPriceDrop(FLIGHT, [
      { at: 1, priceCents: 100 },
      { at: 2, priceCents: 80 },
      { at: 3, priceCents: 90 },
    ]),
  ).toBeNull();
});

test('histories of flights no longer followed are kept up to a bound, the most recent first', () => {
  const histories = {
    followed: [{ at: 1, priceCents: 1 }],
    old: [{ at: 2, priceCents: 1 }],
    recent: [{ at: 9, priceCents: 1 }],
    middle: [{ at: 5, priceCents: 1 }],
  };
  const followed = new Set(['followed']);
  // Within the bound: the same object, nothing written.
  expect(pruneHistories(histories, followed, 3)).toBe(histories);
  expect(Object.keys(pruneHistories(histories, followed, 2)).sort()).toEqual([
    'followed',
    'middle',
    'recent',
  ]);
  // A followed flight is never dropped, however old.
  expect(Object.keys(pruneHistories(histories, followed, 0))).toEqual(['followed']);
});
