import { WALLET_CURRENCY, formatCents } from '@skyport/shared';
import { PaymentDeclinedError, PaymentUnavailableError, type PaymentProvider } from './provider.ts';

/**
 * PayPal wallet through Orders v2 (spec §7: "order in USD for the total, no shipping").
 * The order is created with intent AUTHORIZE so that PayPal, like every provider here, first
 * holds the money: after the buyer approves, the server authorises the order, writes the order
 * and takes stock, then captures the authorisation (or voids it). Each call carries a
 * `PayPal-Request-Id`, PayPal's idempotency key, derived from the checkout's key.
 */

export interface PayPalProviderOptions {
  clientId: string;
  clientSecret: string;
  /** https://api-m.paypal.com, the sandbox, or a local peer in tests. */
  apiBase: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

interface PayPalLink {
  rel: string;
  href: string;
}

interface PayPalOrder {
  id: string;
  status: string;
  links?: PayPalLink[];
  purchase_units?: {
    payments?: { authorizations?: { id: string; status: string; amount?: { value: string } }[] };
  }[];
}

interface PayPalError {
  name?: string;
  message?: string;
  details?: { issue?: string; description?: string }[];
}

export interface PayPalProvider extends PaymentProvider {
  readonly name: 'paypal';
}

class PayPalHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: PayPalError,
  ) {
    super(`PayPal answered ${status}: ${body.details?.[0]?.issue ?? body.name ?? 'error'}`);
  }
  get issue(): string {
    return this.body.details?.[0]?.issue ?? this.body.name ?? 'UNKNOWN';
  }
}

