import type { Attempt } from './attempt-machine.ts';
import type { NewAttempt } from './checkout-driver.ts';

/** A card payment of 300.30 for a cart of two tickets, as the payment page starts one. */
export function newCardAttempt(key = 'key-00000001'): NewAttempt {
  return {
    key,
    cart: 'f1x2|30030',
    amountCents: 30_030,
    method: 'card',
    paymentMethodId: 'pm_card_visa',
    receiptEmail: 'ana@example.test',
  };
}

/** That attempt as the state machine holds it before its first request. */
export const cardAttempt: Attempt = { ...newCardAttempt(), paymentId: null, step: 'start' };
