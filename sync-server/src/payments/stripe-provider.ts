import Stripe from 'stripe';
import {
  PaymentDeclinedError,
  PaymentUnavailableError,
  type ActionRequired,
  type Authorization,
  type PaymentMethod,
  type PaymentProvider,
} from './provider.ts';

/**
 * Stripe cards through PaymentIntents: created on the server with the server's amount and
 * `capture_method: manual` (an authorisation), captured after the order is written, cancelled
 * when it is not. A card that needs 3-D Secure leaves the intent `requires_action`: the PWA
 * completes the step with Stripe.js and the checkout retrieves the intent again
 * (`resumeAuthorization`); it is held (`requires_capture`) only then. Every request carries an idempotency key derived from the checkout's key.
 */

export interface StripeProviderOptions {
  secretKey: string;
  /** The API's base address; a local peer in tests (`http://127.0.0.1:PORT`). */
  apiBase?: string | undefined;
  timeoutMs?: number;
  currency?: string;
}

export interface StripeProvider extends PaymentProvider {
  readonly name: 'stripe';
  readonly client: Stripe;
}

function clientFor(options: StripeProviderOptions): Stripe {
  const config: ConstructorParameters<typeof Stripe>[1] = {
    // The checkout retries with the same idempotency keys itself (and reconciles after crashes).
    maxNetworkRetries: 0,
    timeout: options.timeoutMs ?? 20_000,
    telemetry: false,
  };
  if (options.apiBase) {
    const url = new URL(options.apiBase);
    config.host = url.hostname;
    config.port = url.port || (url.protocol === 'https:' ? '443' : '80');
    config.protocol = url.protocol === 'http:' ? 'http' : 'https';
  }
  return new Stripe(options.secretKey, config);
}

/** Maps Stripe's errors onto the two outcomes the checkout distinguishes. */
function translate(error: unknown, what: string): Error {
  if (error instanceof Stripe.errors.StripeCardError) {
    // Stripe reports every issuer decline as code card_declined; the decline code says why.
    const code =
      error.decline_code === 'insufficient_funds'
        ? 'insufficient_funds'
        : (error.code ?? 'card_declined');
    return new PaymentDeclinedError(code, error.message);
  }
  if (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    error.code === 'payment_intent_authentication_failure'
  ) {
    return new PaymentDeclinedError('authentication_required', error.message);
  }
  if (
    error instanceof Stripe.errors.StripeError &&
    error.statusCode !== undefined &&
    error.statusCode < 500 &&
    error.statusCode !== 429
  ) {
    // A definite refusal that is not a card decline (bad key, bad request): not retryable either.
    return new PaymentDeclinedError(error.code ?? error.type, error.message);
  }
  return new PaymentUnavailableError(
    `Stripe ${what} failed: ${(error as Error)?.message ?? error}`,
    { cause: error },
  );
}

function isUnexpectedState(error: unknown): boolean {
  return (
    error instanceof Stripe.errors.StripeInvalidRequestError &&
    error.code === 'payment_intent_unexpected_state'
  );
}

