import { z } from 'zod';
import { text } from './text.ts';
import { CentsSchema, DateStringSchema, HourSchema, IdSchema } from './common.ts';
import type { Flight } from './flight.ts';

/**
 * Favourites (spec §3 "Favourite: the flight summary", §4 Favourites). Kept locally and synced to
 * the customer's partition. The summary is a snapshot, so the favourites page renders offline.
 */

/** A saved flight: its id, the summary a card shows, and when it was saved (ms since the epoch). */
export const FavouriteSchema = z.object({
  flightId: IdSchema,
  airlineId: IdSchema,
  airlineName: text(),
  origin: text(),
  destination: text(),
  departureDate: DateStringSchema,
  departureHour: HourSchema,
  arrivalHour: HourSchema,
  priceCents: CentsSchema,
  logo: text(),
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
export type AddFavouriteBody = z.infer<typeof AddFavouriteBodySchema>;

/** The favourite of a flight, saved at `now` (ms since the epoch; passed in to keep this pure). */
export function favouriteFromFlight(flight: Flight, now: number): Favourite {
  return {
    flightId: flight.id,
    airlineId: flight.airlineId,
    airlineName: flight.airlineName,
    origin: flight.origin,
    destination: flight.destination,
    departureDate: flight.departureDate,
    departureHour: flight.departureHour,
    arrivalHour: flight.arrivalHour,
    priceCents: flight.priceCents,
    logo: flight.logo,
    createdAt: now,
  };
}
