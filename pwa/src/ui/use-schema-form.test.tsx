import { renderToStaticMarkup } from 'react-dom/server';
import { expect, test } from 'vitest';
import { ChangePasswordFormSchema, LoginInputSchema, messages } from '@skyport/shared';
import { FormField, inputKinds } from './form-field.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';
import { useSchemaForm } from './use-schema-form.ts';

/**
 * `field(name)`: a registered input carries its own field's message, tied to it by
 * `aria-describedby` (errors given up front stand for a refused submit).
 */

function LoginFields() {
  const { field } = useSchemaForm<{ email: string; password: string }, unknown>(LoginInputSchema, {
    defaultValues: { email: '', password: '' },
    errors: { password: { type: 'server', message: messages.completeAllFields } },
  });
  return (
    <>
      <FormField label="Email" {...inputKinds.email} {...field('email')} />
      <FormField label="Password" {...inputKinds.currentPassword} {...field('password')} />
    </>
  );
}

test("a field shows its own error and no other field's", () => {
  const html = renderToStaticMarkup(<LoginFields />);
  const [, email, password = ''] = html.split('<label');
  expect(email).toContain('name="email"');
  expect(email).toContain('type="email"');
  expect(email).not.toContain('aria-invalid');
  expect(password).toContain('type="password"');
  expect(password).toContain('autoComplete="current-password"');
  const describedBy = /aria-invalid="true" aria-describedby="([^"]+)"/.exec(password)?.[1];
  expect(describedBy).toBeDefined();
  expect(password).toContain(
    `<p id="${describedBy}" class="text-sm text-error" data-testid="error-password">${messages.completeAllFields}</p>`,
  );
});

function ChangePassword() {
  const { field } = useSchemaForm<
    { oldPassword: string; newPassword: string; confirmPassword: string },
    unknown
  >(ChangePasswordFormSchema, {
    defaultValues: { oldPassword: '', newPassword: '', confirmPassword: '' },
    errors: { confirmPassword: { type: 'validate', message: messages.passwordMismatch } },
  });
  return (
    <NewPasswordFields password={field('newPassword')} confirmation={field('confirmPassword')} />
  );
}

test('the new password fields: both new-password inputs, the mismatch under the confirmation', () => {
  const html = renderToStaticMarkup(<ChangePassword />);
  expect(html.match(/autoComplete="new-password"/gi)).toHaveLength(2);
  const [, password, confirmation] = html.split('<label');
  expect(password).toContain('name="newPassword"');
  expect(password).not.toContain(messages.passwordMismatch);
  expect(confirmation).toContain('name="confirmPassword"');
  expect(confirmation).toContain(messages.passwordMismatch);
});
