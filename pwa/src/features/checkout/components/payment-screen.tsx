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
  /** The card field: the test provider's form, or Stripe's card element when configured. */
  renderCardField: (onChange: (state: CardFieldState) => void, disabled: boolean) => ReactNode;
  /** The wallet button: the test wallet, or PayPal when configured. */
  walletButton: ReactNode;
  /** Pays; resolves to an error text to show under the form, or null on success. */
  onPay: (input: {
    email: string;
    createPaymentMethod: (email: string) => Promise<string>;
  }) => Promise<string | null>;
  testMode: boolean;
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
}: PaymentScreenProps) {
  const [card, setCard] = useState<CardFieldState>({
    complete: false,
    error: null,
    createPaymentMethod: null,
  });
  const [processing, setProcessing] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (processing) return;
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
    setProcessing(true);
    try {
      setFormError(
        await onPay({ email: parsed.data.email, createPaymentMethod: card.createPaymentMethod }),
      );
    } finally {
      setProcessing(false);
    }
  };

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
              disabled={processing}
            />
          </div>
          {renderCardField(setCard, processing)}
          {card.error ? (
            <p className="text-sm text-error" role="alert" data-testid="card-error">
              {card.error}
            </p>
          ) : null}
          {formError ? (
            <p className="alert alert-error" role="alert" data-testid="payment-error">
              {formError}
            </p>
          ) : null}
          <button
            type="submit"
            className="btn btn-primary btn-lg"
            disabled={processing}
            data-testid="pay"
          >
            {processing ? <span className="loading loading-spinner" aria-hidden="true" /> : null}
            {processing ? uiLabels.processing : uiLabels.pay(formatPrice(totals.totalCents))}
          </button>
          <div className="divider my-0">{uiLabels.or}</div>
          {walletButton}
        </form>
      </section>
      <OrderSummary totals={totals} />
    </div>
  );
}
