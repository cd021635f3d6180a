import { randomBytes } from 'node:crypto';
import type { AirlineStatus, Role } from '@skyport/shared';
import type { Sql } from '../db/client.ts';
import { setAccountDisabled } from '../features/identity/accounts.ts';
import { hashPassword } from '../features/identity/password.ts';
import { createSession, SESSION_COOKIE } from '../features/identity/sessions.ts';
import { findUserById, type AuthUser } from '../features/identity/users.ts';

/**
 * Everyone who can call the API, for authorization tests of any feature:
 *
 *   const actors = await createActors(sql);
 *   await app.request('/api/orders', { headers: actors.customer.headers() });        // Bearer
 *   await app.request('/api/orders', { method: 'POST', headers: actors.customer.headers('cookie') });
 *
 * Users are inserted directly with one shared argon2id hash (computed once per test process) and
 * sessions are created directly, so a fixture costs a few inserts, not a login each.
 */
export const ACTOR_NAMES = [
  'guest',
  'customer',
  'unverifiedCustomer',
  'pendingAirline',
  'airline',
  'otherAirline',
  'disabledUser',
  'superAdmin',
] as const;
export type ActorName = (typeof ACTOR_NAMES)[number];
/** One actor of each kind, by name. */
export type Actors = Record<ActorName, Actor>;

/** The password of every fixture account. */
export const ACTOR_PASSWORD = 'Actor-Pass1!';

/** Requests in tests come from this origin (what `app.request('/path')` uses). */
export const TEST_ORIGIN = 'http://localhost';

export interface Actor {
  name: ActorName;
  /** The account as created (null for the guest); the disabled user's shows `disabled: true`. */
  user: AuthUser | null;
  email: string | null;
  password: string | null;
  /** Its session token; for the disabled user, the token it held before it was disabled. */
  token: string | null;
  /** The airline an approved airline owns. */
  airlineId: string | null;
  /** Headers that authenticate as this actor: a Bearer token, or the session cookie plus a same-site Origin. */
  headers(via?: 'bearer' | 'cookie'): Record<string, string>;
}

let sharedHash: Promise<string> | undefined;
/** The argon2id hash of `ACTOR_PASSWORD`, computed once per process at production cost. */
export function actorPasswordHash(): Promise<string> {
  sharedHash ??= hashPassword(ACTOR_PASSWORD);
  return sharedHash;
}

export interface NewUserOptions {
  role?: Role;
  airlineStatus?: AirlineStatus | null;
  emailVerified?: boolean;
  email?: string;
  name?: string;
  /** `true` (default) uses ACTOR_PASSWORD's hash; `false` makes an account without a password. */
  withPassword?: boolean;
  /** Approved airlines get an airline record unless this is false. */
  withAirline?: boolean;
}

/** Inserts one user (and, for an approved airline, its airline) without any HTTP round trip. */
export async function insertUser(sql: Sql, options: NewUserOptions = {}): Promise<AuthUser> {
  const role = options.role ?? 'customer';
  const airlineStatus = role === 'airline' ? (options.airlineStatus ?? 'approved') : null;
  const tag = randomBytes(5).toString('hex');
  const email = options.email ?? `${role}-${tag}@actors.test`;
  const name = options.name ?? `Actor ${letters(tag)}`;
  const passwordHash = options.withPassword === false ? null : await actorPasswordHash();
  const [row] = await sql<{ id: string }[]>`
    INSERT INTO users (email, name, last_name, image, phone, role, airline_status, email_verified, password_hash)
    VALUES (${email}, ${name}, 'Tester', 'https://images.test/face.png', '+123 456 7890', ${role}, ${airlineStatus},
            ${options.emailVerified ?? true}, ${passwordHash})
    RETURNING id`;
  if (!row) throw new Error('user insert returned no row');
  if (role === 'airline' && airlineStatus === 'approved' && options.withAirline !== false) {
    await sql`INSERT INTO airlines (name, owner_user_id, image) VALUES (${`${name} Air`}, ${row.id}, 'https://images.test/logo.png')`;
  }
  const user = await findUserById(sql, row.id);
  if (!user) throw new Error('inserted user not found');
  return user;
}

/** A signed-in account: what a test needs to call the API as it. */
export interface SignedInUser {
  id: string;
  user: AuthUser;
  token: string;
  expiresAt: Date;
  /** `Authorization: Bearer <token>` */
  headers: Record<string, string>;
}

/** Inserts one user (see `insertUser`) with a live session of `sessionTtlSeconds` (default an hour). */
export async function insertSignedInUser(
  sql: Sql,
  options: NewUserOptions & { sessionTtlSeconds?: number } = {},
): Promise<SignedInUser> {
  const user = await insertUser(sql, options);
  const { token, expiresAt } = await createSession(sql, user.id, options.sessionTtlSeconds ?? 3600);
  return { id: user.id, user, token, expiresAt, headers: { Authorization: `Bearer ${token}` } };
}

/** Hex digits spelled as letters, so that generated names pass the §5 name rule. */
function letters(hex: string): string {
  return hex.replace(/[0-9]/g, (digit) => 'ghijklmnop'[Number(digit)] ?? 'x');
}

function makeActor(name: ActorName, user: AuthUser | null, token: string | null): Actor {
  return {
    name,
    user,
    email: user?.email ?? null,
    password: user ? ACTOR_PASSWORD : null,
    token,
    airlineId: user?.airlineId ?? null,
    headers(via = 'bearer'): Record<string, string> {
      if (via === 'bearer') return token ? { Authorization: `Bearer ${token}` } : {};
      return token
        ? { Cookie: `${SESSION_COOKIE}=${token}`, Origin: TEST_ORIGIN }
        : { Origin: TEST_ORIGIN };
    },
  };
}

/** Creates one actor of each kind, each with a live session (the disabled user's ended when it was disabled). */
export async function createActors(
  sql: Sql,
  options: { sessionTtlSeconds?: number } = {},
): Promise<Actors> {
  const ttl = options.sessionTtlSeconds ?? 3600;
  const specs: Record<Exclude<ActorName, 'guest'>, NewUserOptions> = {
    customer: { role: 'customer' },
    unverifiedCustomer: { role: 'customer', emailVerified: false },
    pendingAirline: { role: 'airline', airlineStatus: 'pending' },
    airline: { role: 'airline', airlineStatus: 'approved' },
    otherAirline: { role: 'airline', airlineStatus: 'approved' },
    disabledUser: { role: 'customer' },
    superAdmin: { role: 'super_admin' },
  };
  const actors = { guest: makeActor('guest', null, null) } as Actors;
  for (const [name, spec] of Object.entries(specs) as [
    Exclude<ActorName, 'guest'>,
    NewUserOptions,
  ][]) {
    const user = await insertUser(sql, spec);
    const session = await createSession(sql, user.id, ttl);
    if (name === 'disabledUser') {
      // Disabled the way an administrator does it, so its session ends as it would in production.
      await setAccountDisabled(sql, user.id, true);
      actors[name] = makeActor(name, { ...user, disabled: true }, session.token);
    } else {
      actors[name] = makeActor(name, user, session.token);
    }
  }
  return actors;
}
