import { z } from 'zod';
import { SALES_CHART_MONTHS } from '../constants.ts';
import { CART_MAX_LINES, CartAmountSchema } from './cart.ts';
import { CentsSchema, IdSchema } from './common.ts';
import { FlightSchema, pickFlightFields, type Flight } from './flight.ts';

/**
 * Sales (spec §3 Sale, §2 Sales screen, §7 `POST /sales`). One sale is the tickets of one flight
 * bought in one checkout, seen by the airline that runs the flight.
 */

/**
 * A sale as stored: `idFlight` (spec name) is the flight, `priceCents` the unit price,
 * `amount` the tickets sold, `createdAt` the sale time in ms since the epoch (not in the spec;
 * the monthly chart needs it).
 */
export const SaleSchema = z.object({
  id: IdSchema,
  airlineId: IdSchema,
  idFlight: IdSchema,
  priceCents: CentsSchema,
  amount: z.number().int().min(1),
  createdAt: z.number().int(),
});
export type Sale = z.infer<typeof SaleSchema>;

/**
 * What a sale is shown with besides its flight's id (issue 16: an airline checking its sales on the
 * go reads routes and dates, not UUIDs): the flight's route and departure.
 */
const SALE_FLIGHT_FIELDS = {
  origin: true,
  destination: true,
  departureDate: true,
  departureHour: true,
} as const;
export const SaleFlightSchema = FlightSchema.pick(SALE_FLIGHT_FIELDS);
export type SaleFlight = z.infer<typeof SaleFlightSchema>;

/** The route and departure of `flight`, as a sale shows them. */
export function saleFlightOf(flight: Flight): SaleFlight {
  return pickFlightFields(flight, SALE_FLIGHT_FIELDS);
}

/** A sale in `GET /api/sales`: the stored sale, its total sale and its flight. */
export const SaleReportLineSchema = SaleSchema.extend({
  totalCents: CentsSchema,
  flight: SaleFlightSchema,
});

/** A sale line sent at purchase (spec §3): `id` is the flight id, `price` the unit price in cents. */
export const SaleLineSchema = z.object({
  id: IdSchema,
  amount: CartAmountSchema,
  airlineId: IdSchema,
  price: CentsSchema,
});
export type SaleLine = z.infer<typeof SaleLineSchema>;

/** §7 `POST /sales` {sales:[{id, amount, airlineId, price}]}: at least one line. */
export const CreateSalesBodySchema = z.object({
  sales: z.array(SaleLineSchema).min(1).max(CART_MAX_LINES),
});

/** One point of the "Sales Chart": a month 1–12, tickets sold and total sale in cents. */
export const MonthlySalesTotalSchema = z.object({
  month: z.number().int().min(1).max(SALES_CHART_MONTHS),
  tickets: z.number().int().nonnegative(),
  amountCents: CentsSchema,
});
export type MonthlySalesTotal = z.infer<typeof MonthlySalesTotalSchema>;

/** The whole chart: exactly 12 points, months 1 to 12 in order. */
export const MonthlySalesTotalsSchema = z
  .array(MonthlySalesTotalSchema)
  .length(SALES_CHART_MONTHS)
  .refine((points) => points.every((point, index) => point.month === index + 1), {
    message: 'Months must run from 1 to 12 in order',
  });

/** `GET /api/sales`: the airline's sales, newest first, and the chart of `year`. */
export const SalesReportSchema = z.object({
  sales: z.array(SaleReportLineSchema),
  monthly: MonthlySalesTotalsSchema,
  year: z.number().int(),
});
export type SalesReport = z.infer<typeof SalesReportSchema>;
