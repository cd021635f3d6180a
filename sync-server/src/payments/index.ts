import type { Config } from '../config.ts';
import { createPayPalProvider } from './paypal-provider.ts';
import { createPaymentGateway, type PaymentGateway, type PaymentProvider } from './provider.ts';
import { createStripeProvider } from './stripe-provider.ts';
import { createTestPaymentProvider } from './test-provider.ts';

export * from './provider.ts';
export { createTestPaymentProvider, type TestPaymentProvider } from './test-provider.ts';
export { createStripeProvider, verifyStripeWebhook, signStripeWebhook } from './stripe-provider.ts';
export { createPayPalProvider } from './paypal-provider.ts';

/** Settings the checkout reads besides the providers themselves. */
export interface PaymentSettings {
  /** A provider call slower than this is treated as unanswered (outcome unknown). */
  timeoutMs: number;
  /** Secret of Stripe's webhook signatures; without it the webhook route refuses every event. */
  stripeWebhookSecret?: string | undefined;
  /** Public: the PWA's Stripe card element needs it. */
  stripePublishableKey?: string | undefined;
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
    reconcileEveryMs: 60_000,
  };
  if (config.PAYMENT_PROVIDER === 'test')
    return createPayments([createTestPaymentProvider()], settings);
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
