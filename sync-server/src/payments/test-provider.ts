import { randomBytes } from 'node:crypto';
import {
  PaymentDeclinedError,
  type Authorization,
  type PaymentMethod,
  type PaymentProvider,
  type WalletOrder,
  type WalletUrls,
} from './provider.ts';

/**
 * The built-in test provider (the default): Stripe-like test cards and a wallet whose approval
 * page the server itself serves, so the whole purchase works with no payment network.
 * State is kept in memory, per process: a development and test tool, refused in production
 * unless ALLOW_TEST_PAYMENTS=true (see config.ts).
 */

interface TestCard {
  pm: string;
  outcome: 'ok' | 'card_declined' | 'insufficient_funds';
}

/** Test card numbers and their Stripe payment-method twins (Stripe's documented test values). */
const TEST_CARDS: Record<string, TestCard> = {
  '4242424242424242': { pm: 'pm_card_visa', outcome: 'ok' },
  '5555555555554444': { pm: 'pm_card_mastercard', outcome: 'ok' },
  '4000000000000002': { pm: 'pm_card_chargeDeclined', outcome: 'card_declined' },
  '4000000000009995': {
    pm: 'pm_card_chargeDeclinedInsufficientFunds',
    outcome: 'insufficient_funds',
  },
};
const OUTCOME_BY_PM = new Map(Object.values(TEST_CARDS).map((card) => [card.pm, card.outcome]));

export const DECLINE_MESSAGES: Record<string, string> = {
  card_declined: 'Your card was declined.',
  insufficient_funds: 'Your card has insufficient funds.',
  incorrect_number: 'Your card number is incorrect.',
  wallet_not_approved: 'The wallet payment was not approved.',
  authorization_not_capturable: 'The authorisation can no longer be captured.',
};

export type TestPaymentStatus = 'requires_capture' | 'succeeded' | 'canceled';

export interface TestPayment {
  id: string;
  amountCents: number;
  status: TestPaymentStatus;
  method: string;
  capturedCents: number;
  captureCalls: number;
}

export interface TestWalletOrder {
  id: string;
  amountCents: number;
  status: 'created' | 'approved' | 'cancelled' | 'authorized';
  urls: WalletUrls;
  authorizationId?: string;
}

export interface TestPaymentProvider extends PaymentProvider {
  readonly name: 'test';
  /** Every authorisation made, by id (for assertions). */
  readonly payments: ReadonlyMap<string, TestPayment>;
  readonly walletOrders: ReadonlyMap<string, TestWalletOrder>;
  /** The buyer approved the wallet order on the approval page; returns where to send them. */
  approveWalletOrder(orderId: string): string | undefined;
  /** The buyer cancelled on the approval page; returns where to send them. */
  cancelWalletOrder(orderId: string): string | undefined;
  /** Successful captures so far (a repeated capture of one authorisation counts once). */
  capturedCount(): number;
}

function digitsOnly(value: string): string | undefined {
  const compact = value.replace(/[\s-]/g, '');
  return /^\d{12,19}$/.test(compact) ? compact : undefined;
}

