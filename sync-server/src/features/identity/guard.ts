import { messages, type Role } from '@skyport/shared';
import { createMiddleware } from 'hono/factory';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import type { SessionRef } from './sessions.ts';
import type { AuthUser } from './users.ts';

/**
 * Authorization, in one place. Every route that needs a caller uses these middlewares and helpers;
 * the sync endpoints use `checkAccess` and the ownership helpers with the same rules.
 *
 *   app.get('/orders', requireUser({ verified: true }), (c) => c.var.authUser ...)
 *   app.post('/flights/create', requireApprovedAirline(), (c) => ownAirlineId(c.var.authUser) ...)
 *   app.get('/user', requireRole('super_admin'), ...)
 */

/** What the session middleware puts on every request's context. */
export type AuthVariables = {
  /** The signed-in user, or null for a guest. */
  user: AuthUser | null;
  session: SessionRef | null;
};
export type AuthEnv = { Variables: AuthVariables };

/** What a guard adds for the handlers after it: the user, known to be signed in. */
export type GuardedEnv = { Variables: AuthVariables & { authUser: AuthUser } };

export interface AccessRule {
  /** Roles allowed; any signed-in user when absent. */
  roles?: readonly Role[];
  /** The email address must be verified (checkout, per spec §4). */
  verified?: boolean;
  /** An airline caller must be approved and own a live airline. */
  approvedAirline?: boolean;
}

/** Why `user` may not do what `rule` guards, or null when it may. Pure: usable outside HTTP. */
export function checkAccess(user: AuthUser | null, rule: AccessRule = {}): AppError | null {
  if (!user) return new AppError(ErrorCode.Unauthenticated, messages.loginRequired);
  if (user.disabled) return new AppError(ErrorCode.Unauthenticated, messages.accountDisabled);
  if (rule.roles && !rule.roles.includes(user.role)) {
    return new AppError(ErrorCode.Forbidden, messages.notAllowed, { reason: 'role' });
  }
  if (
    rule.approvedAirline &&
    user.role === 'airline' &&
    !(user.airlineStatus === 'approved' && user.airlineId)
  ) {
    return new AppError(ErrorCode.Forbidden, messages.notAllowed, {
      reason: 'airline_not_approved',
    });
  }
  if (rule.verified && !user.emailVerified) {
    return new AppError(ErrorCode.Forbidden, messages.verifyEmailToBuy, {
      reason: 'email_not_verified',
    });
  }
  return null;
}

/** Lets the request through only for a signed-in user that satisfies `rule` (401 / 403 otherwise). */
export function requireUser(rule: AccessRule = {}) {
  return createMiddleware<GuardedEnv>(async (c, next) => {
    const user = c.get('user');
    const denied = checkAccess(user, rule);
    if (denied || !user)
      throw denied ?? new AppError(ErrorCode.Unauthenticated, messages.loginRequired);
    c.set('authUser', user);
    await next();
  });
}

/** Only these roles (an airline of any status passes; add `requireApprovedAirline` where it matters). */
export function requireRole(...roles: Role[]) {
  return requireUser({ roles });
}

/** An approved airline that owns a live airline; with `orSuperAdmin`, the super administrator too. */
export function requireApprovedAirline(options: { orSuperAdmin?: boolean } = {}) {
  return requireUser({
    roles: options.orSuperAdmin ? ['airline', 'super_admin'] : ['airline'],
    approvedAirline: true,
  });
}

// Ownership -------------------------------------------------------------------------------------

/** The airline an approved airline user owns; 403 for anyone else. */
export function ownAirlineId(user: AuthUser): string {
  if (user.role !== 'airline' || user.airlineStatus !== 'approved' || !user.airlineId) {
    throw new AppError(ErrorCode.Forbidden, messages.notAllowed, { reason: 'not_airline_owner' });
  }
  return user.airlineId;
}

/** Whether `user` may manage airline `airlineId`: its approved owner, or the super administrator. */
export function canManageAirline(user: AuthUser, airlineId: string): boolean {
  if (user.role === 'super_admin') return true;
  return (
    user.role === 'airline' && user.airlineStatus === 'approved' && user.airlineId === airlineId
  );
}

export function assertCanManageAirline(user: AuthUser, airlineId: string): void {
  if (!canManageAirline(user, airlineId)) {
    throw new AppError(ErrorCode.Forbidden, messages.notAllowed, { reason: 'not_airline_owner' });
  }
}

/**
 * Whether `user` may touch data that belongs to user `ownerUserId` (orders, cart, favourites, drafts):
 * only its owner, and the super administrator where `allowSuperAdmin` says so (read-only views).
 */
export function canAccessUserData(
  user: AuthUser,
  ownerUserId: string,
  options: { allowSuperAdmin?: boolean } = {},
): boolean {
  return (
    user.id === ownerUserId || (options.allowSuperAdmin === true && user.role === 'super_admin')
  );
}

export function assertCanAccessUserData(
  user: AuthUser,
  ownerUserId: string,
  options: { allowSuperAdmin?: boolean } = {},
): void {
  if (!canAccessUserData(user, ownerUserId, options)) {
    throw new AppError(ErrorCode.Forbidden, messages.notAllowed, { reason: 'not_owner' });
  }
}
