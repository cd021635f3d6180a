import { useMemo } from 'react';
import { loadStripe } from '@stripe/stripe-js';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { messages } from '@skyport/shared';
import { uiLabels } from '../../../ui/labels.ts';
import type { CardFieldState } from './test-card-field.tsx';

/**
 * Stripe's card element, used instead of the test form when the server runs Stripe cards (its
 * publishable key comes from `GET /api/checkout/config`). This module (and Stripe.js) loads only
 * on /payment (React.lazy). A card that needs 3-D Secure is authenticated after the checkout asks
 * for it (../stripe/card-authentication.ts).
 */
export default function StripeCardField({
  publishableKey,
  onChange,
  disabled,
}: {
  publishableKey: string;
  onChange: (state: CardFieldState) => void;
  disabled: boolean;
}) {
  const stripePromise = useMemo(() => loadStripe(publishableKey), [publishableKey]);
  return (
    <Elements stripe={stripePromise}>
      <CardInput onChange={onChange} disabled={disabled} />
    </Elements>
  );
}

function CardInput({
  onChange,
  disabled,
}: {
  onChange: (state: CardFieldState) => void;
  disabled: boolean;
}) {
  const stripe = useStripe();
  const elements = useElements();
  return (
    <fieldset className="fieldset rounded-box border border-base-300 p-3" disabled={disabled}>
      <legend className="fieldset-legend">{uiLabels.card}</legend>
      <div className="input w-full items-center">
        <CardElement
          className="w-full"
          options={{ disabled, hidePostalCode: true }}
          onChange={(event) =>
            onChange({
              complete: event.complete,
              error: event.error?.message ?? null,
              createPaymentMethod: async (email) => {
                const card = elements?.getElement(CardElement);
                if (!stripe || !card) throw new Error(messages.formNotCompleted);
                const result = await stripe.createPaymentMethod({
                  type: 'card',
                  card,
                  billing_details: { email },
                });
                if (result.error)
                  throw new Error(result.error.message ?? messages.formNotCompleted);
                return result.paymentMethod.id;
              },
            })
          }
        />
      </div>
    </fieldset>
  );
}
