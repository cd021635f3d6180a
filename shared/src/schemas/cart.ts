import { z } from 'zod';
import { IdSchema } from './common.ts';
import { FlightSchema, pickFlightFields, type Flight } from './flight.ts';

/**
 * The cart (spec §3 "Cart line", §4 Cart). A line is a snapshot of the flight taken when it was
 * added, so the cart renders offline; the server re-reads prices and stock at checkout and never
 * trusts the snapshot.
 */

/** Most distinct flights one cart holds. Not in the spec: a bound so a body stays small. */
export const CART_MAX_LINES = 100;
/** Most tickets of one flight on one line. Not in the spec: keeps totals far from overflow. */
export const CART_LINE_MAX_AMOUNT = 1000;

/** Tickets of one flight in the cart: a whole number from 1 (a line starts at 1). */
export const CartAmountSchema = z.number().int().min(1).max(CART_LINE_MAX_AMOUNT);

/**
 * The flight fields a cart line keeps (spec §3: airline, origin, destination, price, logo,
 * departure and arrival hour) and `tickets`, the stock seen when the line was last refreshed. The
 * order is the stored document's (the PWA's collection schema follows it).
 */
const CART_LINE_FLIGHT_FIELDS = {
  airlineId: true,
  airlineName: true,
  origin: true,
  destination: true,
  priceCents: true,
  logo: true,
  departureHour: true,
  arrivalHour: true,
  tickets: true,
} as const;

/**
 * A cart line as the browser keeps it: the flight id, its snapshot (`CART_LINE_FLIGHT_FIELDS`)
 * and `amount`. `amount` may exceed a stale `tickets`; the cart rules and the server's checkout
 * decide what that means.
 */
export const CartLineSchema = z.object({
  flightId: IdSchema,
  ...FlightSchema.pick(CART_LINE_FLIGHT_FIELDS).shape,
  amount: CartAmountSchema,
  /**
   * Set (true) by the server when the flight has left the catalogue (deleted by its airline or
   * with its airline); absent otherwise. Such a line can no longer be bought: the cart shows it as
   * no longer available and leaves it out of the total (rules/cart.ts). Optional, so documents
   * of clients that predate it stay valid.
   */
  flightDeleted: z.boolean().optional(),
});
export type CartLine = z.infer<typeof CartLineSchema>;

/**
 * The snapshot a cart line keeps of `flight`, as it is now: what a new line starts with
 * (rules/cart.ts `cartLineFromFlight`), and what the PWA lays over a stored line when its local
 * catalogue has a newer copy of the flight.
 */
export function snapshotForCartLine(flight: Flight) {
  return pickFlightFields(flight, CART_LINE_FLIGHT_FIELDS);
}

/** What the server keeps of a cart line: which flight and how many tickets. */
export const CartItemSchema = z.object({
  flightId: IdSchema,
  amount: CartAmountSchema,
});
export type CartItem = z.infer<typeof CartItemSchema>;

/** True when no flight id appears twice (a cart, an order: each flight on one line at most). */
export function hasUniqueFlightIds(items: readonly { flightId: string }[]): boolean {
  return new Set(items.map((item) => item.flightId)).size === items.length;
}

/** A list of cart items, each flight at most once, at most `CART_MAX_LINES` of them. */
export const CartItemsSchema = z
  .array(CartItemSchema)
  .max(CART_MAX_LINES)
  .refine(hasUniqueFlightIds, { message: 'Each flight may appear only once in the cart' });

/** `PUT /api/cart`: replaces the signed-in customer's cart. An empty list empties it. */
export const PutCartBodySchema = z.object({
  lines: CartItemsSchema,
});
