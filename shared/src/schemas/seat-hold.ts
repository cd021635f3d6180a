import { z } from 'zod';
import { IdSchema } from './common.ts';

/**
 * A seat hold as `POST /api/checkout/hold` answers it (docs/api/checkout.md, issue 17): the cart's
 * seats taken out of stock until `expiresAt`, priced by the server. `totalCents` is the server's
 * quote: a payment against the hold charges exactly it.
 */
export const SeatHoldLineSchema = z.object({
  flightId: IdSchema,
  amount: z.number().int().min(1),
  unitPriceCents: z.number().int().min(0),
});
export type SeatHoldLine = z.infer<typeof SeatHoldLineSchema>;

export const SeatHoldSchema = z.object({
  holdId: IdSchema,
  /** `active` until its seats are bought (`consumed`) or go back on sale (`released`). */
  status: z.enum(['active', 'consumed', 'released']),
  /** When the seats go back on sale, in milliseconds since the epoch (the server's clock). */
  expiresAt: z.number().int(),
  /**
   * What was left of the hold when the server answered, in milliseconds: a countdown started on
   * receipt does not depend on the device's clock agreeing with the server's.
   */
  expiresInMs: z.number().int().min(0),
  lines: z.array(SeatHoldLineSchema),
  subtotalCents: z.number().int().min(0),
  feeCents: z.number().int().min(0),
  totalCents: z.number().int().min(0),
});
export type SeatHold = z.infer<typeof SeatHoldSchema>;