export function createTestPaymentProvider(
  options: { approvalBasePath?: string } = {},
): TestPaymentProvider {
  const approvalBasePath = options.approvalBasePath ?? '/api/payments/test-wallet';
  const payments = new Map<string, TestPayment>();
  const byKey = new Map<string, TestPayment>();
  const walletOrders = new Map<string, TestWalletOrder>();
  const walletByKey = new Map<string, TestWalletOrder>();
  const newId = (prefix: string) => `${prefix}_test_${randomBytes(10).toString('hex')}`;

  function normalizeCardMethod(id: string): string {
    const number = digitsOnly(id);
    if (number === undefined) return id.trim();
    // Security: a card number is never kept; an unknown one becomes a marker that is declined.
    return TEST_CARDS[number]?.pm ?? 'pm_card_unknown_number';
  }

  function authorizeCard(amountCents: number, key: string, pm: string): Authorization {
    const outcome = OUTCOME_BY_PM.get(pm) ?? 'incorrect_number';
    if (outcome !== 'ok')
      throw new PaymentDeclinedError(outcome, DECLINE_MESSAGES[outcome] ?? outcome);
    const payment: TestPayment = {
      id: newId('pi'),
      amountCents,
      status: 'requires_capture',
      method: pm,
      capturedCents: 0,
      captureCalls: 0,
    };
    payments.set(payment.id, payment);
    byKey.set(key, payment);
    return { id: payment.id, amountCents };
  }

  function authorizeWallet(amountCents: number, key: string, orderId: string): Authorization {
    const order = walletOrders.get(orderId);
    if (!order || order.status !== 'approved' || order.amountCents !== amountCents) {
      throw new PaymentDeclinedError('wallet_not_approved', DECLINE_MESSAGES.wallet_not_approved!);
    }
    const payment: TestPayment = {
      id: newId('wa'),
      amountCents,
      status: 'requires_capture',
      method: `wallet:${orderId}`,
      capturedCents: 0,
      captureCalls: 0,
    };
    payments.set(payment.id, payment);
    byKey.set(key, payment);
    order.status = 'authorized';
    order.authorizationId = payment.id;
    return { id: payment.id, amountCents };
  }

  return {
    name: 'test',
    methods: ['card', 'wallet'],
    payments,
    walletOrders,
    normalizeCardMethod,

    async authorize(amountCents: number, idempotencyKey: string, method: PaymentMethod) {
      const earlier = byKey.get(idempotencyKey);
      if (earlier) return { id: earlier.id, amountCents: earlier.amountCents };
      if (method.type === 'card') {
        return authorizeCard(amountCents, idempotencyKey, normalizeCardMethod(method.id));
      }
      return authorizeWallet(amountCents, idempotencyKey, method.orderId);
    },

    async createWalletOrder(
      amountCents: number,
      idempotencyKey: string,
      urls: WalletUrls,
    ): Promise<WalletOrder> {
      let order = walletByKey.get(idempotencyKey);
      if (!order) {
        order = { id: newId('wo'), amountCents, status: 'created', urls };
        walletOrders.set(order.id, order);
        walletByKey.set(idempotencyKey, order);
      }
      return { orderId: order.id, approvalUrl: `${approvalBasePath}/${order.id}` };
    },

    async capture(authorizationId: string, amountCents: number) {
      const payment = payments.get(authorizationId);
      if (!payment || payment.status === 'canceled') {
        throw new PaymentDeclinedError(
          'authorization_not_capturable',
          DECLINE_MESSAGES.authorization_not_capturable!,
        );
      }
      payment.captureCalls += 1;
      if (payment.status === 'succeeded') return;
      if (amountCents !== payment.amountCents) {
        throw new PaymentDeclinedError(
          'amount_mismatch',
          'The capture amount differs from the authorisation.',
        );
      }
      payment.status = 'succeeded';
      payment.capturedCents = amountCents;
    },

    async release(authorizationId: string) {
      const payment = payments.get(authorizationId);
      if (!payment) return;
      if (payment.status === 'succeeded') {
        throw new PaymentDeclinedError(
          'already_captured',
          'A captured payment cannot be released.',
        );
      }
      payment.status = 'canceled';
    },

    approveWalletOrder(orderId: string) {
      const order = walletOrders.get(orderId);
      if (!order || order.status !== 'created') return undefined;
      order.status = 'approved';
      return order.urls.returnUrl;
    },

    cancelWalletOrder(orderId: string) {
      const order = walletOrders.get(orderId);
      if (!order || order.status !== 'created') return undefined;
      order.status = 'cancelled';
      return order.urls.cancelUrl;
    },

    capturedCount() {
      let count = 0;
      for (const payment of payments.values()) if (payment.status === 'succeeded') count += 1;
      return count;
    },
  };
}
