import { expect, test } from 'vitest';
import { snapshotForCartLine, type CartLine } from '../schemas/cart.ts';
import { testFlight } from '../testing.ts';
import {
  addToCart,
  calculateCartTotals,
  cartLineFromFlight,
  cartTicketCount,
  decrementCartLine,
  incrementCartLine,
  isFlightAvailable,
  mergeCartLines,
  payableCartLines,
  removeFromCart,
} from './cart.ts';
import { messages } from '../messages.ts';

const FLIGHT_A = '00000000-0000-4000-8000-00000000000a';
const FLIGHT_B = '00000000-0000-4000-8000-00000000000b';
const AIRLINE = '00000000-0000-4000-8000-0000000000a1';

function line(flightId: string, amount: number, tickets: number, priceCents = 10_000): CartLine {
  return {
    flightId,
    airlineId: AIRLINE,
    airlineName: 'Aerolíneas Test',
    origin: 'Argentina',
    destination: 'Chile',
    priceCents,
    logo: '/logos/test.png',
    departureHour: '08:00',
    arrivalHour: '10:30',
    tickets,
    amount,
  };
}

function frozen<T>(lines: T[]): readonly T[] {
  return Object.freeze(lines.map((l) => Object.freeze(l)));
}

test('adding a new flight appends a line with amount 1', () => {
  const result = addToCart(frozen([]), line(FLIGHT_A, 7, 10));
  expect(result).toEqual({ ok: true, lines: [line(FLIGHT_A, 1, 10)] });
});

test('adding a flight already in the cart raises its amount by 1', () => {
  const result = addToCart(frozen([line(FLIGHT_A, 2, 10)]), line(FLIGHT_A, 1, 10));
  expect(result).toEqual({ ok: true, lines: [line(FLIGHT_A, 3, 10)] });
});

test('adding a flight refreshes its snapshot with the latest price and stock', () => {
  const result = addToCart(frozen([line(FLIGHT_A, 2, 10, 100)]), line(FLIGHT_A, 1, 8, 150));
  expect(result).toEqual({ ok: true, lines: [line(FLIGHT_A, 3, 8, 150)] });
});

test('adding a flight whose amount already equals its stock is refused with the stock', () => {
  const result = addToCart(frozen([line(FLIGHT_A, 3, 3)]), line(FLIGHT_A, 1, 3));
  expect(result).toEqual({
    ok: false,
    message: "You can't buy more tickets, there's not enough in stock 3",
  });
});

test('adding a flight whose stock dropped below the cart amount is refused', () => {
  const result = addToCart(frozen([line(FLIGHT_A, 5, 10)]), line(FLIGHT_A, 1, 2));
  expect(result).toEqual({
    ok: false,
    message: "You can't buy more tickets, there's not enough in stock 2",
  });
});

test('adding a flight with zero stock says no stock is available', () => {
  expect(addToCart(frozen([]), line(FLIGHT_A, 1, 0))).toEqual({
    ok: false,
    message: 'No stock available',
  });
  expect(addToCart(frozen([line(FLIGHT_A, 1, 4)]), line(FLIGHT_A, 1, 0))).toEqual({
    ok: false,
    message: 'No stock available',
  });
});

test('adding a flight with one ticket left takes exactly that ticket', () => {
  const first = addToCart(frozen([]), line(FLIGHT_A, 1, 1));
  expect(first.ok).toBe(true);
  if (!first.ok) return;
  expect(addToCart(first.lines, line(FLIGHT_A, 1, 1)).ok).toBe(false);
});

test('adding leaves other lines and their order untouched', () => {
  const cart = frozen([line(FLIGHT_A, 1, 5), line(FLIGHT_B, 1, 5)]);
  const result = addToCart(cart, line(FLIGHT_A, 1, 5));
  expect(result).toEqual({ ok: true, lines: [line(FLIGHT_A, 2, 5), line(FLIGHT_B, 1, 5)] });
});

