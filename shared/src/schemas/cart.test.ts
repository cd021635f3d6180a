import { expect, test } from 'vitest';
import {
  CART_LINE_MAX_AMOUNT,
  CART_MAX_LINES,
  CartItemSchema,
  CartLineSchema,
  PutCartBodySchema,
} from './cart.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const line = {
  flightId: id(1),
  airlineId: id(2),
  airlineName: 'Test Air',
  origin: 'Argentina',
  destination: 'Chile',
  priceCents: 19_999,
  logo: '/logos/test.png',
  departureHour: '08:00',
  arrivalHour: '10:30',
  tickets: 5,
  amount: 1,
};

test('a browser cart line with the flight snapshot parses', () => {
  expect(CartLineSchema.parse(line)).toEqual(line);
});

test('a cart line amount starts at 1 and is whole', () => {
  expect(CartLineSchema.safeParse({ ...line, amount: 0 }).success).toBe(false);
  expect(CartLineSchema.safeParse({ ...line, amount: 1.5 }).success).toBe(false);
  expect(CartLineSchema.safeParse({ ...line, amount: CART_LINE_MAX_AMOUNT + 1 }).success).toBe(
    false,
  );
});

test('a cart line may hold more tickets than its stale stock snapshot', () => {
  expect(CartLineSchema.safeParse({ ...line, amount: 3, tickets: 0 }).success).toBe(true);
});

test('a cart line refuses a fractional price or negative stock', () => {
  expect(CartLineSchema.safeParse({ ...line, priceCents: 199.99 }).success).toBe(false);
  expect(CartLineSchema.safeParse({ ...line, tickets: -1 }).success).toBe(false);
});

test('a server cart item is a flight and an amount', () => {
  expect(CartItemSchema.parse({ flightId: id(1), amount: 2, extra: true })).toEqual({
    flightId: id(1),
    amount: 2,
  });
  expect(CartItemSchema.safeParse({ flightId: 'abc', amount: 2 }).success).toBe(false);
});

test('an empty cart body empties the cart', () => {
  expect(PutCartBodySchema.parse({ lines: [] })).toEqual({ lines: [] });
});

test('a cart body holds each flight once', () => {
  const result = PutCartBodySchema.safeParse({
    lines: [
      { flightId: id(1), amount: 1 },
      { flightId: id(1), amount: 2 },
    ],
  });
  expect(result.success).toBe(false);
});

test('a cart body holds at most the maximum number of lines', () => {
  const lines = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ flightId: id(i), amount: 1 }));
  expect(PutCartBodySchema.safeParse({ lines: lines(CART_MAX_LINES) }).success).toBe(true);
  expect(PutCartBodySchema.safeParse({ lines: lines(CART_MAX_LINES + 1) }).success).toBe(false);
});

test('a cart body without lines is refused', () => {
  expect(PutCartBodySchema.safeParse({}).success).toBe(false);
  expect(PutCartBodySchema.safeParse({ lines: 'all' }).success).toBe(false);
});
