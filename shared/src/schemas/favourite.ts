import { z } from 'zod';
import { IdSchema } from './common.ts';
import { FlightSchema, pickFlightFields, type Flight } from './flight.ts';

/**
 * Favourites (spec §3 "Favourite: the flight summary", §4 Favourites). Kept locally and synced to
 * the customer's partition. The summary is a snapshot, so the favourites page renders offline.
 */

/**
 * The flight fields a favourite keeps: the summary its card shows (spec §3 "Favourite: the flight
 * summary"). The order is the stored document's (the PWA's collection schema follows it).
 */
const FAVOURITE_FLIGHT_FIELDS = {
  airlineId: true,
  airlineName: true,
  origin: true,
  destination: true,
  departureDate: true,
  departureHour: true,
  arrivalHour: true,
  priceCents: true,
  logo: true,
} as const;

/** A saved flight: its id, the summary a card shows, and when it was saved (ms since the epoch). */
export const FavouriteSchema = z.object({
  flightId: IdSchema,
  ...FlightSchema.pick(FAVOURITE_FLIGHT_FIELDS).shape,
  createdAt: z.number().int(),
  /**
   * Set (true) by the server when the flight has left the catalogue; absent otherwise. The
   * favourite stays, shown as no longer available, until the customer removes it.
   */
  flightDeleted: z.boolean().optional(),
});
export type Favourite = z.infer<typeof FavouriteSchema>;

/** Body that saves a favourite: only the flight; the server takes the summary from its own data. */
export const AddFavouriteBodySchema = z.object({
  flightId: IdSchema,
});

/**
 * The summary a favourite keeps of `flight`, as it is now: what `favouriteFromFlight` saves, and
 * what the PWA lays over a saved favourite when its local catalogue has a newer copy of the flight.
 */
export function snapshotForFavourite(flight: Flight) {
  return pickFlightFields(flight, FAVOURITE_FLIGHT_FIELDS);
}

/** The favourite of a flight, saved at `now` (ms since the epoch; passed in to keep this pure). */
export function favouriteFromFlight(flight: Flight, now: number): Favourite {
  return { flightId: flight.id, ...snapshotForFavourite(flight), createdAt: now };
}
