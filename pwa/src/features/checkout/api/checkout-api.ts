import { z } from 'zod';
import { OrderSchema, type CartLine } from '@skyport/shared';
import { apiRequest } from '../../../app/api-client.ts';

/**
 * Online-only checkout (`/api/checkout`): the server charges its own total for the customer's
 * saved cart, so the cart is saved first, then paid with one idempotency key per attempt.
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
  }),
]);
export type CheckoutAnswer = z.infer<typeof CheckoutAnswerSchema>;

/** Saves the cart on the server (PUT /api/cart) so that checkout charges exactly these lines. */
export function saveCart(lines: readonly CartLine[]): Promise<void> {
  return apiRequest('/cart', {
    method: 'PUT',
    body: { lines: lines.map((line) => ({ flightId: line.flightId, amount: line.amount })) },
  });
}

export function payByCard(input: {
  paymentMethodId: string;
  amountCents: number;
  email: string;
  idempotencyKey: string;
}): Promise<CheckoutAnswer> {
  return apiRequest('/checkout', {
    method: 'POST',
    headers: { 'Idempotency-Key': input.idempotencyKey },
    body: {
      method: 'card',
      paymentMethodId: input.paymentMethodId,
      amount: input.amountCents,
      receiptEmail: input.email,
    },
    schema: CheckoutAnswerSchema,
  });
}

/** Starts a wallet checkout; the answer's approvalUrl is the provider's approval page. */
export function startWalletCheckout(input: {
  amountCents: number;
  email?: string;
  idempotencyKey: string;
}): Promise<CheckoutAnswer> {
  return apiRequest('/checkout', {
    method: 'POST',
    headers: { 'Idempotency-Key': input.idempotencyKey },
    body: {
      method: 'wallet',
      amount: input.amountCents,
      ...(input.email ? { receiptEmail: input.email } : {}),
    },
    schema: CheckoutAnswerSchema,
  });
}

/** After the buyer approved at the wallet provider: authorise, write the order, capture. */
export function confirmWalletCheckout(paymentId: string): Promise<CheckoutAnswer> {
  return apiRequest(`/checkout/${encodeURIComponent(paymentId)}/confirm`, {
    method: 'POST',
    body: {},
    schema: CheckoutAnswerSchema,
  });
}
