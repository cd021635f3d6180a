import { z } from 'zod';
import { CentsSchema, DateStringSchema, HourSchema, IdSchema } from './common.ts';

/**
 * A flight as the API and the local database carry it (spec §3 Flight).
 * `priceCents` is the unit price in cents; `tickets` is the stock left.
 */
export const FlightSchema = z.object({
  id: IdSchema,
  airlineId: IdSchema,
  airlineName: z.string(),
  origin: z.string(),
  destination: z.string(),
  departureDate: DateStringSchema,
  departureHour: HourSchema,
  arrivalDate: DateStringSchema,
  arrivalHour: HourSchema,
  /** Estimated duration as hh:mm text. */
  durationEstimated: z.string(),
  priceCents: CentsSchema,
  tickets: z.number().int().nonnegative(),
  logo: z.string(),
  description: z.string(),
  /** Creation time in ms since the epoch; the "initial" (unsorted) order follows it. */
  createdAt: z.number().int(),
});
export type Flight = z.infer<typeof FlightSchema>;
