import { z } from 'zod';
import { text } from './text.ts';
import { CART_MAX_LINES, CartAmountSchema } from './cart.ts';
import { CentsSchema, HourSchema, IdSchema, TimestampSchema } from './common.ts';

/**
 * Orders (spec §3 Order and Order line, §2 Orders screen, §7 `POST /orders`).
 * Stored entities follow `FlightSchema`: spec field names, with money renamed to `…Cents`.
 * The §7 body keeps the spec's field names (`price`, `value`) but its money is in integer cents too.
 */

/** What an order line remembers of its flight for "More Details" (spec §2, §3 `moreinfo`). */
export const OrderMoreInfoSchema = z.object({
  origin: text(),
  destination: text(),
  arrivalHour: HourSchema,
  departureHour: HourSchema,
});
export type OrderMoreInfo = z.infer<typeof OrderMoreInfoSchema>;

/**
 * One line of an order: tickets of one flight. `valueCents` is the unit price paid; `review`
 * becomes true once the customer has reviewed that flight from this order.
 */
export const OrderLineSchema = z.object({
  id: IdSchema,
  flightId: IdSchema,
  airlineId: IdSchema,
  amount: z.number().int().min(1),
  valueCents: CentsSchema,
  review: z.boolean(),
  moreinfo: OrderMoreInfoSchema,
});
export type OrderLine = z.infer<typeof OrderLineSchema>;

/**
 * A customer's order. `idpurchase` is the payment provider's id (the card shows "Payment status:
 * confirmed" when present); `creationdate` is the purchase time; `priceCents` the total paid.
 */
export const OrderSchema = z.object({
  id: IdSchema,
  userId: IdSchema,
  idpurchase: text().min(1).nullable(),
  creationdate: TimestampSchema.nullable(),
  priceCents: CentsSchema,
  stocks: z.array(OrderLineSchema),
});
export type Order = z.infer<typeof OrderSchema>;

/** A line of the §7 `POST /orders` body; `value` is the unit price in cents. */
export const CreateOrderLineSchema = z.object({
  flightId: IdSchema,
  airlineId: IdSchema,
  amount: CartAmountSchema,
  value: CentsSchema,
  moreinfo: OrderMoreInfoSchema,
});
export type CreateOrderLine = z.infer<typeof CreateOrderLineSchema>;

/**
 * §7 `POST /orders` {price, stocks[], userId, idpurchase, creationdate}: `price` is the total in
 * cents. At least one line, each flight once. The server recomputes the total from its own prices
 * and refuses a body that disagrees; this schema only checks shape.
 */
export const CreateOrderBodySchema = z.object({
  price: CentsSchema,
  stocks: z
    .array(CreateOrderLineSchema)
    .min(1)
    .max(CART_MAX_LINES)
    .refine((lines) => new Set(lines.map((l) => l.flightId)).size === lines.length, {
      message: 'Each flight may appear only once in an order',
    }),
  userId: IdSchema,
  idpurchase: text().trim().min(1).max(255),
  creationdate: TimestampSchema,
});
export type CreateOrderBody = z.infer<typeof CreateOrderBodySchema>;
