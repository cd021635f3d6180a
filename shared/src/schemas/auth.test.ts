import { describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { messages } from '../messages.ts';
import {
  ChangePasswordFormSchema,
  ChangePasswordInputSchema,
  FirebaseSignInInputSchema,
  LoginInputSchema,
  PasswordResetFormSchema,
  PasswordResetInputSchema,
  PasswordResetRequestInputSchema,
  RegisterAirlineInputSchema,
  RegisterCustomerInputSchema,
  VerifyEmailInputSchema,
} from './auth.ts';

const customer = {
  name: 'José María',
  lastName: 'Núñez',
  image: 'https://example.com/me',
  email: 'Jose@Example.com',
  phone: '+123 456 7890',
  password: 'Secret1!',
  confirmPassword: 'Secret1!',
};
const airline = {
  ...customer,
  name: 'Aerolíneas del Sur',
  image: 'https://example.com/logo.png',
  terms: true,
};

/** The messages of a failed parse, in order. */
function messagesOf(result: { success: boolean; error?: { issues: { message: string }[] } }) {
  return result.success ? [] : (result.error?.issues.map((issue) => issue.message) ?? []);
}

/** Values a field accepts, values it refuses, and the message a refused one shows. */
interface FieldRule {
  accepted?: unknown[];
  refused: unknown[];
  message: string;
}

/**
 * Checks one §5 field rule of a form: `form` with `fields` set to each accepted value parses, and
 * with each refused value shows `message` (the failing value names the case).
 */
function expectFieldRule(
  schema: z.ZodType,
  form: object,
  fields: string | string[],
  rule: FieldRule,
) {
  const withValue = (value: unknown) => ({
    ...form,
    ...Object.fromEntries([fields].flat().map((field) => [field, value])),
  });
  for (const value of rule.accepted ?? []) {
    expect(messagesOf(schema.safeParse(withValue(value))), String(value)).toEqual([]);
  }
  for (const value of rule.refused) {
    expect(messagesOf(schema.safeParse(withValue(value))), String(value)).toContain(rule.message);
  }
}

describe('customer registration', () => {
  const rule = (fields: string | string[], values: FieldRule) =>
    expectFieldRule(RegisterCustomerInputSchema, customer, fields, values);

  test('accepts a valid form and lowercases the email', () => {
    const parsed = RegisterCustomerInputSchema.parse(customer);
    expect(parsed.email).toBe('jose@example.com');
  });

  test('names take letters, accents and spaces, 1 to 40 characters', () => {
    rule('name', {
      accepted: ['Ana', 'Ñandú', 'Zoë Ó Briain', 'a'.repeat(40), 'Łukasz'],
      refused: ['', 'R2D2', 'Ana!', 'a'.repeat(41), '   ', 'Ana\nBob'],
      message: messages.firstNameInvalid,
    });
    rule('lastName', { refused: ['Smith3'], message: messages.lastNameInvalid });
  });

  test('image must be an http, https or ftp URL', () => {
    rule('image', {
      accepted: ['http://a.io/x', 'https://a.io/x.jpg', 'ftp://files.a.io/me'],
      refused: [
        '',
        'javascript:alert(1)',
        'data:image/png;base64,xx',
        'https://a b.io',
        'a.io/x.png',
      ],
      message: messages.provideImage,
    });
  });

  test('email must be an address', () => {
    const refused = ['', 'no-at.example.com', 'a@', 'a@b', `${'a'.repeat(250)}@b.io`];
    rule('email', { refused, message: messages.enterEmailValid });
  });

  test('phone: optional plus, 3 + 3 + 4..6 digits, optional separators', () => {
    rule('phone', {
      accepted: ['1234567890', '+123-456-7890', '123.456.789012', '123 456 78901'],
      refused: ['', '12345', '123-456-789', '123-456-7890123', 'abc-def-ghij', '++1234567890'],
      message: messages.enterPhoneValid,
    });
  });

  test('password needs 8+ characters with lower, upper, digit and one of @$!%*?&', () => {
    rule(['password', 'confirmPassword'], {
      accepted: ['Abcdef1!', 'Longer-Passw0rd$with-anything', 'aB3&aB3&aB3&aB3&'],
      refused: ['Abcde1!', 'abcdef1!', 'ABCDEF1!', 'Abcdefg!', 'Abcdefg1', 'A1!a'.repeat(40)],
      message: messages.passwordRule,
    });
  });

  test('confirmation must match: "Password does not match"', () => {
    const result = RegisterCustomerInputSchema.safeParse({
      ...customer,
      confirmPassword: 'Secret2!',
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(messages.passwordMismatch);
    expect(result.error?.issues[0]?.path).toEqual(['confirmPassword']);
  });

  test('unknown fields and wrong types are refused', () => {
    expect(
      RegisterCustomerInputSchema.safeParse({ ...customer, role: 'super_admin' }).success,
    ).toBe(false);
    expect(RegisterCustomerInputSchema.safeParse({ ...customer, phone: 1234567890 }).success).toBe(
      false,
    );
  });
});

describe('airline registration', () => {
  const rule = (field: string, values: FieldRule) =>
    expectFieldRule(RegisterAirlineInputSchema, airline, field, values);

  test('accepts a valid form', () => {
    expect(RegisterAirlineInputSchema.parse(airline).name).toBe('Aerolíneas del Sur');
  });

  test('logo must end in jpg, png, gif or bmp', () => {
    rule('image', {
      accepted: [
        'https://a.io/l.jpg',
        'http://a.io/l.PNG',
        'ftp://a.io/l.gif',
        'https://a.io/l.bmp',
      ],
      refused: ['https://a.io/l.jpeg', 'https://a.io/l.svg', 'https://a.io/png', 'l.png'],
      message: messages.provideImage,
    });
  });

  test('terms checkbox is required: "Agree to terms and conditions to sent form"', () => {
    rule('terms', { refused: [false, undefined, 'true'], message: messages.agreeToTerms });
  });
});

describe('login', () => {
  test('accepts an email and any password, lowercasing the email', () => {
    expect(LoginInputSchema.parse({ email: ' A@B.io ', password: 'x' })).toEqual({
      email: 'a@b.io',
      password: 'x',
    });
  });

  test('empty email: "Enter valid email"; malformed: "This email is not valid"', () => {
    expect(messagesOf(LoginInputSchema.safeParse({ email: '', password: 'x' }))).toEqual([
      messages.enterValidEmail,
    ]);
    expect(messagesOf(LoginInputSchema.safeParse({ email: 'nope', password: 'x' }))).toEqual([
      messages.emailNotValid,
    ]);
  });

  test('password must be present and bounded', () => {
    expect(LoginInputSchema.safeParse({ email: 'a@b.io', password: '' }).success).toBe(false);
    expect(LoginInputSchema.safeParse({ email: 'a@b.io', password: 'x'.repeat(129) }).success).toBe(
      false,
    );
  });
});

describe('password reset and change', () => {
  test('reset request needs an email: "Please enter an email"', () => {
    expect(messagesOf(PasswordResetRequestInputSchema.safeParse({ email: '' }))).toEqual([
      messages.enterAnEmail,
    ]);
    expect(messagesOf(PasswordResetRequestInputSchema.safeParse({}))).toEqual([
      messages.enterAnEmail,
    ]);
    expect(PasswordResetRequestInputSchema.parse({ email: 'A@b.io' })).toEqual({ email: 'a@b.io' });
  });

  test('reset confirm takes a token and a strong password', () => {
    const token = 'a'.repeat(43);
    expect(PasswordResetInputSchema.safeParse({ token, password: 'Secret1!' }).success).toBe(true);
    expect(messagesOf(PasswordResetInputSchema.safeParse({ token, password: 'weak' }))).toContain(
      messages.passwordRule,
    );
    expect(
      messagesOf(PasswordResetInputSchema.safeParse({ token: 'short', password: 'Secret1!' })),
    ).toContain(messages.linkInvalid);
    expect(
      messagesOf(VerifyEmailInputSchema.safeParse({ token: 'bad token with spaces!!' })),
    ).toContain(messages.linkInvalid);
    expect(
      messagesOf(
        PasswordResetFormSchema.safeParse({
          token,
          password: 'Secret1!',
          confirmPassword: 'Secret2!',
        }),
      ),
    ).toEqual([messages.passwordMismatch]);
  });

  test('change password needs the old one and a strong new one', () => {
    expect(
      ChangePasswordInputSchema.safeParse({ oldPassword: 'x', newPassword: 'Secret1!' }).success,
    ).toBe(true);
    expect(
      ChangePasswordInputSchema.safeParse({ oldPassword: '', newPassword: 'Secret1!' }).success,
    ).toBe(false);
    expect(
      messagesOf(ChangePasswordInputSchema.safeParse({ oldPassword: 'x', newPassword: 'secret' })),
    ).toContain(messages.passwordRule);
    expect(
      messagesOf(
        ChangePasswordFormSchema.safeParse({
          oldPassword: 'x',
          newPassword: 'Secret1!',
          confirmPassword: 'nope',
        }),
      ),
    ).toEqual([messages.passwordMismatch]);
  });

  test('a Firebase ID token looks like a JWT', () => {
    expect(FirebaseSignInInputSchema.safeParse({ idToken: 'aaa.bbb.ccc' }).success).toBe(true);
    expect(FirebaseSignInInputSchema.safeParse({ idToken: 'not a jwt' }).success).toBe(false);
  });
});
