import { z } from 'zod';
import { text } from './text.ts';
import { NAME_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../constants.ts';
import { messages } from '../messages.ts';

/**
 * Spec §5 rules for the account forms, with their exact messages. The PWA forms and the server
 * validators use these same schemas.
 */

/** Longest password accepted: argon2 work stays bounded, and OWASP asks for at least 64. */
export const PASSWORD_MAX_LENGTH = 128;
/** Longest email address (RFC 5321 path limit). */
export const EMAIL_MAX_LENGTH = 254;
/** Longest image URL accepted. */
export const IMAGE_URL_MAX_LENGTH = 2048;
/** Longest single-use token accepted (ours are 43 base64url characters). */
export const TOKEN_MAX_LENGTH = 128;

/** Letters (accented and other scripts included) and spaces, at least one letter. */
const NAME_PATTERN = /^(?=.*\p{L})[\p{L}\p{M} ]+$/u;
/** An http, https or ftp URL without spaces. */
const IMAGE_URL_PATTERN = /^(?:https?|ftp):\/\/[^\s/$.?#][^\s]*$/i;
/** An airline logo: the same URL, ending in a jpg, png, gif or bmp file name. */
const AIRLINE_IMAGE_EXTENSION = /\.(?:jpg|png|gif|bmp)$/i;
/** Optional plus, three digits, three digits, then 4 to 6 digits, with optional separators. */
const PHONE_PATTERN = /^\+?\d{3}[-. ]?\d{3}[-. ]?\d{4,6}$/;
/** A lowercase letter, an uppercase letter, a digit and one of @$!%*?&. */
const PASSWORD_CLASSES = [/[a-z]/, /[A-Z]/, /\d/, /[@$!%*?&]/] as const;

function nameSchema(message: string) {
  return text({ error: message })
    .min(1, message)
    .max(NAME_MAX_LENGTH, message)
    .regex(NAME_PATTERN, message);
}

/** First name of a customer, or the airline's name on the airline form (§5). */
export const FirstNameSchema = nameSchema(messages.firstNameInvalid);
export const LastNameSchema = nameSchema(messages.lastNameInvalid);

/** A profile image: http, https or ftp URL (§5 "Please provide an image"). */
export const ImageUrlSchema = text({ error: messages.provideImage })
  .max(IMAGE_URL_MAX_LENGTH, messages.provideImage)
  .regex(IMAGE_URL_PATTERN, messages.provideImage);

/** An airline's logo: an image URL ending in jpg, png, gif or bmp (§5). */
export const AirlineImageUrlSchema = ImageUrlSchema.regex(
  AIRLINE_IMAGE_EXTENSION,
  messages.provideImage,
);

/** An email address as the registration form checks it, stored trimmed and lowercased. */
export const EmailSchema = text({ error: messages.enterEmailValid })
  .trim()
  .max(EMAIL_MAX_LENGTH, messages.enterEmailValid)
  .pipe(z.email(messages.enterEmailValid))
  .transform((email) => email.toLowerCase());

export const PhoneSchema = text({ error: messages.enterPhoneValid })
  .trim()
  .regex(PHONE_PATTERN, messages.enterPhoneValid);

/**
 * A new password: at least 8 characters with a lowercase letter, an uppercase letter, a digit and
 * one of @$!%*?& (§5; the message says "8-12" but only the minimum is enforced).
 */
export const NewPasswordSchema = text({ error: messages.passwordRule })
  .min(PASSWORD_MIN_LENGTH, messages.passwordRule)
  .max(PASSWORD_MAX_LENGTH, messages.passwordRule)
  .refine(
    (password) => PASSWORD_CLASSES.every((pattern) => pattern.test(password)),
    messages.passwordRule,
  );

/** A password typed to prove who one is (login, change password): any non-empty string. */
export const CurrentPasswordSchema = text({ error: messages.completeAllFields })
  .min(1, messages.completeAllFields)
  .max(PASSWORD_MAX_LENGTH, messages.invalidCredentials);

const customerFields = {
  name: FirstNameSchema,
  lastName: LastNameSchema,
  image: ImageUrlSchema,
  email: EmailSchema,
  phone: PhoneSchema,
  password: NewPasswordSchema,
  confirmPassword: text({ error: messages.passwordMismatch }).max(
    PASSWORD_MAX_LENGTH,
    messages.passwordMismatch,
  ),
};

function passwordsMatch(input: { password: string; confirmPassword: string }) {
  return input.password === input.confirmPassword;
}
const mismatch = { message: messages.passwordMismatch, path: ['confirmPassword'] };

/**
 * A PWA form that sends `payload` to the API and asks for the new password twice: the payload's
 * fields plus `confirmPassword`, which must equal `newPasswordField` (§5 "Password does not
 * match", shown on the confirmation field).
 */
function withConfirmation<Shape extends z.ZodRawShape>(
  payload: z.ZodObject<Shape>,
  newPasswordField: keyof Shape & string,
) {
  return z
    .strictObject({ ...payload.shape, confirmPassword: text().max(PASSWORD_MAX_LENGTH) })
    .refine(
      (input: Record<string, unknown>) => input[newPasswordField] === input.confirmPassword,
      mismatch,
    );
}

/** "Create your account" (/register). */
export const RegisterCustomerInputSchema = z
  .strictObject(customerFields)
  .refine(passwordsMatch, mismatch);
export type RegisterCustomerInput = z.infer<typeof RegisterCustomerInputSchema>;

/**
 * "Add your Airline" (/register/airline): the customer rules, the name field holding the airline's
 * name, a logo ending in jpg/png/gif/bmp, and the terms checkbox.
 */
export const RegisterAirlineInputSchema = z
  .strictObject({
    ...customerFields,
    image: AirlineImageUrlSchema,
    terms: z.literal(true, { error: messages.agreeToTerms }),
  })
  .refine(passwordsMatch, mismatch);
export type RegisterAirlineInput = z.infer<typeof RegisterAirlineInputSchema>;

/** The login form's email: "Enter valid email" when empty, "This email is not valid" when malformed. */
export const LoginEmailSchema = text({ error: messages.enterValidEmail })
  .trim()
  .min(1, messages.enterValidEmail)
  .max(EMAIL_MAX_LENGTH, messages.emailNotValid)
  .pipe(z.email(messages.emailNotValid))
  .transform((email) => email.toLowerCase());

export const LoginInputSchema = z.strictObject({
  email: LoginEmailSchema,
  password: CurrentPasswordSchema,
});
export type LoginInput = z.infer<typeof LoginInputSchema>;

/** "Forgot your password": the email is required ("Please enter an email"). */
export const PasswordResetRequestInputSchema = z.strictObject({
  email: text({ error: messages.enterAnEmail })
    .trim()
    .min(1, messages.enterAnEmail)
    .max(EMAIL_MAX_LENGTH, messages.enterEmailValid)
    .pipe(z.email(messages.enterEmailValid))
    .transform((email) => email.toLowerCase()),
});
export type PasswordResetRequestInput = z.infer<typeof PasswordResetRequestInputSchema>;

/** A single-use token from a verification or reset link. */
export const OneTimeTokenSchema = text({ error: messages.linkInvalid })
  .min(16, messages.linkInvalid)
  .max(TOKEN_MAX_LENGTH, messages.linkInvalid)
  .regex(/^[A-Za-z0-9_-]+$/, messages.linkInvalid);

/** The reset link's form as the API takes it. */
export const PasswordResetInputSchema = z.strictObject({
  token: OneTimeTokenSchema,
  password: NewPasswordSchema,
});
export type PasswordResetInput = z.infer<typeof PasswordResetInputSchema>;

export const VerifyEmailInputSchema = z.strictObject({ token: OneTimeTokenSchema });

/** Change Password (profile), old password required. */
export const ChangePasswordInputSchema = z.strictObject({
  oldPassword: CurrentPasswordSchema,
  newPassword: NewPasswordSchema,
});
export type ChangePasswordInput = z.infer<typeof ChangePasswordInputSchema>;

/**
 * The PWA's reset form and Change Password modal: their API payload plus the confirmation field,
 * which must match the new password.
 */
export const PasswordResetFormSchema = withConfirmation(PasswordResetInputSchema, 'password');
export const ChangePasswordFormSchema = withConfirmation(ChangePasswordInputSchema, 'newPassword');

/** Sign-in through the optional Firebase adapter: a Firebase ID token (a JWT). */
export const FirebaseSignInInputSchema = z.strictObject({
  idToken: text()
    .min(1)
    .max(8192)
    .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'Not a Firebase ID token'),
});
export type FirebaseSignInInput = z.infer<typeof FirebaseSignInInputSchema>;
