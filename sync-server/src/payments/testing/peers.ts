// Test helper (imported by *.test.ts only): both local payment peers for a test file.
import { afterAll } from 'vitest';
import { createPayPalProvider } from '../paypal-provider.ts';
import { createStripeProvider } from '../stripe-provider.ts';
import { startPayPalPeer } from './paypal-peer.ts';
import { startStripePeer } from './stripe-peer.ts';

export interface PeerKeys {
  stripeSecretKey: string;
  paypalClientId: string;
  paypalClientSecret: string;
}

/**
 * Starts a local Stripe and a local PayPal (stripe-peer.ts, paypal-peer.ts), closed after the
 * calling file's tests; `providers()` gives the real adapters pointed at them, with these keys.
 */
export async function startPaymentPeers(keys: PeerKeys) {
  const stripePeer = await startStripePeer({ secretKey: keys.stripeSecretKey });
  const paypalPeer = await startPayPalPeer({
    clientId: keys.paypalClientId,
    clientSecret: keys.paypalClientSecret,
  });
  afterAll(async () => {
    await stripePeer.close();
    await paypalPeer.close();
  });
  return {
    stripePeer,
    paypalPeer,
    /** The Stripe and PayPal adapters on the peers; a call slower than `timeoutMs` is unanswered. */
    providers(timeoutMs?: number) {
      return {
        stripe: createStripeProvider({
          secretKey: keys.stripeSecretKey,
          apiBase: stripePeer.url,
          timeoutMs,
        }),
        paypal: createPayPalProvider({
          clientId: keys.paypalClientId,
          clientSecret: keys.paypalClientSecret,
          apiBase: paypalPeer.url,
          timeoutMs,
        }),
      };
    },
  };
}
