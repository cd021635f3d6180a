import { describe, expect, test } from 'vitest';
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

describe('customer registration', () => {
  test('accepts a valid form and lowercases the email', () => {
    const parsed = RegisterCustomerInputSchema.parse(customer);
    expect(parsed.email).toBe('jose@example.com');
  });

  test('names take letters, accents and spaces, 1 to 40 characters', () => {
    for (const name of ['Ana', 'Ñandú', 'Zoë Ó Briain', 'a'.repeat(40), 'Łukasz']) {
      expect(RegisterCustomerInputSchema.safeParse({ ...customer, name }).success).toBe(true);
    }
    for (const name of ['', 'R2D2', 'Ana!', 'a'.repeat(41), '   ', 'Ana\nBob']) {
      expect(messagesOf(RegisterCustomerInputSchema.safeParse({ ...customer, name }))).toContain(
        messages.firstNameInvalid,
      );
    }
    expect(
      messagesOf(RegisterCustomerInputSchema.safeParse({ ...customer, lastName: 'Smith3' })),
    ).toContain(messages.lastNameInvalid);
  });

  test('image must be an http, https or ftp URL', () => {
    for (const image of ['http://a.io/x', 'https://a.io/x.jpg', 'ftp://files.a.io/me']) {
      expect(RegisterCustomerInputSchema.safeParse({ ...customer, image }).success).toBe(true);
    }
    for (const image of [
      '',
      'javascript:alert(1)',
      'data:image/png;base64,xx',
      'https://a b.io',
      'a.io/x.png',
    ]) {
      expect(messagesOf(RegisterCustomerInputSchema.safeParse({ ...customer, image }))).toContain(
        messages.provideImage,
      );
    }
  });

  test('email must be an address', () => {
    for (const email of ['', 'no-at.example.com', 'a@', 'a@b', `${'a'.repeat(250)}@b.io`]) {
      expect(messagesOf(RegisterCustomerInputSchema.safeParse({ ...customer, email }))).toContain(
        messages.enterEmailValid,
      );
    }
  });

  test('phone: optional plus, 3 + 3 + 4..6 digits, optional separators', () => {
    for (const phone of ['1234567890', '+123-456-7890', '123.456.789012', '123 456 78901']) {
      expect(RegisterCustomerInputSchema.safeParse({ ...customer, phone }).success).toBe(true);
    }
    for (const phone of [
      '',
      '12345',
      '123-456-789',
      '123-456-7890123',
      'abc-def-ghij',
      '++1234567890',
    ]) {
      expect(messagesOf(RegisterCustomerInputSchema.safeParse({ ...customer, phone }))).toContain(
        messages.enterPhoneValid,
      );
    }
  });

  test('password needs 8+ characters with lower, upper, digit and one of @$!%*?&', () => {
    for (const password of ['Abcdef1!', 'Longer-Passw0rd$with-anything', 'aB3&aB3&aB3&aB3&']) {
      expect(
        RegisterCustomerInputSchema.safeParse({ ...customer, password, confirmPassword: password })
          .success,
      ).toBe(true);
    }
    for (const password of [
      'Abcde1!',
      'abcdef1!',
      'ABCDEF1!',
      'Abcdefg!',
      'Abcdefg1',
      'A1!a'.repeat(40),
    ]) {
      expect(
        messagesOf(
          RegisterCustomerInputSchema.safeParse({
            ...customer,
            password,
            confirmPassword: password,
          }),
        ),
      ).toContain(messages.passwordRule);
    }
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
  test('accepts a valid form', () => {
    expect(RegisterAirlineInputSchema.parse(airline).name).toBe('Aerolíneas del Sur');
  });

  test('logo must end in jpg, png, gif or bmp', () => {
    for (const image of [
      'https://a.io/l.jpg',
      'http://a.io/l.PNG',
      'ftp://a.io/l.gif',
      'https://a.io/l.bmp',
    ]) {
      expect(RegisterAirlineInputSchema.safeParse({ ...airline, image }).success).toBe(true);
    }
    for (const image of [
      'https://a.io/l.jpeg',
      'https://a.io/l.svg',
      'https://a.io/png',
      'l.png',
    ]) {
      expect(messagesOf(RegisterAirlineInputSchema.safeParse({ ...airline, image }))).toContain(
        messages.provideImage,
      );
    }
  });

  test('terms checkbox is required: "Agree to terms and conditions to sent form"', () => {
    for (const terms of [false, undefined, 'true']) {
      expect(messagesOf(RegisterAirlineInputSchema.safeParse({ ...airline, terms }))).toContain(
        messages.agreeToTerms,
      );
    }
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
