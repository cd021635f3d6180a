import { useId, useState } from 'react';
import { uiLabels } from '../../../ui/labels.ts';
import { FormField } from '../../../ui/form-field.tsx';
import { createTestPaymentMethod } from '../api/checkout-api.ts';

/** What a card field reports, like a provider's card element does. */
export interface CardFieldState {
  complete: boolean;
  error: string | null;
  /**
   * Turns the card into the provider's payment method id at pay time, once per attempt: the test
   * provider's token (its `pm_…` twin, from our server), or Stripe's element's `pm_…` id. Rejects
   * with a card error text.
   */
  createPaymentMethod: ((email: string) => Promise<string>) | null;
}

const cardFieldErrors = uiLabels.cardErrors;

function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function formatNumber(raw: string): string {
  return raw
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');
}

function formatExpiry(raw: string): string {
  const digits = raw.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

type CardPart = 'number' | 'expiry' | 'cvc';

/** How each input tidies what is typed: digits only, grouped by four or with the month's slash. */
const TIDY: Record<CardPart, (raw: string) => string> = {
  number: formatNumber,
  expiry: formatExpiry,
  cvc: (raw) => raw.replace(/\D/g, '').slice(0, 4),
};

/** The names browsers' card autofill knows each input by, and an example of what it takes. */
const CARD_INPUTS = {
  number: { name: 'cardnumber', autoComplete: 'cc-number', placeholder: '4242 4242 4242 4242' },
  expiry: { name: 'exp-date', autoComplete: 'cc-exp', placeholder: '12/34' },
  cvc: { name: 'cvc', autoComplete: 'cc-csc', placeholder: '123', maxLength: 4 },
} as const;

/** The card field's verdict on its three inputs (null error while still typing a part). */
export function evaluateCard(
  number: string,
  expiry: string,
  cvc: string,
  now = new Date(),
): CardFieldState {
  const digits = number.replace(/\D/g, '');
  const numberOk = digits.length >= 12 && digits.length <= 19 && luhn(digits);
  const match = /^(\d{2})\/(\d{2})$/.exec(expiry);
  const month = match ? Number(match[1]) : 0;
  const year = match ? 2000 + Number(match[2]) : 0;
  const expiryOk =
    month >= 1 &&
    month <= 12 &&
    (year > now.getFullYear() || (year === now.getFullYear() && month >= now.getMonth() + 1));
  const cvcOk = /^\d{3,4}$/.test(cvc);
  const error =
    digits.length >= 12 && !numberOk
      ? cardFieldErrors.number
      : expiry.length === 5 && !expiryOk
        ? cardFieldErrors.expiry
        : null;
  return {
    complete: numberOk && expiryOk && cvcOk,
    error,
    createPaymentMethod: numberOk ? () => createTestPaymentMethod(digits) : null,
  };
}

/**
 * The built-in test provider's card form: number, expiry and CVC, reporting completeness and
 * errors the way a provider's card element does. Like Stripe's element it keeps its own state:
 * the payment form judges what it reports (and shows its error, `card-error`). Numbers never leave
 * for anywhere but our server in test mode, which answers with a token; the attempt keeps (and
 * retries with) the token only.
 */
export function TestCardField({
  onChange,
  disabled,
}: {
  onChange: (state: CardFieldState) => void;
  disabled?: boolean;
}) {
  const [card, setCard] = useState<Record<CardPart, string>>({ number: '', expiry: '', cvc: '' });
  const id = useId();
  const update = (part: CardPart, raw: string) => {
    const next = { ...card, [part]: TIDY[part](raw) };
    setCard(next);
    onChange(evaluateCard(next.number, next.expiry, next.cvc));
  };
  const input = (part: CardPart, label: string) => (
    <FormField
      label={label}
      id={`${id}-${part}`}
      className="font-mono"
      inputMode="numeric"
      {...CARD_INPUTS[part]}
      value={card[part]}
      onChange={(event) => update(part, event.target.value)}
    />
  );
  return (
    <fieldset
      className="fieldset rounded-box border border-base-300 p-3"
      disabled={disabled}
      data-testid="card-field"
    >
      <legend className="fieldset-legend">{uiLabels.card}</legend>
      {input('number', uiLabels.cardNumber)}
      <div className="grid grid-cols-2 gap-3">
        {input('expiry', uiLabels.cardExpiry)}
        {input('cvc', uiLabels.cardCvc)}
      </div>
    </fieldset>
  );
}
