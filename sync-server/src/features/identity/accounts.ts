import { randomBytes } from 'node:crypto';
import {
  messages,
  type ChangePasswordInput,
  type LoginInput,
  type PasswordResetInput,
  type RegisterAirlineInput,
  type RegisterCustomerInput,
} from '@skyport/shared';
import type postgres from 'postgres';
import type { Sql } from '../../db/client.ts';
import { lockFlights, lockPartition } from '../../db/locks.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import { accountExistsEmail, passwordResetEmail, verificationEmail } from '../email/templates.ts';
import type { FirebaseIdentity } from './firebase.ts';
import { hashPassword, verifyPassword } from './password.ts';
import {
  admitLoginAttempt,
  enforceRateLimit,
  loginSucceeded,
  refundRateLimit,
  type NewLoginDevice,
} from './rate-limit.ts';
import { createSession, deleteSessionByToken, type NewSession } from './sessions.ts';
import { publicUrl, type IdentityDeps } from './settings.ts';
import { accountKey, generateToken, hashToken, isWellFormedToken } from './tokens.ts';
import {
  findUserByEmail,
  findUserById,
  findUserByUid,
  isUniqueViolation,
  type AuthUser,
} from './users.ts';

type Queryable = Sql | postgres.TransactionSql;
type TokenPurpose = 'verify_email' | 'reset_password';

export interface RequestMeta {
  ip: string;
  userAgent: string | null;
}

// Single-use tokens -----------------------------------------------------------------------------

/** Issues a token for `purpose`, retiring the user's earlier unused ones (one live link at a time). */
async function issueToken(
  sql: Queryable,
  userId: string,
  purpose: TokenPurpose,
  ttlSeconds: number,
): Promise<string> {
  const token = generateToken();
  await sql`UPDATE auth_tokens SET used_at = now() WHERE user_id = ${userId} AND purpose = ${purpose} AND used_at IS NULL`;
  await sql`
    INSERT INTO auth_tokens (user_id, purpose, token_hash, expires_at)
    VALUES (${userId}, ${purpose}, ${hashToken(token)}, now() + make_interval(secs => ${ttlSeconds}))`;
  await sql`DELETE FROM auth_tokens WHERE user_id = ${userId} AND expires_at < now() - interval '7 days'`;
  return token;
}

/** Marks a token used and returns its user, only if it is unused and unexpired (atomic: single use). */
async function consumeToken(
  sql: Queryable,
  token: string,
  purpose: TokenPurpose,
): Promise<string | undefined> {
  if (!isWellFormedToken(token)) return undefined;
  const [row] = await sql<{ user_id: string }[]>`
    UPDATE auth_tokens SET used_at = now()
    WHERE token_hash = ${hashToken(token)} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > now()
    RETURNING user_id`;
  return row?.user_id;
}

// Registration and verification -----------------------------------------------------------------

export async function sendVerificationEmail(
  deps: IdentityDeps,
  user: { id: string; email: string; name: string | null },
) {
  const ttl = deps.settings.verifyEmailTtlSeconds;
  // The token and the email job commit together: no link that was never sent, no mail lost.
  await deps.sql.begin(async (tx) => {
    const token = await issueToken(tx, user.id, 'verify_email', ttl);
    const link = `${publicUrl(deps.settings)}/verify-email?token=${token}`;
    await deps.mailer.send(
      verificationEmail(user.email, { name: user.name, link, hours: Math.round(ttl / 3600) }),
      { db: tx },
    );
  });
}

/**
 * Registers a customer, or an airline account pending approval. The answer is the same whether or
 * not the address already has an account: a new account gets a verification email, an existing one
 * a notice (both sent after the answer is decided).
 */
