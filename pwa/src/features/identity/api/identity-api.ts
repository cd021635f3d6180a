import { z } from 'zod';
import {
  MessageResponseSchema,
  UserSchema,
  type ChangePasswordInput,
  type FirebaseSignInInput,
  type LoginInput,
  type PasswordResetInput,
  type PasswordResetRequestInput,
  type RegisterCustomerInput,
  type User,
} from '@skyport/shared';
import { apiRequest } from '../../../api/api-client.ts';
import { deferredLogout } from '../logout/app-deferred-logout.ts';

/** Online-only identity calls (`/api/auth/*`); the session cookie is HttpOnly and set by the server. */

const UserAnswerSchema = z.union([
  z.object({ user: UserSchema }).transform((body) => body.user),
  UserSchema,
]);
const OptionalMessageSchema = z
  .union([MessageResponseSchema, z.object({}).passthrough()])
  .optional();

/**
 * Signs in. The server ends the session the request's cookie still names (rotation), so a logout
 * made offline and not yet sent is settled by it: `deferredLogout.signIn` drops that flag on
 * success and keeps it from ending the new session.
 */
export function logIn(input: LoginInput): Promise<User> {
  return deferredLogout.signIn(() =>
    apiRequest('/auth/login', { method: 'POST', body: input, schema: UserAnswerSchema }),
  );
}

/** Exchanges a Firebase ID token (Google sign-in) for our own session, as login does for a password. */
export function signInWithFirebase(idToken: string): Promise<User> {
  return deferredLogout.signIn(() =>
    apiRequest('/auth/firebase', {
      method: 'POST',
      body: { idToken } satisfies FirebaseSignInInput,
      schema: UserAnswerSchema,
    }),
  );
}

export function logOut(): Promise<void> {
  return apiRequest('/auth/logout', { method: 'POST', body: {} });
}

/**
 * A call whose answer may carry a text for the user (`{ message }`, e.g. the reset and change
 * password confirmations); resolves to that text, if any.
 */
async function postForMessage(path: string, body: unknown): Promise<string | undefined> {
  const answer = await apiRequest(path, { method: 'POST', body, schema: OptionalMessageSchema });
  return answer && 'message' in answer ? String(answer.message) : undefined;
}

export function register(input: RegisterCustomerInput): Promise<string | undefined> {
  return postForMessage('/auth/register', input);
}

export function requestPasswordReset(
  input: PasswordResetRequestInput,
): Promise<string | undefined> {
  return postForMessage('/auth/password/forgot', input);
}

export function resetPassword(input: PasswordResetInput): Promise<string | undefined> {
  return postForMessage('/auth/password/reset', input);
}

export function changePassword(input: ChangePasswordInput): Promise<string | undefined> {
  return postForMessage('/auth/password/change', input);
}

export function verifyEmail(token: string): Promise<string | undefined> {
  return postForMessage('/auth/verify-email', { token });
}

export function resendVerification(): Promise<string | undefined> {
  return postForMessage('/auth/verify-email/resend', {});
}
