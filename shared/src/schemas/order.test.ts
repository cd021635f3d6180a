import { expect, test } from 'vitest';
import { CreateOrderBodySchema, OrderLineSchema, OrderSchema } from './order.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const moreinfo = {
  origin: 'Argentina',
  destination: 'Chile',
  arrivalHour: '10:30',
  departureHour: '08:00',
};
const orderLine = {
  id: id(10),
  flightId: id(1),
  airlineId: id(2),
  amount: 2,
  valueCents: 19_999,
  review: false,
  moreinfo,
};

test('an order with its lines and their flight snapshot parses', () => {
  const order = {
    id: id(20),
    userId: id(3),
    idpurchase: 'pi_123',
    creationdate: '2030-06-15T10:00:00.000Z',
    priceCents: 40_038,
    stocks: [orderLine],
  };
  expect(OrderSchema.parse(order)).toEqual(order);
});

test('an order may lack a purchase id and a creation date', () => {
  const order = OrderSchema.parse({
    id: id(20),
    userId: id(3),
    idpurchase: null,
    creationdate: null,
    priceCents: 0,
    stocks: [],
  });
  expect(order.idpurchase).toBeNull();
});

test('an order line has at least one ticket and a whole price in cents', () => {
  expect(OrderLineSchema.safeParse({ ...orderLine, amount: 0 }).success).toBe(false);
  expect(OrderLineSchema.safeParse({ ...orderLine, valueCents: 1.5 }).success).toBe(false);
});

test('an order line snapshot keeps hours as hh:mm', () => {
  const bad = { ...orderLine, moreinfo: { ...moreinfo, arrivalHour: '25:00' } };
  expect(OrderLineSchema.safeParse(bad).success).toBe(false);
});

const body = {
  price: 40_038,
  stocks: [{ flightId: id(1), airlineId: id(2), amount: 2, value: 19_999, moreinfo }],
  userId: id(3),
  idpurchase: 'pi_123',
  creationdate: '2030-06-15T10:00:00.000Z',
};

test('the POST /orders body parses with price in cents', () => {
  expect(CreateOrderBodySchema.parse(body)).toEqual(body);
});

test('an order body needs at least one line', () => {
  expect(CreateOrderBodySchema.safeParse({ ...body, stocks: [] }).success).toBe(false);
});

test('an order body lists each flight once', () => {
  const line = body.stocks[0];
  expect(CreateOrderBodySchema.safeParse({ ...body, stocks: [line, line] }).success).toBe(false);
});

test('an order body refuses a price in currency units with decimals', () => {
  expect(CreateOrderBodySchema.safeParse({ ...body, price: 400.38 }).success).toBe(false);
});

test('an order body needs a purchase id and an ISO creation date', () => {
  expect(CreateOrderBodySchema.safeParse({ ...body, idpurchase: ' ' }).success).toBe(false);
  expect(CreateOrderBodySchema.safeParse({ ...body, creationdate: '15/06/2030' }).success).toBe(
    false,
  );
});
