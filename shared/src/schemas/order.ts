import { z } from 'zod';
import { text } from './text.ts';
import { CART_MAX_LINES, CartAmountSchema, hasUniqueFlightIds } from './cart.ts';
import { CentsSchema, IdSchema, TimestampSchema } from './common.ts';
import { FlightSchema } from './flight.ts';
import { TicketTokenSchema } from './ticket.ts';

/**
 * Orders (spec §3 Order and Order line, §2 Orders screen, §7 `POST /orders`).
 * Stored entities follow `FlightSchema`: spec field names, with money renamed to `…Cents`.
 * The §7 body keeps the spec's field names (`price`, `value`) but its money is in integer cents too.
 */

/** What an order line remembers of its flight for "More Details" (spec §2, §3 `moreinfo`). */
export const OrderMoreInfoSchema = FlightSchema.pick({
  origin: true,
  destination: true,
  arrivalHour: true,
  departureHour: true,
});

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
  /**
   * The line's signed e-ticket (a compact JWS, shared/src/schemas/ticket.ts), once the order is
   * confirmed (issue 17; not in the spec). Absent on orders confirmed before tickets existed until
   * the server issues theirs.
   */
  ticket: TicketTokenSchema.optional(),
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

/**
 * A line of the §7 `POST /orders` body: the flight, airline and `moreinfo` an order line keeps,
 * the tickets (bounded as a cart line's) and `value`, the unit price in cents.
 */
export const CreateOrderLineSchema = OrderLineSchema.pick({
  flightId: true,
  airlineId: true,
  moreinfo: true,
}).extend({ amount: CartAmountSchema, value: CentsSchema });

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
    .refine(hasUniqueFlightIds, { message: 'Each flight may appear only once in an order' }),
  userId: IdSchema,
  idpurchase: text().trim().min(1).max(255),
  creationdate: TimestampSchema,
});
