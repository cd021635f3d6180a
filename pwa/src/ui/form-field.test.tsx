import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import type { FieldValues, ResolverOptions } from 'react-hook-form';
import {
  ChangePasswordFormSchema,
  LoginInputSchema,
  RegisterAirlineInputSchema,
  createFlightFormSchema,
  messages,
} from '@skyport/shared';
import { FormField } from './form-field.tsx';
import { schemaResolver } from './use-schema-form.ts';
import {
  EMPTY_FLIGHT_FORM,
  FlightFormModal,
} from '../features/airline/components/flight-form-modal.tsx';
import { airlineLabels } from '../features/airline/labels.ts';

/**
 * The shared field and the shared-schema resolver every form uses: the §5 messages reach
 * react-hook-form's errors unchanged, and a field's error is tied to its control.
 */

const options: ResolverOptions<FieldValues> = {
  fields: {},
  names: [],
  criteriaMode: 'firstError',
  shouldUseNativeValidation: false,
};

async function resolve(
  schema: Parameters<typeof schemaResolver>[0],
  values: FieldValues,
  prepare?: (values: FieldValues) => unknown,
) {
  const result = await schemaResolver(schema, prepare)(values, undefined, options);
  const errors = Object.fromEntries(
    Object.entries(result.errors).map(([field, error]) => [field, error?.message]),
  );
  return { values: result.values, errors };
}

test('the login form: "Enter valid email" when empty, then "This email is not valid"', async () => {
  expect((await resolve(LoginInputSchema, { email: '', password: '' })).errors).toEqual({
    email: messages.enterValidEmail,
    password: messages.completeAllFields,
  });
  expect((await resolve(LoginInputSchema, { email: 'nope', password: 'x' })).errors).toEqual({
    email: messages.emailNotValid,
  });
  const valid = await resolve(LoginInputSchema, { email: ' Ana@Example.com ', password: 'x' });
  expect(valid.errors).toEqual({});
  expect(valid.values).toEqual({ email: 'ana@example.com', password: 'x' });
});

test('the airline form: the terms alone, and a mismatched confirmation, have their messages', async () => {
  const account = {
    name: 'Fjord Air',
    lastName: 'Berg',
    image: 'https://example.com/logo.png',
    email: 'fjord@example.com',
    phone: '+123 456 7890',
    password: 'Secret1!x',
    confirmPassword: 'Secret1!x',
  };
  expect((await resolve(RegisterAirlineInputSchema, { ...account, terms: false })).errors).toEqual({
    terms: messages.agreeToTerms,
  });
  expect(
    (
      await resolve(ChangePasswordFormSchema, {
        oldPassword: 'old',
        newPassword: 'Secret1!x',
        confirmPassword: 'Secret1!y',
      })
    ).errors,
  ).toEqual({ confirmPassword: messages.passwordMismatch });
});

test('the flight form: typed text is prepared (numbers) before the shared rules judge it', async () => {
  const schema = createFlightFormSchema({ today: '2030-06-15' });
  const { errors } = await resolve(schema, { ...EMPTY_FLIGHT_FORM, price: '0' }, (values) => ({
    ...values,
    price: Number(values['price']),
    stock: undefined,
  }));
  expect(errors).toMatchObject({
    origin: messages.completeAllFields,
    durationEstimated: messages.durationRequired,
    price: messages.completeAllFieldsCorrectly,
    stock: messages.completeAllFields,
  });
});

test('a field ties its label, error and hint to its control', () => {
  const html = renderToStaticMarkup(
    <FormField
      label="Email"
      name="email"
      id="f"
      error={{ message: 'Enter valid email' }}
      hint="x"
    />,
  );
  expect(html).toContain('<label for="f"');
  expect(html).toContain('aria-invalid="true"');
  expect(html).toContain('aria-describedby="f-error"');
  expect(html).toContain('<p id="f-error" class="text-sm text-error" data-testid="error-email">');
  expect(html).toContain('Enter valid email');
  // The hint makes way for the error.
  expect(html).not.toContain('f-hint');

  const calm = renderToStaticMarkup(<FormField label="Duration" name="d" id="g" hint="hh:mm" />);
  expect(calm).not.toContain('aria-invalid');
  expect(calm).toContain('aria-describedby="g-hint"');
  expect(calm).not.toContain('data-testid="error-d"');
});

test('another control gets the id and the ARIA attributes; a checkbox sits before its label', () => {
  const html = renderToStaticMarkup(
    <FormField label="Your comment" name="comment" id="c" error="Enter a comment">
      {(aria) => <textarea {...aria} />}
    </FormField>,
  );
  expect(html).toContain('<textarea id="c" aria-invalid="true" aria-describedby="c-error">');
  const checkbox = renderToStaticMarkup(
    <FormField label="I agree" name="terms" id="t" layout="inline" />,
  );
  expect(checkbox).toMatch(/<label for="t"[^>]*><input [^>]*type="checkbox"[^>]*id="t"/);
  expect(checkbox).toContain('<span>I agree</span>');
});

test('the flight form reopened after a server refusal shows its field messages and its reason', () => {
  const html = renderToStaticMarkup(
    <FlightFormModal
      open
      mode="add"
      initial={{ ...EMPTY_FLIGHT_FORM, origin: 'Chile', departureDate: '2030-01-01' }}
      serverError={{
        message: 'Date not allowed',
        fields: { departureDate: messages.dateNotAllowed, flight: 'ignored' },
      }}
      online
      onSubmit={() => undefined}
      onClose={() => undefined}
    />,
  );
  expect(html).toMatch(/data-testid="error-departureDate">Date not allowed</);
  expect(html).toContain(
    `data-testid="flight-form-error">${airlineLabels.serverRefused} Date not allowed<`,
  );
  expect(html).not.toContain('data-testid="error-origin"');
});
