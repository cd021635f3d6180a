/**
 * The one server-side interface every payment provider sits behind (docs/architecture.md §6).
 *
 * A checkout authorises (holds) the server-computed amount, takes stock in one database
 * transaction, then captures. Every call carries an idempotency key, so a call that is retried
 * after a timeout or a crash reaches the same authorisation and never charges twice.
 */

export type PaymentProviderName = 'test' | 'stripe' | 'paypal';
export type PaymentMethodKind = 'card' | 'wallet';

/**
 * How the buyer pays:
 * - `card`: a payment-method id (Stripe `pm_…`; on the test provider also a test card number);
 * - `wallet`: a wallet order the buyer has approved at the provider (PayPal, test wallet).
 */
export type PaymentMethod =
  | { type: 'card'; id: string; receiptEmail?: string | undefined }
  | { type: 'wallet'; orderId: string };

export interface Authorization {
  /** The provider's id of the held payment: what capture and release act on (spec: idpurchase). */
  id: string;
  amountCents: number;
}

/**
 * The card needs the buyer's own step before anything is held (3-D Secure): the PWA completes it
 * with the provider's client library (Stripe.js `handleNextAction`), then the checkout asks the
 * provider again (`resumeAuthorization`). Nothing is captured before that.
 */
export interface ActionRequired {
  actionRequired: true;
  /** The provider's id of the pending payment (a Stripe PaymentIntent). */
  id: string;
  /** What the buyer's browser needs to complete the step (the PaymentIntent's client secret). */
  clientSecret: string;
}

export function isActionRequired(result: Authorization | ActionRequired): result is ActionRequired {
  return 'actionRequired' in result;
}

export interface WalletOrder {
  /** The provider's id of the order the buyer approves. */
  orderId: string;
  /** Where the buyer's browser goes to approve (or cancel) the order. */
  approvalUrl: string;
}

export interface WalletUrls {
  /** Where the provider sends the buyer after approval. */
  returnUrl: string;
  /** Where the provider sends the buyer after cancelling. */
  cancelUrl: string;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** The methods this provider takes: Stripe cards, PayPal wallets, the test provider both. */
  readonly methods: readonly PaymentMethodKind[];
  /**
   * The form a card method is stored in. Security: the test provider turns a test card number
   * into its `pm_…` twin, so no card number is ever written to the database.
   */
  normalizeCardMethod(id: string): string;
  /**
   * Holds `amountCents` on the method without capturing. Idempotent per key: the same key
   * returns the same authorisation. A card that needs the buyer's authentication answers
   * ActionRequired instead (nothing held yet).
   * @throws PaymentDeclinedError when the provider refused (nothing is held);
   *         PaymentUnavailableError when the outcome is unknown (timeout, provider error).
   */
  authorize(
    amountCents: number,
    idempotencyKey: string,
    method: PaymentMethod,
  ): Promise<Authorization | ActionRequired>;
  /**
   * Card providers with a buyer step: where a payment that answered ActionRequired stands now,
   * an authorisation once the buyer completed the step, or ActionRequired while they have not.
   * @throws PaymentDeclinedError when the authentication failed (nothing is held);
   *         PaymentUnavailableError when the outcome is unknown.
   */
  resumeAuthorization?(id: string): Promise<Authorization | ActionRequired>;
  /** Wallet providers: creates the order the buyer approves at `approvalUrl`. Idempotent per key. */
  createWalletOrder?(
    amountCents: number,
    idempotencyKey: string,
    urls: WalletUrls,
  ): Promise<WalletOrder>;
  /**
   * Captures a held authorisation for exactly `amountCents`. Capturing an already captured
   * authorisation succeeds again (so a retry after a crash is safe).
   * @throws PaymentDeclinedError if the authorisation can no longer be captured (expired, released).
   */
  capture(authorizationId: string, amountCents: number, idempotencyKey: string): Promise<void>;
  /** Releases (voids) a held authorisation; releasing one already released succeeds again. */
  release(authorizationId: string, idempotencyKey: string): Promise<void>;
}

/** The provider refused: the card was declined, lacks funds, or the wallet was not approved. */
export class PaymentDeclinedError extends Error {
  constructor(
    /** Stripe-style code: card_declined, insufficient_funds, incorrect_number, wallet_not_approved… */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'PaymentDeclinedError';
  }
}

/** The provider did not give a definite answer (timeout, 5xx, network): the outcome is unknown. */
export class PaymentUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PaymentUnavailableError';
  }
}

/**
 * The providers a server runs with: one per payment method at most, found again by name for
 * payments that an earlier request (or another instance) started.
 */
export interface PaymentGateway {
  readonly providers: readonly PaymentProvider[];
  forMethod(kind: PaymentMethodKind): PaymentProvider | undefined;
  byName(name: string): PaymentProvider | undefined;
}

export function createPaymentGateway(providers: readonly PaymentProvider[]): PaymentGateway {
  return {
    providers,
    forMethod: (kind) => providers.find((p) => p.methods.includes(kind)),
    byName: (name) => providers.find((p) => p.name === name),
  };
}

/** Rejects with PaymentUnavailableError when `promise` takes longer than `ms`. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new PaymentUnavailableError(`${what}: no answer within ${ms} ms`)),
      ms,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
