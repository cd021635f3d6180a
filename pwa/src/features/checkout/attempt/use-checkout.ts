import { useEffect, useState, useSyncExternalStore } from 'react';
import * as checkoutApi from '../api/checkout-api.ts';
import { loadCheckoutConfig } from '../data/checkout-config.ts';
import { initialState, type CheckoutState } from './attempt-machine.ts';
import { createAttemptStore } from './attempt-store.ts';
import { createCheckoutDriver, type CheckoutDriver } from './checkout-driver.ts';

/** A card's 3-D Secure step with Stripe.js, loaded only when a checkout asks for it. */
async function authenticate(clientSecret: string): Promise<void> {
  const config = await loadCheckoutConfig();
  if (!config.stripePublishableKey) throw new Error('Stripe is not configured');
  const { completeCardAuthentication } = await import('../stripe/card-authentication.ts');
  await completeCardAuthentication(config.stripePublishableKey, clientSecret);
}

const noDriver = {
  subscribe: () => () => {},
  getState: () => initialState,
};

/**
 * The payment page's checkout: one driver per signed-in customer and page visit, its state, and
 * `open` run once when it starts (resume the stored attempt, or the return from the wallet).
 */
export function useCheckout(
  userId: string,
  open: (driver: CheckoutDriver) => void,
): { driver: CheckoutDriver | null; state: CheckoutState } {
  const [driver, setDriver] = useState<CheckoutDriver | null>(null);
  useEffect(() => {
    const created = createCheckoutDriver({
      requests: {
        start: (attempt) =>
          checkoutApi.startCheckout({
            method: attempt.method,
            paymentMethodId: attempt.paymentMethodId,
            amountCents: attempt.amountCents,
            receiptEmail: attempt.receiptEmail,
            idempotencyKey: attempt.key,
          }),
        confirm: (paymentId) => checkoutApi.confirmCheckout(paymentId),
      },
      store: createAttemptStore(userId),
      authenticate,
    });
    setDriver(created);
    open(created);
    return () => created.dispose();
    // `open` runs once per driver: it reads what the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [userId]);
  const source = driver ?? noDriver;
  const state = useSyncExternalStore(source.subscribe, source.getState, source.getState);
  return { driver, state };
}
