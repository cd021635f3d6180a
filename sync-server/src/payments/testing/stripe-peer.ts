import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

/**
 * A local HTTP peer that answers like Stripe's PaymentIntents API (the subset the Stripe adapter
 * uses), for tests: form-encoded requests, Bearer secret keys, Idempotency-Key replays (same key
 * with other parameters is an idempotency_error), Stripe's test payment methods and its error
 * shapes. It listens on 127.0.0.1 only.
 */

export interface PeerIntent {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_received: number;
  currency: string;
  status:
    'requires_capture' | 'succeeded' | 'canceled' | 'requires_action' | 'requires_payment_method';
  capture_method: string;
  payment_method: string | null;
  receipt_email: string | null;
  latest_charge: string | null;
  client_secret: string;
  next_action: { type: string; use_stripe_sdk?: Record<string, unknown> } | null;
  last_payment_error: { code: string; message: string } | null;
}

export interface StripePeer {
  url: string;
  intents: Map<string, PeerIntent>;
  /** Requests received, as `METHOD /path`. */
  requests: string[];
  /** Milliseconds every answer waits (to test timeouts). */
  delayMs: number;
  /** The next `n` requests answer 500 (a provider outage). */
  failNext(n: number): void;
  /**
   * The buyer completes (or fails) the 3-D Secure challenge of an intent in `requires_action`,
   * as Stripe.js `handleNextAction` would in the browser.
   */
  authenticate(intentId: string, outcome?: 'succeed' | 'fail'): void;
  close(): Promise<void>;
}

