import { useState, type FormEvent, type ReactNode } from 'react';
import { CardFormSchema, messages, type Totals } from '@skyport/shared';
import { formatPrice } from '../../../ui/format.ts';
import { uiLabels } from '../../../ui/labels.ts';
import { OrderSummary } from '../../cart/components/cart-screen.tsx';
import type { CardFieldState } from './test-card-field.tsx';

export interface PaymentScreenProps {
  totals: Totals;
  /** A warning above the form, e.g. that lines of deleted flights are left out of this payment. */
  notice?: string | null;
  defaultEmail: string;
  /**
   * The card field the server runs (the test provider's form, or Stripe's card element); null
   * when the server takes no cards: then there is no card form and no Pay button.
   */
  renderCardField:
    ((onChange: (state: CardFieldState) => void, disabled: boolean) => ReactNode) | null;
  /** The wallet the server runs (the test wallet's button, or PayPal's buttons); null when none. */
  walletButton: ReactNode | null;
  /** Pays by card; resolves to an error text to show under the form, or null. */
  onPay: (input: {
    email: string;
    createPaymentMethod: (email: string) => Promise<string>;
  }) => Promise<string | null>;
  testMode: boolean;
  /**
   * An attempt is under way (sent, being confirmed, or waiting for the buyer's step): no new one
   * may start, so the form is locked. `busy`: a request of it is on its way.
   */
  locked: boolean;
  busy: boolean;
  /** Where the attempt stands (confirming, authenticating, approving), above the form. */
  status: ReactNode | null;
  /** Why the last attempt ended, when the server refused it. */
  error: string | null;
  /** About the payment methods: loading, failed to load, none, or the amount under way. */
  methodsNotice: ReactNode | null;
}

/** /payment: email and card field, pay button (disabled while processing), wallet option. */
export function PaymentScreen({
  totals,
  notice,
  defaultEmail,
  renderCardField,
  walletButton,
  onPay,
  testMode,
  locked,
  busy,
  status,
  error,
  methodsNotice,
}: PaymentScreenProps) {
  const [card, setCard] = useState<CardFieldState>({
    complete: false,
    error: null,
    createPaymentMethod: null,
  });
  // The card is being turned into a payment method and the cart saved (before the attempt).
  const [preparing, setPreparing] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  const processing = preparing || busy;
  const disabled = preparing || locked;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (disabled) return;
    const email = String(new FormData(event.currentTarget).get('email') ?? '');
    const parsed = CardFormSchema.safeParse({
      email,
      cardComplete: card.complete,
      cardError: card.error,
    });
    if (!parsed.success || !card.createPaymentMethod) {
      setFormError(
        parsed.success
          ? messages.formNotCompleted
          : (parsed.error.issues[0]?.message ?? messages.formNotCompleted),
      );
      return;
    }
    setFormError(null);
    setPreparing(true);
    try {
      setFormError(
        await onPay({ email: parsed.data.email, createPaymentMethod: card.createPaymentMethod }),
      );
    } finally {
      setPreparing(false);
    }
  };

  const shownError = formError ?? (locked ? null : error);
  return (
    <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
      <section aria-labelledby="payment-title" className="card card-border bg-base-100 shadow-sm">
        <form className="card-body gap-4" onSubmit={submit} noValidate aria-busy={processing}>
          <h1 id="payment-title" className="card-title text-2xl">
            {uiLabels.payment}
          </h1>
          {notice ? (
            <p className="alert alert-warning text-sm" role="status" data-testid="payment-notice">
              {notice}
            </p>
          ) : null}
          {testMode ? (
            <p className="alert alert-warning text-sm" data-testid="test-mode">
              {uiLabels.testMode}
            </p>
          ) : null}
          {status}
          {methodsNotice}
          {renderCardField ? (
            <>
              <div className="flex flex-col gap-1">
                <label htmlFor="payment-email" className="text-sm font-medium">
                  {uiLabels.email}
                </label>
                <input
                  id="payment-email"
                  name="email"
                  type="email"
                  autoComplete="email"
                  className="input w-full"
                  defaultValue={defaultEmail}
                  disabled={disabled}
                />
              </div>
              {renderCardField(setCard, disabled)}
              {card.error ? (
                <p className="text-sm text-error" role="alert" data-testid="card-error">
                  {card.error}
                </p>
              ) : null}
            </>
          ) : null}
          {shownError ? (
            <p className="alert alert-error" role="alert" data-testid="payment-error">
              {shownError}
            </p>
          ) : null}
          {renderCardField ? (
            <button
              type="submit"
              className="btn btn-primary btn-lg"
              disabled={disabled}
              data-testid="pay"
            >
              {processing ? <span className="loading loading-spinner" aria-hidden="true" /> : null}
              {processing ? uiLabels.processing : uiLabels.pay(formatPrice(totals.totalCents))}
            </button>
          ) : null}
          {renderCardField && walletButton ? (
            <div className="divider my-0">{uiLabels.or}</div>
          ) : null}
          {walletButton}
        </form>
      </section>
      <OrderSummary totals={totals} />
    </div>
  );
}
