import { z } from 'zod';
import { text } from './text.ts';
import { CentsSchema, DateStringSchema, HourSchema, IdSchema } from './common.ts';

/**
 * A flight as the API and the local database carry it (spec §3 Flight).
 * `priceCents` is the unit price in cents; `tickets` is the stock left.
 */
export const FlightSchema = z.object({
  id: IdSchema,
  airlineId: IdSchema,
  airlineName: text(),
  origin: text(),
  destination: text(),
  departureDate: DateStringSchema,
  departureHour: HourSchema,
  arrivalDate: DateStringSchema,
  arrivalHour: HourSchema,
  /** Estimated duration as hh:mm text. */
  durationEstimated: text(),
  priceCents: CentsSchema,
  tickets: z.number().int().nonnegative(),
  logo: text(),
  description: text(),
  /** Creation time in ms since the epoch; the "initial" (unsorted) order follows it. */
  createdAt: z.number().int(),
});
export type Flight = z.infer<typeof FlightSchema>;

/** Which fields of a flight a copy of it keeps, as a zod `pick` mask (`FlightSchema.pick(mask)`). */
export type FlightFieldMask<K extends keyof Flight> = Readonly<Record<K, true>>;

/**
 * The fields of `flight` that `mask` selects. A cart line and a favourite keep a copy of their
 * flight (spec §3); the same mask picks their schema's fields from `FlightSchema` and their values
 * from a flight, so the copy and its schema cannot drift apart.
 */
export function pickFlightFields<K extends keyof Flight>(
  flight: Flight,
  mask: FlightFieldMask<K>,
): Pick<Flight, K> {
  const picked: Partial<Pick<Flight, K>> = {};
  for (const key of Object.keys(mask) as K[]) picked[key] = flight[key];
  return picked as Pick<Flight, K>;
}
