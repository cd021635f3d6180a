import { useEffect, useState } from 'react';
import { getCheckoutConfig, type CheckoutConfig } from '../api/checkout-api.ts';

/**
 * Which payment methods the server runs, read at run time from `GET /api/checkout/config` (not
 * decided when the PWA is built): the payment page shows the test card form, Stripe's card
 * element, the test wallet or PayPal's buttons only when the server takes them. Read once per page
 * load; a failed read is tried again on the next request.
 */

let cached: Promise<CheckoutConfig> | undefined;

export function loadCheckoutConfig(): Promise<CheckoutConfig> {
  cached ??= getCheckoutConfig().catch((error: unknown) => {
    cached = undefined;
    throw error;
  });
  return cached;
}

export type CheckoutConfigState =
  | { status: 'loading' }
  | { status: 'ready'; config: CheckoutConfig }
  | { status: 'failed'; retry: () => void };

export function useCheckoutConfig(): CheckoutConfigState {
  const [state, setState] = useState<CheckoutConfigState>({ status: 'loading' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    loadCheckoutConfig().then(
      (config) => live && setState({ status: 'ready', config }),
      () =>
        live &&
        setState({
          status: 'failed',
          // The loader shows from the click itself: the next round's effect only reads.
          retry: () => {
            setState({ status: 'loading' });
            setRound((n) => n + 1);
          },
        }),
    );
    return () => {
      live = false;
    };
  }, [round]);
  return state;
}
