import type { Config } from '../config.ts';
import { createPayPalProvider } from './paypal-provider.ts';
import { delay, withFaults } from './faults.ts';
import { createPaymentGateway, type PaymentGateway, type PaymentProvider } from './provider.ts';
import { createStripeProvider } from './stripe-provider.ts';
import { createTestPaymentProvider } from './test-provider.ts';

export * from './provider.ts';
export { createTestPaymentProvider } from './test-provider.ts';

/** Settings the checkout reads besides the providers themselves. */
export interface PaymentSettings {
  /** A provider call slower than this is treated as unanswered (outcome unknown). */
  timeoutMs: number;
  /** Secret of Stripe's webhook signatures; without it the webhook route refuses every event. */
  stripeWebhookSecret?: string | undefined;
  /** Public: the PWA's Stripe card element needs it. */
  stripePublishableKey?: string | undefined;
  /** Public: the PWA's PayPal buttons (the JavaScript SDK) need it. */
  paypalClientId?: string | undefined;
  /** When set, the server finishes stalled checkouts this often (see checkout.reconcile). */
  reconcileEveryMs?: number | undefined;
}

export interface Payments extends PaymentGateway {
  settings: PaymentSettings;
}

export function createPayments(
  providers: readonly PaymentProvider[],
  settings: Partial<PaymentSettings> = {},
): Payments {
  return { ...createPaymentGateway(providers), settings: { timeoutMs: 15_000, ...settings } };
}

/** The default for development and tests: the built-in test provider for cards and wallets. */
export function createTestPayments(settings: Partial<PaymentSettings> = {}): Payments {
  return createPayments([createTestPaymentProvider()], settings);
}

/**
 * The providers configured by the environment (config.ts checks the keys):
 * `test` → the test provider; `stripe` → Stripe cards, plus PayPal wallets if its keys are set;
 * `paypal` → PayPal wallets, plus Stripe cards if its key is set.
 */
export function createPaymentsFromConfig(config: Config): Payments {
  const settings = {
    timeoutMs: config.PAYMENT_TIMEOUT_MS,
    stripeWebhookSecret: config.STRIPE_WEBHOOK_SECRET,
    stripePublishableKey: config.STRIPE_PUBLISHABLE_KEY,
    paypalClientId: config.PAYPAL_CLIENT_ID,
    reconcileEveryMs: 60_000,
  };
  if (config.PAYMENT_PROVIDER === 'test')
    return createPayments([testProviderFor(config, process.env)], settings);
  const providers: PaymentProvider[] = [];
  if (config.STRIPE_SECRET_KEY) {
    providers.push(
      createStripeProvider({
        secretKey: config.STRIPE_SECRET_KEY,
        apiBase: config.STRIPE_API_BASE,
        timeoutMs: config.PAYMENT_TIMEOUT_MS,
      }),
    );
  }
  if (config.PAYPAL_CLIENT_ID && config.PAYPAL_CLIENT_SECRET) {
    providers.push(
      createPayPalProvider({
        clientId: config.PAYPAL_CLIENT_ID,
        clientSecret: config.PAYPAL_CLIENT_SECRET,
        apiBase: config.PAYPAL_API_BASE,
        timeoutMs: config.PAYMENT_TIMEOUT_MS,
      }),
    );
  }
  return createPayments(providers, settings);
}

/**
 * The test provider of `PAYMENT_PROVIDER=test`, with one TEST-ONLY fault for the browser test of
 * a provider that does not answer in time (pwa/e2e/checkout/): `TEST_PAYMENT_SLOW_AUTHORIZATIONS=N`
 * makes the first N authorisations of every checkout (per idempotency key) answer only after
 * twice `PAYMENT_TIMEOUT_MS`, so the checkout gives up on them (503 payment_pending) and a later
 * retry with the same key completes. Ignored when NODE_ENV is production (where the test provider
 * itself needs ALLOW_TEST_PAYMENTS): a production server can never be made slow on purpose.
 */
export function testProviderFor(
  config: Pick<Config, 'NODE_ENV' | 'PAYMENT_TIMEOUT_MS'>,
  env: Record<string, string | undefined>,
): PaymentProvider {
  const provider = createTestPaymentProvider();
  const slow = Number(env.TEST_PAYMENT_SLOW_AUTHORIZATIONS ?? 0);
  if (config.NODE_ENV === 'production' || !Number.isInteger(slow) || slow <= 0) return provider;
  const calls = new Map<string, number>();
  const late = delay(config.PAYMENT_TIMEOUT_MS * 2);
  const faulted = withFaults(provider, {});
  return Object.assign(faulted, {
    authorize: async (...args: Parameters<PaymentProvider['authorize']>) => {
      const key = args[1];
      const made = calls.get(key) ?? 0;
      calls.set(key, made + 1);
      if (made < slow) await late();
      return provider.authorize(...args);
    },
  });
}
