import { useEffect, useEffectEvent, useState, useSyncExternalStore } from 'react';
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
  // `open` runs once per driver: it reads what the page was opened with.
  const openDriver = useEffectEvent(open);
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
            holdId: attempt.holdId,
          }),
        confirm: (paymentId) => checkoutApi.confirmCheckout(paymentId),
      },
      store: createAttemptStore(userId),
      authenticate,
    });
    // The driver waits, retries and listens to the network until disposed: it is made and disposed
    // of by this effect (twice in development's strict mode), so the page learns of it from here.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setDriver(created);
    openDriver(created);
    return () => created.dispose();
  }, [userId]);
  const source = driver ?? noDriver;
  const state = useSyncExternalStore(source.subscribe, source.getState, source.getState);
  return { driver, state };
}
