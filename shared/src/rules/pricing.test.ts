import { expect, test } from 'vitest';
import { PRICE_BAND_LOW_MAX_CENTS, PRICE_BAND_MID_MAX_CENTS } from '../constants.ts';
import {
  calculateFeeCents,
  calculateTotals,
  formatCents,
  hasAtMostTwoDecimals,
  isInPriceBand,
  PRICE_BANDS,
  priceBandOf,
  toCents,
} from './pricing.ts';

test('a price of exactly 20.000 is in the low band', () => {
  expect(priceBandOf(PRICE_BAND_LOW_MAX_CENTS)).toBe('low');
  expect(priceBandOf(2_000_000)).toBe('low');
});

test('a price one cent above 20.000 is in the mid band', () => {
  expect(priceBandOf(2_000_001)).toBe('mid');
});

test('a price one cent below 40.000 is in the mid band', () => {
  expect(priceBandOf(3_999_999)).toBe('mid');
});

test('a price of exactly 40.000 is in the high band', () => {
  expect(priceBandOf(PRICE_BAND_MID_MAX_CENTS)).toBe('high');
  expect(priceBandOf(4_000_000)).toBe('high');
});

test('a zero price is in the low band and a huge one in the high band', () => {
  expect(priceBandOf(0)).toBe('low');
  expect(priceBandOf(Number.MAX_SAFE_INTEGER)).toBe('high');
});

test('the slider marks are all, low, mid and high in that order', () => {
  expect(PRICE_BANDS).toEqual(['all', 'low', 'mid', 'high']);
});

test('the all band accepts every price and the others only their own', () => {
  expect(isInPriceBand(5_000_000, 'all')).toBe(true);
  expect(isInPriceBand(5_000_000, 'high')).toBe(true);
  expect(isInPriceBand(5_000_000, 'mid')).toBe(false);
  expect(isInPriceBand(2_000_000, 'low')).toBe(true);
  expect(isInPriceBand(2_000_000, 'mid')).toBe(false);
});

test('the fee is 0.1 percent of the subtotal', () => {
  expect(calculateFeeCents(1_000_000)).toBe(1_000);
  expect(calculateFeeCents(123_456_000)).toBe(123_456);
});

test('the fee rounds half up to the cent', () => {
  expect(calculateFeeCents(499)).toBe(0);
  expect(calculateFeeCents(500)).toBe(1);
  expect(calculateFeeCents(1_499)).toBe(1);
  expect(calculateFeeCents(1_500)).toBe(2);
  expect(calculateFeeCents(2_500)).toBe(3);
});

test('the fee on a zero subtotal is zero', () => {
  expect(calculateFeeCents(0)).toBe(0);
});

test('the fee refuses a negative or fractional subtotal', () => {
  expect(() => calculateFeeCents(-1)).toThrow(RangeError);
  expect(() => calculateFeeCents(1.5)).toThrow(RangeError);
  expect(() => calculateFeeCents(Number.NaN)).toThrow(RangeError);
});

test('totals add unit price times amount and the fee on the whole subtotal', () => {
  const totals = calculateTotals([
    { unitPriceCents: 1_999_99, amount: 2 },
    { unitPriceCents: 50_00, amount: 1 },
  ]);
  expect(totals).toEqual({ subtotalCents: 4_049_98, feeCents: 405, totalCents: 4_054_03 });
});

test('the fee is taken once on the subtotal, not rounded per line', () => {
  const totals = calculateTotals([
    { unitPriceCents: 400, amount: 1 },
    { unitPriceCents: 400, amount: 1 },
  ]);
  expect(totals.feeCents).toBe(1);
  expect(totals.totalCents).toBe(801);
});

test('an empty cart totals zero', () => {
  expect(calculateTotals([])).toEqual({ subtotalCents: 0, feeCents: 0, totalCents: 0 });
});

test('totals refuse a fractional amount or a negative price', () => {
  expect(() => calculateTotals([{ unitPriceCents: 100, amount: 1.5 }])).toThrow(RangeError);
  expect(() => calculateTotals([{ unitPriceCents: -100, amount: 1 }])).toThrow(RangeError);
});

test('totals refuse a subtotal beyond safe integers', () => {
  expect(() => calculateTotals([{ unitPriceCents: Number.MAX_SAFE_INTEGER, amount: 2 }])).toThrow(
    RangeError,
  );
});

test('cents format with two decimals and no grouping', () => {
  expect(formatCents(123_456)).toBe('1234.56');
  expect(formatCents(5)).toBe('0.05');
  expect(formatCents(50)).toBe('0.50');
  expect(formatCents(0)).toBe('0.00');
  expect(formatCents(100)).toBe('1.00');
});

test('negative cents format with a leading minus', () => {
  expect(formatCents(-150)).toBe('-1.50');
  expect(formatCents(-5)).toBe('-0.05');
});

test('formatting refuses fractional cents', () => {
  expect(() => formatCents(1.5)).toThrow(RangeError);
  expect(() => formatCents(Number.POSITIVE_INFINITY)).toThrow(RangeError);
});

test('toCents removes binary float noise', () => {
  expect(toCents(0.1 + 0.2)).toBe(30);
  expect(toCents(19.99)).toBe(1999);
  expect(toCents(1.1 * 3)).toBe(330);
  expect(toCents(20000)).toBe(2_000_000);
});

test('toCents rounds half away from zero on the third decimal', () => {
  expect(toCents(1.005)).toBe(101);
  expect(toCents(1.004)).toBe(100);
  expect(toCents(-1.005)).toBe(-101);
});

test('toCents never returns negative zero', () => {
  expect(Object.is(toCents(-0.001), 0)).toBe(true);
});

test('toCents refuses non-finite values', () => {
  expect(() => toCents(Number.NaN)).toThrow(RangeError);
  expect(() => toCents(Number.POSITIVE_INFINITY)).toThrow(RangeError);
});

test('toCents and formatCents round-trip a typed price', () => {
  expect(formatCents(toCents(1234.5))).toBe('1234.50');
});

test('a price with at most two decimals is accepted, float noise included', () => {
  expect(hasAtMostTwoDecimals(19.99)).toBe(true);
  expect(hasAtMostTwoDecimals(0.1 + 0.2)).toBe(true);
  expect(hasAtMostTwoDecimals(7)).toBe(true);
  expect(hasAtMostTwoDecimals(1.001)).toBe(false);
  expect(hasAtMostTwoDecimals(Number.NaN)).toBe(false);
});