test('adding never mutates the cart it was given', () => {
  const cart = [line(FLIGHT_A, 1, 5)];
  const before = cart.map((l) => ({ ...l }));
  const result = addToCart(cart, line(FLIGHT_A, 1, 5));
  expect(cart).toEqual(before);
  expect(result.ok && result.lines).not.toBe(cart);
});

test('plus raises the amount by 1 while below the stock', () => {
  expect(incrementCartLine(frozen([line(FLIGHT_A, 1, 2)]), FLIGHT_A)).toEqual({
    ok: true,
    lines: [line(FLIGHT_A, 2, 2)],
  });
});

test('plus at the stock is refused with the stock amount', () => {
  expect(incrementCartLine(frozen([line(FLIGHT_A, 2, 2)]), FLIGHT_A)).toEqual({
    ok: false,
    message: "You can't buy more tickets, there's not enough in stock 2",
  });
});

test('plus on a line whose stock is now zero says no stock is available', () => {
  expect(incrementCartLine(frozen([line(FLIGHT_A, 1, 0)]), FLIGHT_A)).toEqual({
    ok: false,
    message: 'No stock available',
  });
});

test('plus on a flight that is not in the cart changes nothing', () => {
  const cart = frozen([line(FLIGHT_A, 1, 5)]);
  expect(incrementCartLine(cart, FLIGHT_B)).toEqual({ ok: true, lines: [line(FLIGHT_A, 1, 5)] });
});

test('minus lowers the amount by 1', () => {
  expect(decrementCartLine(frozen([line(FLIGHT_A, 3, 5)]), FLIGHT_A)).toEqual([
    line(FLIGHT_A, 2, 5),
  ]);
});

test('minus never goes below 1', () => {
  expect(decrementCartLine(frozen([line(FLIGHT_A, 1, 5)]), FLIGHT_A)).toEqual([
    line(FLIGHT_A, 1, 5),
  ]);
});

test('minus only touches the chosen flight', () => {
  const cart = frozen([line(FLIGHT_A, 3, 5), line(FLIGHT_B, 3, 5)]);
  expect(decrementCartLine(cart, FLIGHT_B)).toEqual([line(FLIGHT_A, 3, 5), line(FLIGHT_B, 2, 5)]);
});

test('remove deletes the line of that flight', () => {
  const cart = frozen([line(FLIGHT_A, 3, 5), line(FLIGHT_B, 1, 5)]);
  expect(removeFromCart(cart, FLIGHT_A)).toEqual([line(FLIGHT_B, 1, 5)]);
});

test('removing a flight that is not in the cart changes nothing', () => {
  const cart = frozen([line(FLIGHT_A, 3, 5)]);
  expect(removeFromCart(cart, FLIGHT_B)).toEqual([line(FLIGHT_A, 3, 5)]);
  expect(removeFromCart(frozen([]), FLIGHT_B)).toEqual([]);
});

test('a lean line with only flight, amount and stock works too', () => {
  const result = addToCart([{ flightId: 'x', amount: 1, tickets: 2 }], {
    flightId: 'x',
    amount: 1,
    tickets: 2,
  });
  expect(result).toEqual({ ok: true, lines: [{ flightId: 'x', amount: 2, tickets: 2 }] });
});

test('a cart line from a flight starts at amount 1 with the flight snapshot', () => {
  const flight = testFlight({
    id: FLIGHT_A,
    airlineId: AIRLINE,
    airlineName: 'Aerolíneas Test',
    priceCents: 10_000,
    tickets: 10,
  });
  expect(cartLineFromFlight(flight)).toEqual(line(FLIGHT_A, 1, 10));
});

test("a cart line's snapshot is the flight's current stock and price, never an amount", () => {
  const snapshot = snapshotForCartLine(testFlight({ priceCents: 7_500, tickets: 0 }));
  expect(snapshot).toMatchObject({ priceCents: 7_500, tickets: 0 });
  expect(snapshot).not.toHaveProperty('amount');
  expect(snapshot).not.toHaveProperty('flightId');
});

