import { expect, test } from 'vitest';
import { calculateMonthlySalesTotals, saleTotalCents } from './sales.ts';

const at = (iso: string) => Date.parse(iso);
const zeros = Array.from({ length: 12 }, (_, i) => ({ month: i + 1, tickets: 0, amountCents: 0 }));

test('the total of a sale is its unit price times the tickets', () => {
  expect(saleTotalCents({ priceCents: 19_999, amount: 3 })).toBe(59_997);
});

test('no sales give twelve zero months', () => {
  expect(calculateMonthlySalesTotals([])).toEqual(zeros);
});

test('sales add up tickets and amount in their month', () => {
  const totals = calculateMonthlySalesTotals([
    { priceCents: 10_000, amount: 2, createdAt: at('2030-01-05T12:00:00Z') },
    { priceCents: 5_000, amount: 1, createdAt: at('2030-01-31T23:59:59Z') },
    { priceCents: 7_000, amount: 3, createdAt: at('2030-12-01T00:00:00Z') },
  ]);
  expect(totals[0]).toEqual({ month: 1, tickets: 3, amountCents: 25_000 });
  expect(totals[1]).toEqual({ month: 2, tickets: 0, amountCents: 0 });
  expect(totals[11]).toEqual({ month: 12, tickets: 3, amountCents: 21_000 });
  expect(totals).toHaveLength(12);
});

test('without a year, the same month of different years adds together', () => {
  const totals = calculateMonthlySalesTotals([
    { priceCents: 100, amount: 1, createdAt: at('2029-03-10T00:00:00Z') },
    { priceCents: 100, amount: 1, createdAt: at('2030-03-10T00:00:00Z') },
  ]);
  expect(totals[2]).toEqual({ month: 3, tickets: 2, amountCents: 200 });
});

test('with a year, sales of other years are left out', () => {
  const totals = calculateMonthlySalesTotals(
    [
      { priceCents: 100, amount: 1, createdAt: at('2029-03-10T00:00:00Z') },
      { priceCents: 100, amount: 4, createdAt: at('2030-03-10T00:00:00Z') },
    ],
    { year: 2030 },
  );
  expect(totals[2]).toEqual({ month: 3, tickets: 4, amountCents: 400 });
});

test('a sale near midnight falls in the month of the viewer time zone', () => {
  const sale = { priceCents: 100, amount: 1, createdAt: at('2030-02-01T01:00:00Z') };
  expect(calculateMonthlySalesTotals([sale])[1]?.tickets).toBe(1);
  const inBuenosAires = calculateMonthlySalesTotals([sale], { utcOffsetMinutes: -180 });
  expect(inBuenosAires[0]?.tickets).toBe(1);
  expect(inBuenosAires[1]?.tickets).toBe(0);
});

test('the year boundary also follows the viewer time zone', () => {
  const sale = { priceCents: 100, amount: 1, createdAt: at('2031-01-01T02:00:00Z') };
  const totals = calculateMonthlySalesTotals([sale], { year: 2030, utcOffsetMinutes: -180 });
  expect(totals[11]?.tickets).toBe(1);
});

test('an invalid sale time or offset is refused', () => {
  expect(() =>
    calculateMonthlySalesTotals([{ priceCents: 1, amount: 1, createdAt: Number.NaN }]),
  ).toThrow(RangeError);
  expect(() => calculateMonthlySalesTotals([], { utcOffsetMinutes: Number.NaN })).toThrow(
    RangeError,
  );
});

test('the input sales are not changed', () => {
  const sales = Object.freeze([Object.freeze({ priceCents: 1, amount: 1, createdAt: 0 })]);
  expect(() => calculateMonthlySalesTotals(sales)).not.toThrow();
});
