import { expect, test } from 'vitest';
import { AddFavouriteBodySchema, FavouriteSchema, favouriteFromFlight } from './favourite.ts';
import type { Flight } from './flight.ts';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const flight: Flight = {
  id: id(1),
  airlineId: id(2),
  airlineName: 'Test Air',
  origin: 'Argentina',
  destination: 'Chile',
  departureDate: '2030-06-20',
  departureHour: '08:00',
  arrivalDate: '2030-06-20',
  arrivalHour: '10:30',
  durationEstimated: '02:30',
  priceCents: 19_999,
  tickets: 5,
  logo: '/logos/test.png',
  description: 'Direct',
  createdAt: 0,
};

test('a favourite is the flight summary and when it was saved', () => {
  const favourite = favouriteFromFlight(flight, 1_900_000_000_000);
  expect(favourite).toEqual({
    flightId: id(1),
    airlineId: id(2),
    airlineName: 'Test Air',
    origin: 'Argentina',
    destination: 'Chile',
    departureDate: '2030-06-20',
    departureHour: '08:00',
    arrivalHour: '10:30',
    priceCents: 19_999,
    logo: '/logos/test.png',
    createdAt: 1_900_000_000_000,
  });
  expect(FavouriteSchema.parse(favourite)).toEqual(favourite);
});

test('a favourite refuses a malformed flight id or date', () => {
  const favourite = favouriteFromFlight(flight, 0);
  expect(FavouriteSchema.safeParse({ ...favourite, flightId: '1' }).success).toBe(false);
  expect(FavouriteSchema.safeParse({ ...favourite, departureDate: '2030-13-01' }).success).toBe(
    false,
  );
});

test('saving a favourite sends only the flight id', () => {
  expect(AddFavouriteBodySchema.parse({ flightId: id(1), priceCents: 1 })).toEqual({
    flightId: id(1),
  });
  expect(AddFavouriteBodySchema.safeParse({}).success).toBe(false);
});