export async function registerAccount(
  deps: IdentityDeps,
  input: RegisterCustomerInput | RegisterAirlineInput,
  kind: 'customer' | 'airline',
  meta: RequestMeta,
): Promise<void> {
  await enforceRateLimit(deps.sql, `register:ip:${meta.ip}`, deps.settings.limits.registerPerIp);
  // Security: hash before looking at the address, so both outcomes take the same time.
  const passwordHash = await hashPassword(input.password);
  const [created] = await deps.sql<{ id: string; email: string; name: string | null }[]>`
    INSERT INTO users (email, name, last_name, image, phone, role, airline_status, password_hash)
    VALUES (${input.email}, ${input.name.trim()}, ${input.lastName.trim()}, ${input.image}, ${input.phone},
            ${kind}, ${kind === 'airline' ? 'pending' : null}, ${passwordHash})
    ON CONFLICT (lower(email)) WHERE deleted_at IS NULL DO NOTHING
    RETURNING id, email, name`;
  if (created) {
    deps.background.run('verification email', () => sendVerificationEmail(deps, created));
  } else {
    deps.background.run('account exists email', async () => {
      const existing = await findUserByEmail(deps.sql, input.email);
      if (!existing || existing.disabled) return;
      const loginLink = `${publicUrl(deps.settings)}/login`;
      await deps.mailer.send(
        accountExistsEmail(existing.email, { name: existing.name, loginLink }),
      );
    });
  }
}

/** Confirms an address with the token from the verification link. */
export async function verifyEmail(deps: IdentityDeps, token: string): Promise<void> {
  await deps.sql.begin(async (tx) => {
    const userId = await consumeToken(tx, token, 'verify_email');
    if (!userId) throw new AppError(ErrorCode.BadRequest, messages.linkInvalid);
    const [user] = await tx`
      UPDATE users SET email_verified = true, updated_at = now()
      WHERE id = ${userId} AND deleted_at IS NULL RETURNING id`;
    if (!user) throw new AppError(ErrorCode.BadRequest, messages.linkInvalid);
  });
}

/** A new verification link for the signed-in user. */
export async function resendVerification(deps: IdentityDeps, user: AuthUser): Promise<void> {
  if (user.emailVerified) throw new AppError(ErrorCode.Conflict, messages.emailAlreadyVerified);
  await enforceRateLimit(
    deps.sql,
    `verify-resend:user:${user.id}`,
    deps.settings.limits.verificationResendPerUser,
  );
  await sendVerificationEmail(deps, user);
}

// Login -------------------------------------------------------------------------------------------

let dummyHash: Promise<string> | undefined;
/** A real argon2id hash of nothing anybody knows: verifying against it costs what a real check costs. */
function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}

/**
 * Checks the password and opens a session. Every attempt counts, before the check, against the
 * device token it carries or, without a valid one, against the address and the account's untrusted
 * clients (a success is given back: `admitLoginAttempt`); unknown accounts, users without a password
 * and wrong passwords get the same answer after the same work. `previousToken`, the session this
 * browser had, ends (rotation); a success also issues a new device token (`device`).
 */
export async function login(
  deps: IdentityDeps,
  input: LoginInput,
  meta: RequestMeta & { previousToken?: string; deviceToken?: string },
): Promise<{ user: AuthUser; session: NewSession; device: NewLoginDevice }> {
  const { sql, settings } = deps;
  const attempt = await admitLoginAttempt(sql, settings.limits, {
    email: input.email,
    ip: meta.ip,
    deviceToken: meta.deviceToken,
  });

  const [row] = await sql<{ id: string; password_hash: string | null; disabled: boolean }[]>`
    SELECT id, password_hash, disabled FROM users WHERE lower(email) = ${input.email} AND deleted_at IS NULL`;
  const passwordOk = row?.password_hash
    ? await verifyPassword(row.password_hash, input.password)
    : (await verifyPassword(await getDummyHash(), input.password), false);
  if (!row || !passwordOk)
    throw new AppError(ErrorCode.Unauthenticated, messages.invalidCredentials);
  // Only someone who knows the password learns that the account is disabled.
  if (row.disabled) throw new AppError(ErrorCode.Forbidden, messages.accountDisabled);

  const device = await loginSucceeded(sql, attempt, row.id);
  return { ...(await openSession(deps, row.id, meta)), device };
}

/** A fresh session for `userId`; the browser's previous session (if any) ends: tokens rotate at login. */
export async function openSession(
  deps: IdentityDeps,
  userId: string,
  meta: RequestMeta & { previousToken?: string },
): Promise<{ user: AuthUser; session: NewSession }> {
  if (meta.previousToken) await deleteSessionByToken(deps.sql, meta.previousToken);
  const session = await createSession(deps.sql, userId, deps.settings.sessionTtlSeconds, meta);
  const user = await findUserById(deps.sql, userId);
  if (!user) throw new AppError(ErrorCode.Unauthenticated, messages.invalidCredentials);
  return { user, session };
}

