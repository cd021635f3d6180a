import { expect, test } from 'vitest';
import { CardFormSchema, StripeChargeBodySchema } from './payment.ts';

test('a card charge body carries the payment method, the amount in cents and the receipt email', () => {
  const body = { id: 'pm_card_visa', amount: 40_038, receipt_email: 'ana@example.com' };
  expect(StripeChargeBodySchema.parse(body)).toEqual(body);
});

test('a card charge amount is a whole number of cents from 1', () => {
  const base = { id: 'pm_1', receipt_email: 'ana@example.com' };
  expect(StripeChargeBodySchema.safeParse({ ...base, amount: 400.38 }).success).toBe(false);
  expect(StripeChargeBodySchema.safeParse({ ...base, amount: 0 }).success).toBe(false);
  expect(StripeChargeBodySchema.safeParse({ ...base, amount: -5 }).success).toBe(false);
  expect(StripeChargeBodySchema.safeParse({ ...base, amount: 1 }).success).toBe(true);
});

test('a card charge needs a payment method id and a valid receipt email', () => {
  expect(
    StripeChargeBodySchema.safeParse({ id: '', amount: 100, receipt_email: 'ana@example.com' })
      .success,
  ).toBe(false);
  expect(
    StripeChargeBodySchema.safeParse({ id: 'pm_1', amount: 100, receipt_email: 'ana' }).success,
  ).toBe(false);
});

function firstMessage(input: unknown): string | undefined {
  const result = CardFormSchema.safeParse(input);
  return result.success ? undefined : result.error.issues[0]?.message;
}

test('a complete card form with an email passes', () => {
  expect(CardFormSchema.parse({ email: ' ana@example.com ', cardComplete: true })).toEqual({
    email: 'ana@example.com',
    cardComplete: true,
    cardError: null,
  });
});

test('a blank email says "Form not completed"', () => {
  expect(firstMessage({ email: '', cardComplete: true })).toBe('Form not completed');
  expect(firstMessage({ email: '  ', cardComplete: true })).toBe('Form not completed');
  expect(firstMessage({ cardComplete: true })).toBe('Form not completed');
});

test('an incomplete card says "Form not completed"', () => {
  expect(firstMessage({ email: 'ana@example.com', cardComplete: false })).toBe(
    'Form not completed',
  );
});

test('a card with an error says "Form not completed"', () => {
  expect(
    firstMessage({
      email: 'ana@example.com',
      cardComplete: true,
      cardError: 'Your card number is incomplete.',
    }),
  ).toBe('Form not completed');
});

test('a blank card error counts as no error', () => {
  expect(
    CardFormSchema.safeParse({ email: 'ana@example.com', cardComplete: true, cardError: '' })
      .success,
  ).toBe(true);
});

test('a malformed email asks for a valid email', () => {
  expect(firstMessage({ email: 'ana@', cardComplete: true })).toBe('Please enter a valid email');
});
