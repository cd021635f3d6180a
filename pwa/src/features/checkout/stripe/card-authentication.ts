import { loadStripe } from '@stripe/stripe-js';

/**
 * A card's 3-D Secure step (the PaymentIntent's `requires_action` next action), completed in the
 * page by Stripe.js: `handleNextAction` shows the bank's challenge in Stripe's modal. Loaded only
 * when a checkout asks for it (`import()`), like the card element.
 *
 * Resolves once the buyer is done, passed or failed: the server then retrieves the intent and
 * answers (captured, or a final 402 `authentication_failed`). Rejects only when the step could not
 * run (Stripe.js did not load, no connection to Stripe), so that the attempt asks again later.
 */
export async function completeCardAuthentication(
  publishableKey: string,
  clientSecret: string,
): Promise<void> {
  const stripe = await loadStripe(publishableKey);
  if (!stripe) throw new Error('Stripe.js did not load');
  const result = await stripe.handleNextAction({ clientSecret });
  const type = result.error?.type;
  if (type === 'api_connection_error' || type === 'api_error' || type === 'rate_limit_error') {
    throw new Error(result.error?.message ?? 'Stripe did not answer');
  }
}