const DECLINES: Record<string, { decline_code: string; message: string }> = {
  pm_card_chargeDeclined: { decline_code: 'generic_decline', message: 'Your card was declined.' },
  pm_card_chargeDeclinedInsufficientFunds: {
    decline_code: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
};
const OK_METHODS = new Set(['pm_card_visa', 'pm_card_mastercard']);
/** Stripe's test card that always asks for 3-D Secure (4000 0027 6000 3184). */
const AUTHENTICATION_REQUIRED = 'pm_card_authenticationRequired';

export async function startStripePeer(options: { secretKey?: string } = {}): Promise<StripePeer> {
  const secretKey = options.secretKey ?? 'sk_test_local';
  const intents = new Map<string, PeerIntent>();
  const idempotency = new Map<string, { fingerprint: string; status: number; body: unknown }>();
  const requests: string[] = [];
  let failures = 0;

  const peer: StripePeer = {
    url: '',
    intents,
    requests,
    delayMs: 0,
    failNext(n) {
      failures = n;
    },
    authenticate(intentId, outcome = 'succeed') {
      const intent = intents.get(intentId);
      if (!intent || intent.status !== 'requires_action') return;
      intent.next_action = null;
      if (outcome === 'succeed') {
        intent.status = 'requires_capture';
      } else {
        intent.status = 'requires_payment_method';
        intent.payment_method = null;
        intent.last_payment_error = {
          code: 'payment_intent_authentication_failure',
          message:
            'We are unable to authenticate your payment method. Please choose a different payment method and try again.',
        };
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  function stripeError(status: number, error: Record<string, unknown>) {
    return { status, body: { error } };
  }

  function unexpectedState(intent: PeerIntent, action: string) {
    return stripeError(400, {
      type: 'invalid_request_error',
      code: 'payment_intent_unexpected_state',
      message: `This PaymentIntent could not be ${action} because it has a status of ${intent.status}.`,
      payment_intent: intent,
    });
  }

  function handle(
    method: string,
    path: string,
    form: URLSearchParams,
  ): { status: number; body: unknown } {
    if (method === 'POST' && path === '/v1/payment_intents') {
      const amount = Number(form.get('amount'));
      const pm = form.get('payment_method') ?? '';
      if (!Number.isInteger(amount) || amount < 50) {
        return stripeError(400, {
          type: 'invalid_request_error',
          code: 'amount_too_small',
          param: 'amount',
          message: 'Amount must be at least $0.50 usd',
        });
      }
      const id = `pi_${randomBytes(12).toString('hex')}`;
      const intent: PeerIntent = {
        id,
        object: 'payment_intent',
        amount,
        amount_received: 0,
        currency: form.get('currency') ?? 'usd',
        status: 'requires_capture',
        capture_method: form.get('capture_method') ?? 'automatic',
        payment_method: pm,
        receipt_email: form.get('receipt_email'),
        latest_charge: null,
        client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
        next_action: null,
        last_payment_error: null,
      };
      if (pm === AUTHENTICATION_REQUIRED) {
        // Confirmed on the server: the buyer's 3-D Secure step comes next. Without
        // use_stripe_sdk, Stripe would ask for a redirect (and a return_url) instead.
        intent.status = 'requires_action';
        intent.next_action =
          form.get('use_stripe_sdk') === 'true'
            ? { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } }
            : { type: 'redirect_to_url' };
        intents.set(intent.id, intent);
        return { status: 200, body: intent };
      }
      const decline = DECLINES[pm];
      if (decline || !OK_METHODS.has(pm)) {
        // Stripe leaves a declined intent unusable; nothing is held on the card.
        intent.status = 'canceled';
        intents.set(intent.id, intent);
        return stripeError(402, {
          type: 'card_error',
          code: decline ? 'card_declined' : 'resource_missing',
          decline_code: decline?.decline_code,
          message: decline?.message ?? `No such PaymentMethod: '${pm}'`,
          payment_intent: intent,
        });
      }
      intents.set(intent.id, intent);
      return { status: 200, body: intent };
    }
    const match = /^\/v1\/payment_intents\/([^/]+)(?:\/(capture|cancel))?$/.exec(path);
    const intent = match ? intents.get(decodeURIComponent(match[1]!)) : undefined;
    if (!match || !intent) {
      return stripeError(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        message: 'No such payment_intent',
      });
    }
    const action = match[2];
    if (method === 'GET' && !action) return { status: 200, body: intent };
    if (method === 'POST' && action === 'capture') {
      if (intent.status !== 'requires_capture') return unexpectedState(intent, 'captured');
      const amount = form.has('amount_to_capture')
        ? Number(form.get('amount_to_capture'))
        : intent.amount;
      if (amount > intent.amount) {
        return stripeError(400, {
          type: 'invalid_request_error',
          code: 'amount_too_large',
          message: 'amount_to_capture is larger than the amount',
        });
      }
      intent.status = 'succeeded';
      intent.amount_received = amount;
      intent.latest_charge = `ch_${randomBytes(12).toString('hex')}`;
      return { status: 200, body: intent };
    }
    if (method === 'POST' && action === 'cancel') {
      if (
        !['requires_capture', 'requires_action', 'requires_payment_method'].includes(intent.status)
      )
        return unexpectedState(intent, 'canceled');
      intent.status = 'canceled';
      return { status: 200, body: intent };
    }
    return stripeError(404, {
      type: 'invalid_request_error',
      message: `Unrecognized request URL (${method}: ${path})`,
    });
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      requests.push(`${req.method} ${path}`);
      const reply = (status: number, body: unknown, replayed = false) => {
        const send = () => {
          res.writeHead(status, {
            'content-type': 'application/json',
            'request-id': `req_${randomBytes(8).toString('hex')}`,
            ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
          });
          res.end(JSON.stringify(body));
        };
        if (peer.delayMs > 0) setTimeout(send, peer.delayMs).unref();
        else send();
      };
      if (req.headers.authorization !== `Bearer ${secretKey}`) {
        reply(401, {
          error: { type: 'invalid_request_error', message: 'Invalid API Key provided' },
        });
        return;
      }
      if (failures > 0) {
        failures -= 1;
        reply(500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
        return;
      }
      const key = req.headers['idempotency-key'];
      const fingerprint = `${req.method} ${path} ${raw}`;
      if (typeof key === 'string' && req.method === 'POST') {
        const earlier = idempotency.get(key);
        if (earlier) {
          if (earlier.fingerprint !== fingerprint) {
            reply(400, {
              error: {
                type: 'idempotency_error',
                message:
                  'Keys for idempotent requests can only be used with the same parameters they were first used with.',
              },
            });
          } else {
            reply(earlier.status, earlier.body, true);
          }
          return;
        }
      }
      const answer = handle(req.method ?? 'GET', path, new URLSearchParams(raw));
      if (typeof key === 'string' && req.method === 'POST')
        idempotency.set(key, { fingerprint, ...answer });
      reply(answer.status, answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return peer;
}
