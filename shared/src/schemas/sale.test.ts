import { expect, test } from 'vitest';
import {
  CreateSalesBodySchema,
  MonthlySalesTotalsSchema,
  SaleReportLineSchema,
  SaleSchema,
  saleFlightOf,
} from './sale.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

test('a sale records flight, unit price in cents, tickets and time', () => {
  const sale = {
    id: id(1),
    airlineId: id(2),
    idFlight: id(3),
    priceCents: 19_999,
    amount: 2,
    createdAt: 1_900_000_000_000,
  };
  expect(SaleSchema.parse(sale)).toEqual(sale);
  expect(SaleSchema.safeParse({ ...sale, amount: 0 }).success).toBe(false);
});

test('the POST /sales body lists sale lines of flight, amount, airline and price', () => {
  const body = { sales: [{ id: id(3), amount: 2, airlineId: id(2), price: 19_999 }] };
  expect(CreateSalesBodySchema.parse(body)).toEqual(body);
});

test('a sales body needs at least one line with a whole price', () => {
  expect(CreateSalesBodySchema.safeParse({ sales: [] }).success).toBe(false);
  expect(
    CreateSalesBodySchema.safeParse({
      sales: [{ id: id(3), amount: 2, airlineId: id(2), price: 199.99 }],
    }).success,
  ).toBe(false);
});

test('monthly totals are exactly twelve months in order', () => {
  const months = Array.from({ length: 12 }, (_, i) => ({
    month: i + 1,
    tickets: 0,
    amountCents: 0,
  }));
  expect(MonthlySalesTotalsSchema.safeParse(months).success).toBe(true);
  expect(MonthlySalesTotalsSchema.safeParse(months.slice(1)).success).toBe(false);
  expect(MonthlySalesTotalsSchema.safeParse([...months].reverse()).success).toBe(false);
});

test('a month outside 1 to 12 is refused', () => {
  const months = Array.from({ length: 12 }, (_, i) => ({ month: i, tickets: 0, amountCents: 0 }));
  expect(MonthlySalesTotalsSchema.safeParse(months).success).toBe(false);
});

test("a sale is shown with its flight's route and departure, and nothing else of it", () => {
  const flight = {
    id: id(3),
    airlineId: id(2),
    airlineName: 'Aurora',
    origin: 'Iceland',
    destination: 'Mongolia',
    departureDate: '2027-02-06',
    departureHour: '08:15',
    arrivalDate: '2027-02-07',
    arrivalHour: '06:40',
    durationEstimated: '22:25',
    priceCents: 12_345,
    tickets: 3,
    logo: '',
    description: '',
    createdAt: 1,
  };
  const shown = saleFlightOf(flight);
  expect(shown).toEqual({
    origin: 'Iceland',
    destination: 'Mongolia',
    departureDate: '2027-02-06',
    departureHour: '08:15',
  });
  const sale = { id: id(1), airlineId: id(2), idFlight: id(3), priceCents: 12_345, amount: 2 };
  const line = { ...sale, createdAt: 1, totalCents: 24_690, flight: shown };
  expect(SaleReportLineSchema.parse(line)).toEqual(line);
  expect(
    SaleReportLineSchema.safeParse({ ...line, flight: { ...shown, departureDate: '6/2/2027' } })
      .success,
  ).toBe(false);
});
