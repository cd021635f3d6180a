import { z } from 'zod';
import { text } from './text.ts';
import { messages } from '../messages.ts';
import { EMAIL_MAX_LENGTH } from './auth.ts';

/**
 * Card payment (spec §5 "Card payment", §7 `POST /stripe`, §9 "Card charge amount: total times
 * 100 (cents)").
 */

/**
 * §7 `POST /stripe` {id, amount, receipt_email}: `id` is the card provider's payment method id,
 * `amount` the order total in integer cents (at least 1), `receipt_email` where the receipt goes.
 * The server compares `amount` with its own total and refuses a difference before charging.
 */
export const StripeChargeBodySchema = z.object({
  id: text().trim().min(1).max(255),
  amount: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
  receipt_email: z.email().max(EMAIL_MAX_LENGTH),
});

/**
 * The checkout card form's state: the email field, whether the provider's card element reports
 * itself complete, and the card element's current error text (null when none).
 * A blank email, an incomplete card or a card with an error → "Form not completed" (spec §5);
 * a filled but malformed email → "Please enter a valid email".
 */
export const CardFormSchema = z
  .object({
    email: text({ error: messages.formNotCompleted })
      .trim()
      .min(1, messages.formNotCompleted)
      .max(EMAIL_MAX_LENGTH, messages.enterEmailValid)
      .pipe(z.email(messages.enterEmailValid)),
    cardComplete: z.boolean({ error: messages.formNotCompleted }),
    cardError: text().nullable().default(null),
  })
  .superRefine((form, ctx) => {
    if (!form.cardComplete || (form.cardError !== null && form.cardError.trim() !== '')) {
      ctx.addIssue({ code: 'custom', path: ['cardComplete'], message: messages.formNotCompleted });
    }
  });
export type CardForm = z.infer<typeof CardFormSchema>;
