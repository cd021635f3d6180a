import { expect, test } from 'vitest';
import { testFlight, testId } from '../testing.ts';
import {
  AddFavouriteBodySchema,
  FavouriteSchema,
  favouriteFromFlight,
  snapshotForFavourite,
} from './favourite.ts';

const flight = testFlight();

test('a favourite is the flight summary and when it was saved', () => {
  const favourite = favouriteFromFlight(flight, 1_900_000_000_000);
  // The summary leaves out what a favourite card does not show.
  const { id, arrivalDate, durationEstimated, tickets, description, createdAt, ...summary } =
    flight;
  expect(favourite).toEqual({ flightId: id, ...summary, createdAt: 1_900_000_000_000 });
  expect(FavouriteSchema.parse(favourite)).toEqual(favourite);
});

test("a favourite's snapshot takes the flight's current price, hours and airline name", () => {
  const changed = testFlight({ priceCents: 5_000, departureHour: '09:15', airlineName: 'New Air' });
  expect(snapshotForFavourite(changed)).toMatchObject({
    priceCents: 5_000,
    departureHour: '09:15',
    airlineName: 'New Air',
  });
  expect(snapshotForFavourite(changed)).not.toHaveProperty('tickets');
});

test('a favourite refuses a malformed flight id or date', () => {
  const favourite = favouriteFromFlight(flight, 0);
  expect(FavouriteSchema.safeParse({ ...favourite, flightId: '1' }).success).toBe(false);
  expect(FavouriteSchema.safeParse({ ...favourite, departureDate: '2030-13-01' }).success).toBe(
    false,
  );
});

test('saving a favourite sends only the flight id', () => {
  expect(AddFavouriteBodySchema.parse({ flightId: testId(1), priceCents: 1 })).toEqual({
    flightId: testId(1),
  });
  expect(AddFavouriteBodySchema.safeParse({}).success).toBe(false);
});