export function createStripeProvider(options: StripeProviderOptions): StripeProvider {
  const client = clientFor(options);
  const currency = (options.currency ?? 'usd').toLowerCase();

  async function retrieveStatus(id: string): Promise<string> {
    try {
      return (await client.paymentIntents.retrieve(id)).status;
    } catch (error) {
      throw translate(error, 'retrieve');
    }
  }

  /**
   * What a PaymentIntent's status means for the checkout: held (`requires_capture`), the buyer's
   * 3-D Secure step (`requires_action`), or refused. A refused or unexpected intent is cancelled
   * so that nothing stays held.
   */
  async function settled(
    intent: Stripe.PaymentIntent,
    releaseKey: string,
  ): Promise<Authorization | ActionRequired> {
    if (intent.status === 'requires_capture') return { id: intent.id, amountCents: intent.amount };
    if (intent.status === 'requires_action' && intent.client_secret) {
      return { actionRequired: true, id: intent.id, clientSecret: intent.client_secret };
    }
    if (intent.status === 'processing') {
      throw new PaymentUnavailableError(`Stripe is still processing ${intent.id}`);
    }
    if (intent.status !== 'canceled') {
      await client.paymentIntents
        .cancel(intent.id, {}, { idempotencyKey: releaseKey })
        .catch(() => {});
    }
    if (intent.status === 'requires_payment_method' || intent.status === 'canceled') {
      // The buyer's authentication failed (or was abandoned): Stripe detached the card.
      throw new PaymentDeclinedError(
        'authentication_failed',
        intent.last_payment_error?.message ?? 'We could not authenticate your card.',
      );
    }
    throw new PaymentDeclinedError(
      'authentication_required',
      'Your card needs an authentication step.',
    );
  }

  return {
    name: 'stripe',
    methods: ['card'],
    client,
    normalizeCardMethod: (id) => id.trim(),

    async authorize(
      amountCents: number,
      idempotencyKey: string,
      method: PaymentMethod,
    ): Promise<Authorization | ActionRequired> {
      if (method.type !== 'card')
        throw new PaymentDeclinedError('unsupported_method', 'Stripe takes cards only');
      let intent: Stripe.PaymentIntent;
      try {
        intent = await client.paymentIntents.create(
          {
            amount: amountCents,
            currency,
            payment_method: method.id,
            // A card needs no redirect; any method that would is refused rather than left pending.
            automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
            capture_method: 'manual',
            confirm: true,
            // 3-D Secure is completed in the page by Stripe.js (`handleNextAction`), not by a
            // redirect: the next action is then `use_stripe_sdk`.
            use_stripe_sdk: true,
            ...(method.receiptEmail ? { receipt_email: method.receiptEmail } : {}),
          },
          { idempotencyKey: `auth:${idempotencyKey}` },
        );
      } catch (error) {
        throw translate(error, 'authorize');
      }
      return settled(intent, `release:${idempotencyKey}`);
    },

    async resumeAuthorization(id: string): Promise<Authorization | ActionRequired> {
      let intent: Stripe.PaymentIntent;
      try {
        intent = await client.paymentIntents.retrieve(id);
      } catch (error) {
        throw translate(error, 'retrieve');
      }
      return settled(intent, `release:${id}`);
    },

    async capture(authorizationId: string, amountCents: number, idempotencyKey: string) {
      try {
        await client.paymentIntents.capture(
          authorizationId,
          { amount_to_capture: amountCents },
          { idempotencyKey: `capture:${idempotencyKey}` },
        );
      } catch (error) {
        if (!isUnexpectedState(error)) throw translate(error, 'capture');
        const status = await retrieveStatus(authorizationId);
        if (status === 'succeeded') return;
        throw new PaymentDeclinedError('authorization_not_capturable', `The payment is ${status}.`);
      }
    },

    async release(authorizationId: string, idempotencyKey: string) {
      try {
        await client.paymentIntents.cancel(
          authorizationId,
          {},
          { idempotencyKey: `release:${idempotencyKey}` },
        );
      } catch (error) {
        if (!isUnexpectedState(error)) throw translate(error, 'release');
        const status = await retrieveStatus(authorizationId);
        if (status === 'canceled') return;
        throw new PaymentDeclinedError('already_captured', `The payment is ${status}.`);
      }
    },
  };
}

/**
 * Checks a webhook's `Stripe-Signature` against the raw request body (never a re-serialised
 * JSON) and returns the event. Security: an unsigned or stale event is refused.
 * @throws Stripe.errors.StripeSignatureVerificationError
 */
export function verifyStripeWebhook(
  rawBody: string,
  signature: string,
  secret: string,
): Stripe.Event {
  return Stripe.webhooks.constructEvent(rawBody, signature, secret);
}

/** Signs a payload as Stripe does (for local peers and tests). */
export function signStripeWebhook(payload: string, secret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp !== undefined ? { timestamp } : {}),
  });
}