// Passwords ---------------------------------------------------------------------------------------

/**
 * "Forgot your password": the answer never says whether the account exists; the link is made and
 * sent after the answer is decided.
 */
export async function requestPasswordReset(
  deps: IdentityDeps,
  email: string,
  meta: RequestMeta,
): Promise<void> {
  const { sql, settings } = deps;
  await enforceRateLimit(sql, `reset:ip:${meta.ip}`, settings.limits.passwordResetPerIp);
  await enforceRateLimit(
    sql,
    `reset:account:${accountKey(email)}`,
    settings.limits.passwordResetPerEmail,
  );
  deps.background.run('password reset email', async () => {
    const user = await findUserByEmail(sql, email);
    if (!user || user.disabled) return;
    const ttl = settings.resetPasswordTtlSeconds;
    await sql.begin(async (tx) => {
      const token = await issueToken(tx, user.id, 'reset_password', ttl);
      const link = `${publicUrl(settings)}/reset-password?token=${token}`;
      await deps.mailer.send(
        passwordResetEmail(user.email, { name: user.name, link, minutes: Math.round(ttl / 60) }),
        { db: tx },
      );
    });
  });
}

/** Sets a new password with the token from the reset link; every session of the user ends. */
export async function resetPassword(deps: IdentityDeps, input: PasswordResetInput): Promise<void> {
  const passwordHash = await hashPassword(input.password);
  await deps.sql.begin(async (tx) => {
    const userId = await consumeToken(tx, input.token, 'reset_password');
    if (!userId) throw new AppError(ErrorCode.BadRequest, messages.linkInvalid);
    // Following the emailed link proves the address too.
    const [user] = await tx`
      UPDATE users SET password_hash = ${passwordHash}, email_verified = true, updated_at = now()
      WHERE id = ${userId} AND deleted_at IS NULL RETURNING id`;
    if (!user) throw new AppError(ErrorCode.BadRequest, messages.linkInvalid);
    await tx`UPDATE auth_tokens SET used_at = now() WHERE user_id = ${userId} AND purpose = 'reset_password' AND used_at IS NULL`;
    await tx`DELETE FROM sessions WHERE user_id = ${userId}`;
  });
}

/** Change Password when signed in: the old password is required; the user's other sessions end. */
export async function changePassword(
  deps: IdentityDeps,
  user: AuthUser,
  currentSessionId: string,
  input: ChangePasswordInput,
): Promise<void> {
  const { sql, settings } = deps;
  // Security: a stolen session must not become a way to guess the password without limit.
  // Its own counter: strangers' failed logins (the account's untrusted clients) do not block it.
  const key = `password-change:user:${user.id}`;
  await enforceRateLimit(sql, key, settings.limits.passwordChangePerUser);
  const [row] = await sql<{ password_hash: string | null }[]>`
    SELECT password_hash FROM users WHERE id = ${user.id} AND deleted_at IS NULL`;
  if (!row?.password_hash) throw new AppError(ErrorCode.BadRequest, messages.noPasswordSet);
  if (!(await verifyPassword(row.password_hash, input.oldPassword))) {
    throw new AppError(ErrorCode.Forbidden, messages.invalidCredentials);
  }
  await refundRateLimit(sql, key);
  const passwordHash = await hashPassword(input.newPassword);
  await sql.begin(async (tx) => {
    await tx`UPDATE users SET password_hash = ${passwordHash}, updated_at = now() WHERE id = ${user.id}`;
    await tx`UPDATE auth_tokens SET used_at = now() WHERE user_id = ${user.id} AND purpose = 'reset_password' AND used_at IS NULL`;
    await tx`DELETE FROM sessions WHERE user_id = ${user.id} AND id <> ${currentSessionId}`;
  });
}

// Firebase ----------------------------------------------------------------------------------------

/**
 * Maps a verified Firebase identity to a local user: by uid; else, with a verified email, the local
 * account of that address; else a new customer (spec §4: Google sign-in creates the record only if
 * none exists, verified). A verified claim also marks the local address verified.
 */
