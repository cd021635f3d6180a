import { z } from 'zod';
import { text } from './text.ts';
import { messages } from '../messages.ts';
import {
  AirlineImageUrlSchema,
  EmailSchema,
  FirstNameSchema,
  ImageUrlSchema,
  PhoneSchema,
} from './auth.ts';
import { IdSchema } from './common.ts';

export const RoleSchema = z.enum(['customer', 'airline', 'super_admin']);
export type Role = z.infer<typeof RoleSchema>;

/** Only airline accounts have a status: pending until an administrator approves them. */
export const AirlineStatusSchema = z.enum(['pending', 'approved']);
export type AirlineStatus = z.infer<typeof AirlineStatusSchema>;

/** An identity-provider uid: Firebase's (28 characters) or our own (a UUID). */
export const UidSchema = text()
  .trim()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_-]+$/, 'Not a valid uid');

/**
 * The spec's role flags (§3 User), derived from the role and the airline status so that they can
 * never disagree with them: `permissions` and `empresa` true for an approved airline, `empresa`
 * false for a pending one and absent for everybody else, `superAdmin` for the super administrator,
 * `admin` for an approved airline or the super administrator.
 */
export function deriveRoleFlags(role: Role, airlineStatus: AirlineStatus | null) {
  const approvedAirline = role === 'airline' && airlineStatus === 'approved';
  return {
    permissions: approvedAirline,
    superAdmin: role === 'super_admin',
    admin: approvedAirline || role === 'super_admin',
    ...(role === 'airline' ? { empresa: approvedAirline } : {}),
  };
}

/**
 * A user as the API shows it (`/api/auth/me`, the admin lists). Role, airline status and flags are
 * the server's; the PWA only displays them.
 */
export const UserSchema = z.object({
  id: IdSchema,
  email: text(),
  name: text().nullable(),
  lastName: text().nullable(),
  image: text().nullable(),
  phone: text().nullable(),
  uid: text(),
  role: RoleSchema,
  airlineStatus: AirlineStatusSchema.nullable(),
  emailVerified: z.boolean(),
  disabled: z.boolean(),
  /** The airline this user owns (approved airlines only). */
  airlineId: IdSchema.nullable(),
  permissions: z.boolean(),
  superAdmin: z.boolean(),
  admin: z.boolean(),
  empresa: z.boolean().optional(),
  /** Milliseconds since the epoch. */
  createdAt: z.number().int(),
});
export type User = z.infer<typeof UserSchema>;

/** `POST /api/auth/login` and `POST /api/auth/firebase`: the user and, for API clients, the session token. */
export const SessionResponseSchema = z.object({
  user: UserSchema,
  token: text(),
  /** Milliseconds since the epoch. */
  expiresAt: z.number().int(),
});
export type SessionResponse = z.infer<typeof SessionResponseSchema>;

/** An answer that only carries a text to show (registration, reset request, …). */
export const MessageResponseSchema = z.object({ message: text() });

/** An identity account as `GET /api/user/firebase` lists it (super admin only). */
export const IdentityAccountSchema = z.object({
  uid: text(),
  email: text(),
  emailVerified: z.boolean(),
  disabled: z.boolean(),
  role: RoleSchema,
  /** How the account signs in: a built-in password, or only through the identity provider. */
  provider: z.enum(['password', 'firebase']),
  createdAt: z.number().int(),
});
export type IdentityAccount = z.infer<typeof IdentityAccountSchema>;

// §7 administration payloads --------------------------------------------------------------------

/** `PUT /user/update` (approve a pending airline) and `PUT /user/verificateEmail`: `{email}`. */
export const UserEmailPayloadSchema = z.strictObject({ email: EmailSchema });

/**
 * `PUT /user/verificateEmail`: the caller's own email; with the Firebase adapter, a fresh ID token
 * whose `email_verified` claim is the proof.
 */
export const VerificateEmailPayloadSchema = z.strictObject({
  email: EmailSchema,
  idToken: text().min(1).max(8192).optional(),
});

/** `PUT /user/disableUser`: `{uid}`; `disabled: false` enables the account again. */
export const DisableUserPayloadSchema = z.strictObject({
  uid: UidSchema,
  disabled: z.boolean().default(true),
});

/** A display name as an administrator types it: any printable text. */
const DisplayNameSchema = text({ error: messages.completeAllFields })
  .trim()
  .min(1, messages.completeAllFields)
  .max(80, messages.completeAllFields)
  .regex(/^[^\p{Cc}]+$/u, messages.completeAllFields);

/**
 * `POST /user/create`: `{email, name, uid, img, phone}` (sometimes `image`, `emailVerified`), an
 * account without a password: its owner sets one through "Forgot your password".
 */
export const CreateUserPayloadSchema = z.strictObject({
  email: EmailSchema,
  name: DisplayNameSchema,
  uid: UidSchema.optional(),
  img: ImageUrlSchema.optional(),
  image: ImageUrlSchema.optional(),
  phone: PhoneSchema.optional(),
  emailVerified: z.boolean().optional(),
});
export type CreateUserPayload = z.infer<typeof CreateUserPayloadSchema>;

/** `GET /user`: which accounts to list; by default the spec's user management list (customers). */
export const UserListQuerySchema = z.strictObject({
  role: z.enum(['customer', 'airline']).default('customer'),
  airlineStatus: AirlineStatusSchema.optional(),
});
export type UserListQuery = z.infer<typeof UserListQuerySchema>;

/**
 * `POST /airlines`: an airline's name and logo. An approved airline saves its own airline; the super
 * administrator names the owner (an approved airline account) or leaves it without one.
 */
export const SaveAirlinePayloadSchema = z.strictObject({
  name: FirstNameSchema,
  image: AirlineImageUrlSchema,
  userId: IdSchema.optional(),
});
export type SaveAirlinePayload = z.infer<typeof SaveAirlinePayloadSchema>;
