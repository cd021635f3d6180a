import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

/**
 * A local HTTP peer that answers like PayPal's REST API (OAuth client-credentials token, Orders v2
 * create / get / authorize, Payments v2 authorization capture / void), for tests. It honours
 * `PayPal-Request-Id` (a repeated id returns the first answer) and PayPal's error shape
 * (`{name, details: [{issue}]}`). A buyer's approval is `approve(orderId)`, or a browser visit to
 * the `payer-action` link. It listens on 127.0.0.1 only.
 */

export interface PeerOrder {
  id: string;
  intent: string;
  status: 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED' | 'VOIDED';
  amount: { currency_code: string; value: string };
  returnUrl: string;
  cancelUrl: string;
  authorization?: PeerAuthorization;
}

export interface PeerAuthorization {
  id: string;
  status: 'CREATED' | 'CAPTURED' | 'VOIDED';
  amount: { currency_code: string; value: string };
  captures: number;
}

export interface PayPalPeer {
  url: string;
  orders: Map<string, PeerOrder>;
  authorizations: Map<string, PeerAuthorization>;
  requests: string[];
  delayMs: number;
  failNext(n: number): void;
  /** The buyer approves the order at PayPal. */
  approve(orderId: string): void;
  close(): Promise<void>;
}

export async function startPayPalPeer(
  options: { clientId?: string; clientSecret?: string } = {},
): Promise<PayPalPeer> {
  const clientId = options.clientId ?? 'paypal-client';
  const clientSecret = options.clientSecret ?? 'paypal-secret';
  const orders = new Map<string, PeerOrder>();
  const authorizations = new Map<string, PeerAuthorization>();
  const replies = new Map<string, { status: number; body: unknown }>();
  const tokens = new Set<string>();
  const requests: string[] = [];
  let failures = 0;
  const id = (n = 8) => randomBytes(n).toString('hex').toUpperCase();

  const peer: PayPalPeer = {
    url: '',
    orders,
    authorizations,
    requests,
    delayMs: 0,
    failNext(n) {
      failures = n;
    },
    approve(orderId) {
      const order = orders.get(orderId);
      if (order && order.status === 'PAYER_ACTION_REQUIRED') order.status = 'APPROVED';
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const unprocessable = (issue: string, description: string) => ({
    status: 422,
    body: {
      name: 'UNPROCESSABLE_ENTITY',
      message: 'The requested action could not be performed.',
      details: [{ issue, description }],
    },
  });
  const notFound = () => ({
    status: 404,
    body: {
      name: 'RESOURCE_NOT_FOUND',
      message: 'The specified resource does not exist.',
      details: [{ issue: 'INVALID_RESOURCE_ID' }],
    },
  });

  function orderView(order: PeerOrder) {
    return {
      id: order.id,
      intent: order.intent,
      status: order.status,
      purchase_units: [
        {
          amount: order.amount,
          ...(order.authorization
            ? {
                payments: {
                  authorizations: [
                    {
                      id: order.authorization.id,
                      status: order.authorization.status,
                      amount: order.authorization.amount,
                    },
                  ],
                },
              }
            : {}),
        },
      ],
      links: [
        { rel: 'self', href: `${peer.url}/v2/checkout/orders/${order.id}`, method: 'GET' },
        { rel: 'payer-action', href: `${peer.url}/checkoutnow?token=${order.id}`, method: 'GET' },
      ],
    };
  }

  function handle(
    method: string,
    path: string,
    body: Record<string, any>,
  ): { status: number; body: unknown } {
    if (method === 'POST' && path === '/v2/checkout/orders') {
      const unit = body.purchase_units?.[0];
      const value = unit?.amount?.value;
      if (
        !['AUTHORIZE', 'CAPTURE'].includes(body.intent) ||
        typeof value !== 'string' ||
        !/^\d+\.\d{2}$/.test(value)
      ) {
        return {
          status: 400,
          body: { name: 'INVALID_REQUEST', details: [{ issue: 'INVALID_PARAMETER_VALUE' }] },
        };
      }
      const context = body.payment_source?.paypal?.experience_context ?? {};
      const order: PeerOrder = {
        id: id(),
        intent: body.intent,
        status: 'PAYER_ACTION_REQUIRED',
        amount: unit.amount,
        returnUrl: context.return_url ?? '',
        cancelUrl: context.cancel_url ?? '',
      };
      orders.set(order.id, order);
      return { status: 200, body: orderView(order) };
    }
    let match = /^\/v2\/checkout\/orders\/([^/]+)(\/authorize)?$/.exec(path);
    if (match) {
      const order = orders.get(decodeURIComponent(match[1]!));
      if (!order) return notFound();
      if (method === 'GET' && !match[2]) return { status: 200, body: orderView(order) };
      if (method === 'POST' && match[2]) {
        if (order.authorization)
          return unprocessable('ORDER_ALREADY_AUTHORIZED', 'Order already authorized.');
        if (order.status !== 'APPROVED')
          return unprocessable(
            'ORDER_NOT_APPROVED',
            'Payer has not yet approved the Order for payment.',
          );
        order.authorization = { id: id(), status: 'CREATED', amount: order.amount, captures: 0 };
        authorizations.set(order.authorization.id, order.authorization);
        order.status = 'COMPLETED';
        return { status: 201, body: orderView(order) };
      }
    }
    match = /^\/v2\/payments\/authorizations\/([^/]+)\/(capture|void)$/.exec(path);
    if (match && method === 'POST') {
      const authorization = authorizations.get(decodeURIComponent(match[1]!));
      if (!authorization) return notFound();
      if (match[2] === 'capture') {
        if (authorization.status === 'CAPTURED')
          return unprocessable(
            'AUTHORIZATION_ALREADY_CAPTURED',
            'Authorization has been previously captured.',
          );
        if (authorization.status === 'VOIDED')
          return unprocessable(
            'AUTHORIZATION_VOIDED',
            'A voided authorization cannot be captured.',
          );
        const value = body.amount?.value;
        if (value !== undefined && value !== authorization.amount.value) {
          return unprocessable(
            'AMOUNT_MISMATCH',
            'The capture amount differs from the authorization.',
          );
        }
        authorization.status = 'CAPTURED';
        authorization.captures += 1;
        return {
          status: 201,
          body: {
            id: id(),
            status: 'COMPLETED',
            amount: authorization.amount,
            final_capture: true,
          },
        };
      }
      if (authorization.status === 'VOIDED')
        return unprocessable(
          'AUTHORIZATION_ALREADY_VOIDED',
          'Authorization has been previously voided.',
        );
      if (authorization.status === 'CAPTURED')
        return unprocessable(
          'CANNOT_VOID_AUTHORIZATION',
          'A captured authorization cannot be voided.',
        );
      authorization.status = 'VOIDED';
      return { status: 204, body: undefined };
    }
    return notFound();
  }

  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://peer');
      requests.push(`${req.method} ${url.pathname}`);
      const reply = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        const send = () => {
          res.writeHead(
            status,
            body === undefined ? headers : { 'content-type': 'application/json', ...headers },
          );
          res.end(body === undefined ? undefined : JSON.stringify(body));
        };
        if (peer.delayMs > 0) setTimeout(send, peer.delayMs).unref();
        else send();
      };
      if (req.method === 'GET' && url.pathname === '/checkoutnow') {
        // The buyer's browser at PayPal: approving sends it back to the shop.
        const order = orders.get(url.searchParams.get('token') ?? '');
        if (!order) return reply(404, { name: 'RESOURCE_NOT_FOUND' });
        peer.approve(order.id);
        return reply(302, undefined, { location: order.returnUrl });
      }
      if (url.pathname === '/v1/oauth2/token') {
        const expected = `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}`;
        if (
          req.headers.authorization !== expected ||
          !raw.includes('grant_type=client_credentials')
        ) {
          return reply(401, {
            error: 'invalid_client',
            error_description: 'Client Authentication failed',
          });
        }
        const token = `A21AA${id(16)}`;
        tokens.add(token);
        return reply(200, {
          scope: 'https://uri.paypal.com/services/payments',
          access_token: token,
          token_type: 'Bearer',
          expires_in: 32400,
        });
      }
      const bearer = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (!tokens.has(bearer))
        return reply(401, {
          name: 'AUTHENTICATION_FAILURE',
          message: 'Authentication failed due to invalid authentication credentials.',
        });
      if (failures > 0) {
        failures -= 1;
        return reply(500, {
          name: 'INTERNAL_SERVER_ERROR',
          message: 'An internal server error has occurred.',
        });
      }
      const requestId = req.headers['paypal-request-id'];
      const replayKey =
        typeof requestId === 'string' ? `${req.method} ${url.pathname} ${requestId}` : undefined;
      const earlier = replayKey ? replies.get(replayKey) : undefined;
      if (earlier) return reply(earlier.status, earlier.body);
      let body: Record<string, any>;
      try {
        body = raw ? (JSON.parse(raw) as Record<string, any>) : {};
      } catch {
        return reply(400, {
          name: 'INVALID_REQUEST',
          details: [{ issue: 'MALFORMED_REQUEST_JSON' }],
        });
      }
      const answer = handle(req.method ?? 'GET', url.pathname, body);
      if (replayKey && answer.status < 300) replies.set(replayKey, answer);
      reply(answer.status, answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return peer;
}
