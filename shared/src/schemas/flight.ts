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