export function createPayPalProvider(options: PayPalProviderOptions): PayPalProvider {
  const base = options.apiBase.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const timeoutMs = options.timeoutMs ?? 20_000;
  let token: { value: string; expiresAt: number } | undefined;

  async function call<T>(
    method: string,
    path: string,
    init: { body?: string; headers?: Record<string, string> },
  ): Promise<T> {
    let response: Response;
    try {
      response = await doFetch(`${base}${path}`, {
        method,
        headers: init.headers,
        body: init.body,
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new PaymentUnavailableError(
        `PayPal ${method} ${path} failed: ${(error as Error).message}`,
        { cause: error },
      );
    }
    const text = await response.text();
    const body = text ? (JSON.parse(text) as unknown) : {};
    if (response.status >= 500 || response.status === 429) {
      throw new PaymentUnavailableError(`PayPal ${method} ${path} answered ${response.status}`);
    }
    if (!response.ok) throw new PayPalHttpError(response.status, body as PayPalError);
    return body as T;
  }

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now() + 60_000) return token.value;
    const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
    try {
      const answer = await call<{ access_token: string; expires_in: number }>(
        'POST',
        '/v1/oauth2/token',
        {
          body: 'grant_type=client_credentials',
          headers: {
            authorization: `Basic ${basic}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
        },
      );
      token = { value: answer.access_token, expiresAt: Date.now() + answer.expires_in * 1000 };
      return token.value;
    } catch (error) {
      if (error instanceof PayPalHttpError)
        throw new PaymentUnavailableError(`PayPal refused the credentials: ${error.issue}`);
      throw error;
    }
  }

  async function api<T>(
    method: string,
    path: string,
    requestId: string | undefined,
    body?: unknown,
  ): Promise<T> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${await accessToken()}`,
      'content-type': 'application/json',
      prefer: 'return=representation',
    };
    if (requestId) headers['paypal-request-id'] = requestId;
    return call<T>(method, path, {
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  }

  function authorizationOf(
    order: PayPalOrder,
  ): { id: string; status: string; value?: string } | undefined {
    const found = order.purchase_units?.[0]?.payments?.authorizations?.[0];
    return found
      ? {
          id: found.id,
          status: found.status,
          ...(found.amount ? { value: found.amount.value } : {}),
        }
      : undefined;
  }

  // The methods' parameter and answer types are PaymentProvider's (provider.ts).
  return {
    name: 'paypal',
    methods: ['wallet'],
    normalizeCardMethod: (id) => id.trim(),

    async createWalletOrder(amountCents, idempotencyKey, urls) {
      const order = await api<PayPalOrder>(
        'POST',
        '/v2/checkout/orders',
        `order:${idempotencyKey}`,
        {
          intent: 'AUTHORIZE',
          purchase_units: [
            {
              reference_id: idempotencyKey.slice(0, 256),
              amount: { currency_code: WALLET_CURRENCY, value: formatCents(amountCents) },
            },
          ],
          payment_source: {
            paypal: {
              experience_context: {
                shipping_preference: 'NO_SHIPPING',
                user_action: 'PAY_NOW',
                return_url: urls.returnUrl,
                cancel_url: urls.cancelUrl,
              },
            },
          },
        },
      ).catch((error: unknown) => {
        if (error instanceof PayPalHttpError)
          throw new PaymentDeclinedError(error.issue.toLowerCase(), error.message);
        throw error;
      });
      const link = order.links?.find((l) => l.rel === 'payer-action' || l.rel === 'approve');
      if (!link) throw new PaymentUnavailableError('PayPal gave no approval link');
      return { orderId: order.id, approvalUrl: link.href };
    },

    async authorize(amountCents, idempotencyKey, method) {
      if (method.type !== 'wallet')
        throw new PaymentDeclinedError('unsupported_method', 'PayPal takes wallet payments only');
      let order: PayPalOrder;
      try {
        order = await api<PayPalOrder>(
          'POST',
          `/v2/checkout/orders/${encodeURIComponent(method.orderId)}/authorize`,
          `auth:${idempotencyKey}`,
          {},
        );
      } catch (error) {
        if (!(error instanceof PayPalHttpError)) throw error;
        if (error.issue !== 'ORDER_ALREADY_AUTHORIZED') {
          throw new PaymentDeclinedError(
            error.issue === 'ORDER_NOT_APPROVED'
              ? 'wallet_not_approved'
              : error.issue.toLowerCase(),
            error.message,
          );
        }
        order = await api<PayPalOrder>(
          'GET',
          `/v2/checkout/orders/${encodeURIComponent(method.orderId)}`,
          undefined,
        );
      }
      const authorization = authorizationOf(order);
      if (!authorization || !['CREATED', 'CAPTURED', 'PENDING'].includes(authorization.status)) {
        throw new PaymentDeclinedError(
          'wallet_not_approved',
          'The wallet payment was not approved.',
        );
      }
      if (authorization.value !== undefined && authorization.value !== formatCents(amountCents)) {
        throw new PaymentDeclinedError(
          'amount_mismatch',
          'The wallet order amount differs from the checkout.',
        );
      }
      return { id: authorization.id, amountCents };
    },

    async capture(authorizationId, amountCents, idempotencyKey) {
      try {
        await api(
          'POST',
          `/v2/payments/authorizations/${encodeURIComponent(authorizationId)}/capture`,
          `capture:${idempotencyKey}`,
          {
            amount: { currency_code: WALLET_CURRENCY, value: formatCents(amountCents) },
            final_capture: true,
          },
        );
      } catch (error) {
        if (!(error instanceof PayPalHttpError)) throw error;
        if (error.issue === 'AUTHORIZATION_ALREADY_CAPTURED') return;
        throw new PaymentDeclinedError('authorization_not_capturable', error.message);
      }
    },

    async release(authorizationId, idempotencyKey) {
      try {
        await api(
          'POST',
          `/v2/payments/authorizations/${encodeURIComponent(authorizationId)}/void`,
          `release:${idempotencyKey}`,
        );
      } catch (error) {
        if (!(error instanceof PayPalHttpError)) throw error;
        if (error.issue === 'AUTHORIZATION_ALREADY_VOIDED' || error.issue === 'PREVIOUSLY_VOIDED')
          return;
        throw new PaymentDeclinedError('already_captured', error.message);
      }
    },
  };
}
