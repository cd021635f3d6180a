import { useState, type FormEvent, type ReactNode } from 'react';
import { CardFormSchema, messages, type CardForm, type Totals } from '@skyport/shared';
import { formatPrice } from '../../../ui/format.ts';
import { uiLabels } from '../../../ui/labels.ts';
import { FormField } from '../../../ui/form-field.tsx';
import { OrderSummary } from '../../../ui/order-summary.tsx';
import { useSchemaForm } from '../../../ui/use-schema-form.ts';
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
  /** The seat hold's countdown, its expiry and a re-quote (HoldPanel), above the form. */
  holdPanel?: ReactNode;
  /**
   * Whether Pay may start an attempt: the seats are held, the hold has not run out, and any new
   * price was confirmed. The form stays editable meanwhile.
   */
  canPay?: boolean;
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
  holdPanel = null,
  canPay = true,
}: PaymentScreenProps) {
  const [card, setCard] = useState<CardFieldState>({
    complete: false,
    error: null,
    createPaymentMethod: null,
  });
  // The card's state is judged with the email: the schema says "Form not completed" for an
  // incomplete card or one with an error.
  const form = useSchemaForm<
    { email: string; cardComplete: boolean; cardError: string | null },
    CardForm
  >(CardFormSchema, {
    defaultValues: { email: defaultEmail, cardComplete: false, cardError: null },
  });
  const { errors, isSubmitted } = form.formState;
  const onCardChange = (state: CardFieldState) => {
    setCard(state);
    form.setValue('cardComplete', state.complete);
    form.setValue('cardError', state.error);
    if (isSubmitted) void form.trigger('cardComplete');
  };
  // The card is being turned into a payment method and the cart saved (before the attempt).
  const preparing = form.busy;
  const processing = preparing || busy;
  const disabled = preparing || locked;

  const pay = form.submit(async ({ email }) => {
    if (!card.createPaymentMethod) return messages.formNotCompleted;
    return onPay({ email, createPaymentMethod: card.createPaymentMethod });
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    if (disabled || !canPay) {
      event.preventDefault();
      return;
    }
    void pay(event);
  };

  // One message at a time: the email's, else the card's (as the schema judges them in turn).
  const formError = errors.email?.message ?? errors.cardComplete?.message ?? form.serverError;
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
          {holdPanel}
          {methodsNotice}
          {renderCardField ? (
            <>
              <FormField
                label={uiLabels.email}
                id="payment-email"
                type="email"
                autoComplete="email"
                disabled={disabled}
                {...form.register('email')}
              />
              {renderCardField(onCardChange, disabled)}
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
              disabled={disabled || !canPay}
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