export async function findOrCreateFirebaseUser(
  deps: IdentityDeps,
  identity: FirebaseIdentity,
): Promise<AuthUser> {
  const { sql } = deps;
  let user = await findUserByUid(sql, identity.uid);
  if (!user) {
    if (!identity.email)
      throw new AppError(ErrorCode.Unauthenticated, 'Invalid identity token', { reason: 'email' });
    const existing = await findUserByEmail(sql, identity.email);
    if (existing) {
      // Security: an unverified address from the provider never takes over a local account.
      if (!identity.emailVerified)
        throw new AppError(ErrorCode.Forbidden, messages.verifyEmailToBuy);
      user = existing;
    } else {
      try {
        const [created] = await sql<{ id: string }[]>`
          INSERT INTO users (email, name, image, uid, role, email_verified)
          VALUES (${identity.email}, ${identity.name}, ${identity.picture}, ${identity.uid}, 'customer', ${identity.emailVerified})
          RETURNING id`;
        user = created && (await findUserById(sql, created.id));
      } catch (error) {
        // A concurrent first sign-in created it: use that one.
        if (!isUniqueViolation(error)) throw error;
        user =
          (await findUserByUid(sql, identity.uid)) ?? (await findUserByEmail(sql, identity.email));
      }
      if (!user) throw new AppError(ErrorCode.Conflict, messages.userAlreadyExists);
    }
  }
  if (user.disabled) throw new AppError(ErrorCode.Forbidden, messages.accountDisabled);
  if (
    identity.emailVerified &&
    !user.emailVerified &&
    identity.email === user.email.toLowerCase()
  ) {
    await sql`UPDATE users SET email_verified = true, updated_at = now() WHERE id = ${user.id}`;
    user = { ...user, emailVerified: true };
  }
  return user;
}

// Administration of accounts ----------------------------------------------------------------------

/** Disables (or enables again) an account; disabling ends every session at once. */
export async function setAccountDisabled(
  sql: Sql,
  userId: string,
  disabled: boolean,
): Promise<void> {
  await sql.begin(async (tx) => {
    await tx`UPDATE users SET disabled = ${disabled}, updated_at = now() WHERE id = ${userId}`;
    if (disabled) await tx`DELETE FROM sessions WHERE user_id = ${userId}`;
  });
}

/**
 * Deletes an account by anonymising it: the row stays as a tombstone so that orders, sales and
 * reviews keep their references; personal data, credentials, sessions and tokens go; its personal
 * replicated rows (cart, favourites, drafts, preferences) are tombstoned; an airline it owned leaves
 * the catalogue with its flights. The uid is kept as `deleted:<uid>` so a retried delete finds it.
 */
export async function anonymiseAccount(tx: Queryable, userId: string): Promise<void> {
  // Its replicated rows are tombstoned below: a push of the same partition waits (db/locks.ts).
  await lockPartition(tx, userId);
  await tx`
    UPDATE users SET
      email = 'deleted-' || id || '@deleted.invalid',
      name = NULL, last_name = NULL, image = NULL, phone = NULL, password_hash = NULL,
      uid = 'deleted:' || uid, email_verified = false, disabled = true,
      deleted_at = now(), updated_at = now()
    WHERE id = ${userId} AND deleted_at IS NULL`;
  await tx`DELETE FROM sessions WHERE user_id = ${userId}`;
  await tx`DELETE FROM auth_tokens WHERE user_id = ${userId}`;
  await tx`UPDATE cart_lines SET deleted = true, updated_at = now() WHERE user_id = ${userId} AND NOT deleted`;
  await tx`UPDATE favourites SET deleted = true WHERE user_id = ${userId} AND NOT deleted`;
  await tx`UPDATE review_drafts SET deleted = true, updated_at = now() WHERE user_id = ${userId} AND NOT deleted`;
  await tx`UPDATE preferences SET deleted = true, updated_at = now() WHERE user_id = ${userId} AND NOT deleted`;
  const airlines = await tx<{ id: string }[]>`
    UPDATE airlines SET deleted = true, updated_at = now()
    WHERE owner_user_id = ${userId} AND NOT deleted RETURNING id`;
  for (const airline of airlines) await removeAirlineFlights(tx, airline.id);
}

/** An airline's flights leave the catalogue (tombstoned); orders and sales that name them stay. */
export async function removeAirlineFlights(tx: Queryable, airlineId: string): Promise<number> {
  await lockFlights(tx, { airlineId });
  const rows = await tx`
    UPDATE flights SET deleted = true, updated_at = now()
    WHERE airline_id = ${airlineId} AND NOT deleted RETURNING id`;
  return rows.length;
}