test('merging carts sums the amounts of the same flight, capped by stock', () => {
  const saved = frozen([line(FLIGHT_A, 2, 10), line(FLIGHT_B, 4, 5)]);
  const guest = frozen([line(FLIGHT_B, 3, 5)]);
  expect(mergeCartLines(saved, guest)).toEqual([line(FLIGHT_A, 2, 10), line(FLIGHT_B, 5, 5)]);
});

test('merging carts appends the guest flights that were not saved', () => {
  const saved = frozen([line(FLIGHT_A, 2, 10)]);
  const guest = frozen([line(FLIGHT_B, 1, 5)]);
  expect(mergeCartLines(saved, guest)).toEqual([line(FLIGHT_A, 2, 10), line(FLIGHT_B, 1, 5)]);
});

test('merging a line whose stock ran out keeps amount 1 for checkout to refuse', () => {
  expect(mergeCartLines(frozen([line(FLIGHT_A, 2, 3)]), frozen([line(FLIGHT_A, 1, 0)]))).toEqual([
    line(FLIGHT_A, 1, 0),
  ]);
});

test('the ticket count is the sum of the amounts', () => {
  expect(cartTicketCount([line(FLIGHT_A, 2, 5), line(FLIGHT_B, 3, 5)])).toBe(5);
  expect(cartTicketCount([])).toBe(0);
});

test('cart totals add the fee of 0.1 percent on the subtotal', () => {
  expect(calculateCartTotals([line(FLIGHT_A, 2, 5, 250_000), line(FLIGHT_B, 1, 5, 1_000)])).toEqual(
    { subtotalCents: 501_000, feeCents: 501, totalCents: 501_501 },
  );
});

/** A line whose flight the server reports deleted (its stock then reads 0, as the server sends it). */
function gone(flightId: string, amount: number, priceCents = 10_000): CartLine {
  return { ...line(flightId, amount, 0, priceCents), flightDeleted: true };
}

test('lines of deleted flights count in no total', () => {
  const lines = frozen([line(FLIGHT_A, 2, 5, 250_000), gone(FLIGHT_B, 3, 1_000_000)]);
  expect(calculateCartTotals(lines)).toEqual({
    subtotalCents: 500_000,
    feeCents: 500,
    totalCents: 500_500,
  });
  expect(calculateCartTotals([gone(FLIGHT_A, 1)])).toEqual({
    subtotalCents: 0,
    feeCents: 0,
    totalCents: 0,
  });
  // `flightDeleted: false` (or absent, as every line of a listed flight) counts.
  expect(calculateCartTotals([{ ...line(FLIGHT_A, 1, 5, 1_000), flightDeleted: false }])).toEqual(
    calculateCartTotals([line(FLIGHT_A, 1, 5, 1_000)]),
  );
});

test('only lines of listed flights are payable', () => {
  const lines = frozen([gone(FLIGHT_A, 1), line(FLIGHT_B, 2, 5)]);
  expect(payableCartLines(lines)).toEqual([line(FLIGHT_B, 2, 5)]);
  expect(isFlightAvailable(gone(FLIGHT_A, 1))).toBe(false);
  expect(isFlightAvailable(line(FLIGHT_A, 1, 0))).toBe(true); // sold out is not deleted
});

test('a line of a deleted flight changes only by removal', () => {
  const lines = frozen([gone(FLIGHT_A, 2), line(FLIGHT_B, 2, 5)]);
  expect(incrementCartLine(lines, FLIGHT_A)).toEqual({
    ok: false,
    message: messages.flightNoLongerAvailable,
  });
  expect(decrementCartLine(lines, FLIGHT_A)).toEqual([...lines]);
  expect(removeFromCart(lines, FLIGHT_A)).toEqual([line(FLIGHT_B, 2, 5)]);
});
