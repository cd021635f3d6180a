import { z } from 'zod';
import { OrderSchema, SeatHoldSchema, type CartLine, type SeatHold } from '@skyport/shared';
import { apiRequest } from '../../../api/api-client.ts';

/**
 * Online-only checkout (`/api/checkout`, docs/api/checkout.md): the server charges its own total
 * for the customer's saved cart, so the cart is saved first, then paid with one idempotency key
 * per attempt (attempt/attempt-machine.ts decides when a key may be dropped).
 */

const CheckoutAnswerSchema = z.union([
  z.object({
    status: z.literal('succeeded'),
    paymentId: z.string(),
    idpurchase: z.string().nullable().optional(),
    amount: z.number(),
    order: OrderSchema.partial().passthrough().nullable().optional(),
  }),
  z.object({
    status: z.literal('approval_required'),
    paymentId: z.string(),
    approvalUrl: z.string(),
    /** The provider's order id: what PayPal's buttons approve. */
    walletOrderId: z.string().nullable().optional(),
  }),
  z.object({
    /** A card's 3-D Secure step, completed with Stripe.js before the checkout is confirmed. */
    status: z.literal('requires_action'),
    paymentId: z.string(),
    clientSecret: z.string(),
  }),
]);
export type CheckoutAnswer = z.infer<typeof CheckoutAnswerSchema>;

const CheckoutConfigSchema = z.object({
  /** Who takes cards: the test provider's card form, Stripe's card element, or nobody. */
  card: z.enum(['test', 'stripe']).nullable(),
  /** Who takes wallets: the locally served test wallet, PayPal's buttons, or nobody. */
  wallet: z.enum(['test', 'paypal']).nullable(),
  testMode: z.boolean(),
  stripePublishableKey: z.string().nullable(),
  paypalClientId: z.string().nullable().optional(),
});
export type CheckoutConfig = z.infer<typeof CheckoutConfigSchema>;

/** Which payment methods the server runs (`GET /api/checkout/config`), read at run time. */
export function getCheckoutConfig(signal?: AbortSignal): Promise<CheckoutConfig> {
  return apiRequest('/checkout/config', { schema: CheckoutConfigSchema, signal });
}

/** Saves the cart on the server (PUT /api/cart) so that checkout charges exactly these lines. */
export function saveCart(lines: readonly CartLine[]): Promise<void> {
  return apiRequest('/cart', {
    method: 'PUT',
    body: { lines: lines.map((line) => ({ flightId: line.flightId, amount: line.amount })) },
  });
}

/**
 * The test provider's card "element": the server turns a test card number into its payment-method
 * id, so that an attempt keeps a token (and never a card number) for its retries.
 */
export async function createTestPaymentMethod(number: string): Promise<string> {
  const answer = await apiRequest('/payments/test-card', {
    method: 'POST',
    body: { number },
    schema: z.object({ paymentMethodId: z.string() }),
  });
  return answer.paymentMethodId;
}

/** Starts a checkout, or replays it: the same key always reaches the same checkout. */
export function startCheckout(input: {
  method: 'card' | 'wallet';
  paymentMethodId: string | null;
  amountCents: number;
  receiptEmail: string | null;
  idempotencyKey: string;
  /** The seat hold it pays: the server charges the hold's quote (`amountCents` must equal it). */
  holdId?: string | null | undefined;
}): Promise<CheckoutAnswer> {
  return apiRequest('/checkout', {
    method: 'POST',
    headers: { 'Idempotency-Key': input.idempotencyKey },
    body: {
      method: input.method,
      ...(input.method === 'card' ? { paymentMethodId: input.paymentMethodId ?? '' } : {}),
      amount: input.amountCents,
      ...(input.receiptEmail ? { receiptEmail: input.receiptEmail } : {}),
      ...(input.holdId ? { holdId: input.holdId } : {}),
    },
    schema: CheckoutAnswerSchema,
  });
}

/**
 * Holds the saved cart's seats while the customer pays (`POST /api/checkout/hold`): the server
 * prices it and answers the hold with its expiry. Asking again for the same cart answers the same
 * hold, never a longer one; a hold that has expired is replaced by a new one.
 */
export function holdSeats(): Promise<SeatHold> {
  return apiRequest('/checkout/hold', { method: 'POST', body: {}, schema: SeatHoldSchema });
}

/**
 * Gives a seat hold's seats back at once (`DELETE /api/checkout/hold/{holdId}`), when the buyer
 * leaves the payment page without paying; else they come back when it expires.
 */
export function releaseHold(holdId: string): Promise<void> {
  return apiRequest(`/checkout/hold/${encodeURIComponent(holdId)}`, { method: 'DELETE' });
}

/**
 * Continues a checkout by its id: after the buyer approved the wallet order, after a card's 3-D
 * Secure step, or when an earlier answer was lost. Authorises, writes the order, captures.
 */
export function confirmCheckout(paymentId: string): Promise<CheckoutAnswer> {
  return apiRequest(`/checkout/${encodeURIComponent(paymentId)}/confirm`, {
    method: 'POST',
    body: {},
    schema: CheckoutAnswerSchema,
  });
}
