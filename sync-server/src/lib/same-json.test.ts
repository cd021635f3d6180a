import { describe, expect, test } from 'vitest';
import { sameJson } from './same-json.ts';

/** What sameJson stands for: JSON with sorted keys (how push.ts compared documents before). */
function sortedJson(value: unknown): string | undefined {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

const favourite = {
  id: '6f1c8a8e-2f0a-4c59-9d1e-0a8b7f0c1d2e',
  userId: 'b3c1d2e4-5f60-4a7b-8c9d-0e1f2a3b4c5d',
  flightId: '6f1c8a8e-2f0a-4c59-9d1e-0a8b7f0c1d2e',
  airlineName: 'Storm Air',
  priceCents: 12345,
  createdAt: 1_795_786_805_392,
  _deleted: false,
};

describe('sameJson', () => {
  test.each([
    ['the same document, keys in another order', favourite, { ...favourite }, true],
    ['reordered keys', { a: 1, b: 'x' }, { b: 'x', a: 1 }, true],
    ['a field the server completed', { ...favourite, flightDeleted: false }, favourite, false],
    ['a changed price', { ...favourite, priceCents: 1 }, favourite, false],
    ['a number against its text', { n: 1 }, { n: '1' }, false],
    ['null against an absent key', { n: null }, {}, false],
    ['undefined against an absent key', { n: undefined }, {}, true],
    ['a function against an absent key', { n: () => 1 }, {}, true],
    ['undefined in an array is null', [undefined], [null], true],
    ['NaN is null', { n: Number.NaN }, { n: null }, true],
    ['Infinity is null', [Number.POSITIVE_INFINITY], [null], true],
    ['a Date is its ISO text', { at: new Date(0) }, { at: '1970-01-01T00:00:00.000Z' }, true],
    [
      'nested objects in any order',
      { o: { a: [1, { b: 2, c: 3 }] } },
      { o: { a: [1, { c: 3, b: 2 }] } },
      true,
    ],
    ['nested difference', { o: { a: [1, { b: 2 }] } }, { o: { a: [1, { b: 3 }] } }, false],
    ['arrays of other lengths', [1, 2], [1, 2, 3], false],
    ['an array against an object', [], {}, false],
    ['false against 0', { v: false }, { v: 0 }, false],
    ['an extra key on the right', { a: 1 }, { a: 1, b: 2 }, false],
    ['an extra key on the left', { a: 1, b: 2 }, { a: 1 }, false],
    ['keys swapped between values', { a: 1, b: 2 }, { a: 2, b: 1 }, false],
  ])('%s', (_name, a, b, same) => {
    expect(sameJson(a, b)).toBe(same);
    expect(sameJson(b, a)).toBe(same);
    // The reference it replaces agrees.
    expect(sortedJson(a) === sortedJson(b)).toBe(same);
  });

  test('agrees with JSON of sorted keys on random documents', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 16_807) % 2_147_483_647) - 1) / 2_147_483_646;
    const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
    const leaves = [0, 1, -0, 2.5, '', 'x', 'y', true, false, null, undefined, Number.NaN];
    const value = (depth: number): unknown => {
      const kind = depth > 2 ? 0 : Math.floor(random() * 3);
      if (kind === 0) return pick(leaves);
      if (kind === 1)
        return Array.from({ length: Math.floor(random() * 3) }, () => value(depth + 1));
      const object: Record<string, unknown> = {};
      for (const key of ['a', 'b', 'c']) if (random() < 0.6) object[key] = value(depth + 1);
      return object;
    };
    // The same value with every object's keys in reverse order.
    const reordered = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(reordered)
        : v !== null && typeof v === 'object'
          ? Object.fromEntries(
              Object.entries(v)
                .reverse()
                .map(([k, item]) => [k, reordered(item)]),
            )
          : v;
    let equal = 0;
    for (let i = 0; i < 5_000; i++) {
      const a = value(0);
      // Half the time a copy with its keys reversed, else an independent value.
      const b = random() < 0.5 ? reordered(a) : value(0);
      const expected = sortedJson(a) === sortedJson(b);
      if (expected) equal += 1;
      expect(sameJson(a, b), `${sortedJson(a)} vs ${sortedJson(b)}`).toBe(expected);
    }
    // Both outcomes were exercised.
    expect(equal).toBeGreaterThan(500);
    expect(equal).toBeLessThan(4_500);
  });
});
