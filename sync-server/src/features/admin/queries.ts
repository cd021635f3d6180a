import {
  messages,
  type Airline,
  type CreateUserPayload,
  type IdentityAccount,
  type SaveAirlinePayload,
  type User,
  type UserListQuery,
} from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import { lockFlights } from '../../db/locks.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import {
  anonymiseAccount,
  removeAirlineFlights,
  setAccountDisabled,
} from '../identity/accounts.ts';
import {
  findUserById,
  isUniqueViolation,
  selectUsers,
  toUser,
  type AuthUser,
  type UserRow,
} from '../identity/users.ts';

const NO_SUCH_USER = 'No such user';
const NO_SUCH_AIRLINE = 'No such airline';

/**
 * `GET /user`: the user-management list (spec §2): customers other than the caller, or, when asked,
 * airline accounts (approved or pending, for the airline screens). Administrators are never listed.
 */
export async function listUsers(sql: Sql, query: UserListQuery, callerId: string): Promise<User[]> {
  const rows = await sql<UserRow[]>`
    ${selectUsers(sql)}
    WHERE u.deleted_at IS NULL AND u.role = ${query.role} AND u.id <> ${callerId}
      ${query.airlineStatus ? sql`AND u.airline_status = ${query.airlineStatus}` : sql``}
    ORDER BY u.created_at, u.id`;
  return rows.map(toUser);
}

/** `GET /user/firebase`: every live identity account (what the spec read from the identity provider). */
export async function listIdentityAccounts(sql: Sql): Promise<IdentityAccount[]> {
  const rows = await sql<
    {
      uid: string;
      email: string;
      email_verified: boolean;
      disabled: boolean;
      role: User['role'];
      has_password: boolean;
      created_at: Date;
    }[]
  >`
    SELECT uid, email, email_verified, disabled, role, password_hash IS NOT NULL AS has_password, created_at
    FROM users WHERE deleted_at IS NULL ORDER BY created_at, id`;
  return rows.map((row) => ({
    uid: row.uid,
    email: row.email,
    emailVerified: row.email_verified,
    disabled: row.disabled,
    role: row.role,
    provider: row.has_password ? 'password' : 'firebase',
    createdAt: row.created_at.getTime(),
  }));
}

/**
 * `POST /user/create`: a customer account without a password (its owner sets one through "Forgot
 * your password", or signs in with the identity provider whose `uid` is given). A taken email or uid:
 * "Usuario ya creado, login".
 */
export async function createUser(sql: Sql, payload: CreateUserPayload): Promise<User> {
  try {
    const [created] = await sql<{ id: string }[]>`
      INSERT INTO users (email, name, image, phone, uid, role, email_verified)
      VALUES (${payload.email}, ${payload.name}, ${payload.img ?? payload.image ?? null}, ${payload.phone ?? null},
              ${payload.uid ?? sql`gen_random_uuid()::text`}, 'customer', ${payload.emailVerified ?? false})
      ON CONFLICT (lower(email)) WHERE deleted_at IS NULL DO NOTHING
      RETURNING id`;
    const user = created && (await findUserById(sql, created.id));
    if (!user) throw new AppError(ErrorCode.Conflict, messages.userAlreadyExists);
    return user;
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError(ErrorCode.Conflict, messages.userAlreadyExists);
    throw error;
  }
}

/** Accounts an administrator may act on: live, and not an administrator. */
function assertManageable(target: { role: User['role'] } | undefined): asserts target {
  if (!target) throw new AppError(ErrorCode.NotFound, NO_SUCH_USER);
  if (target.role === 'super_admin') {
    throw new AppError(ErrorCode.Forbidden, messages.notAllowed, { reason: 'target_is_admin' });
  }
}

/**
 * `PUT /user/update {email}` ("Make Admin"): approves a pending airline account, grants its airline
 * permissions and creates its airline record (named and pictured as the account). Idempotent.
 */
export async function approveAirline(sql: Sql, email: string): Promise<User> {
  const userId = await sql.begin(async (tx) => {
    const [target] = await tx<
      {
        id: string;
        role: User['role'];
        airline_status: string | null;
        name: string | null;
        image: string | null;
      }[]
    >`
      SELECT id, role, airline_status, name, image FROM users
      WHERE lower(email) = ${email} AND deleted_at IS NULL FOR UPDATE`;
    assertManageable(target);
    if (target.role !== 'airline') {
      throw new AppError(ErrorCode.Conflict, 'This account is not an airline', {
        reason: 'not_airline',
      });
    }
    await tx`UPDATE users SET airline_status = 'approved', updated_at = now() WHERE id = ${target.id} AND airline_status = 'pending'`;
    await tx`
      INSERT INTO airlines (name, owner_user_id, image)
      SELECT ${target.name ?? email}, ${target.id}, ${target.image ?? ''}
      WHERE NOT EXISTS (SELECT 1 FROM airlines WHERE owner_user_id = ${target.id} AND NOT deleted)`;
    return target.id;
  });
  const user = await findUserById(sql, userId);
  if (!user) throw new AppError(ErrorCode.NotFound, NO_SUCH_USER);
  return user;
}

/**
 * `DELETE /user/delete/{email}` and `DELETE /user/auth/{uid}`: anonymises the account (see
 * `anonymiseAccount`). The uid route also answers for an account already deleted through the email
 * route, as the spec's admin screen calls both.
 */
export async function deleteUser(sql: Sql, by: { email: string } | { uid: string }): Promise<void> {
  await sql.begin(async (tx) => {
    const [target] =
      'email' in by
        ? await tx<{ id: string; role: User['role']; deleted: boolean }[]>`
            SELECT id, role, false AS deleted FROM users WHERE lower(email) = ${by.email} AND deleted_at IS NULL FOR UPDATE`
        : await tx<{ id: string; role: User['role']; deleted: boolean }[]>`
            SELECT id, role, deleted_at IS NOT NULL AS deleted FROM users
            WHERE uid = ${by.uid} OR (uid = ${`deleted:${by.uid}`} AND deleted_at IS NOT NULL)
            ORDER BY deleted_at NULLS FIRST LIMIT 1 FOR UPDATE`;
    assertManageable(target);
    if (!target.deleted) await anonymiseAccount(tx, target.id);
  });
}

/** `PUT /user/disableUser {uid}`: a disabled account cannot log in and its sessions end at once. */
export async function disableUser(sql: Sql, uid: string, disabled: boolean): Promise<User> {
  const [target] = await sql<{ id: string; role: User['role'] }[]>`
    SELECT id, role FROM users WHERE uid = ${uid} AND deleted_at IS NULL`;
  assertManageable(target);
  await setAccountDisabled(sql, target.id, disabled);
  const user = await findUserById(sql, target.id);
  if (!user) throw new AppError(ErrorCode.NotFound, NO_SUCH_USER);
  return user;
}

function toAirline(row: {
  id: string;
  name: string;
  owner_user_id: string | null;
  image: string;
}): Airline {
  return { id: row.id, name: row.name, userId: row.owner_user_id, image: row.image };
}

/**
 * `POST /airlines`: an approved airline saves its own airline's name and logo; the super
 * administrator saves the airline of an approved airline account (`userId`) or creates one without
 * an owner. The flights' copy of the airline name follows.
 */
export async function saveAirline(
  sql: Sql,
  caller: AuthUser,
  payload: SaveAirlinePayload,
): Promise<{ airline: Airline; created: boolean }> {
  let ownerId: string | null;
  if (caller.role === 'super_admin') {
    ownerId = payload.userId ?? null;
  } else {
    if (payload.userId !== undefined && payload.userId !== caller.id) {
      throw new AppError(ErrorCode.Forbidden, messages.notAllowed, { reason: 'not_airline_owner' });
    }
    ownerId = caller.id;
  }
  return sql.begin(async (tx) => {
    if (ownerId) {
      const [owner] = await tx<{ id: string }[]>`
        SELECT id FROM users WHERE id = ${ownerId} AND deleted_at IS NULL AND NOT disabled
          AND role = 'airline' AND airline_status = 'approved' FOR UPDATE`;
      if (!owner) throw new AppError(ErrorCode.NotFound, 'No such approved airline account');
      const [updated] = await tx<
        { id: string; name: string; owner_user_id: string | null; image: string }[]
      >`
        UPDATE airlines SET name = ${payload.name}, image = ${payload.image}, updated_at = now()
        WHERE owner_user_id = ${ownerId} AND NOT deleted
        RETURNING id, name, owner_user_id, image`;
      if (updated) {
        await lockFlights(tx, { airlineId: updated.id });
        await tx`
          UPDATE flights SET airline_name = ${payload.name}, updated_at = now()
          WHERE airline_id = ${updated.id} AND NOT deleted AND airline_name <> ${payload.name}`;
        return { airline: toAirline(updated), created: false };
      }
    }
    const [inserted] = await tx<
      { id: string; name: string; owner_user_id: string | null; image: string }[]
    >`
      INSERT INTO airlines (name, owner_user_id, image) VALUES (${payload.name}, ${ownerId}, ${payload.image})
      RETURNING id, name, owner_user_id, image`;
    if (!inserted) throw new Error('airline insert returned no row');
    return { airline: toAirline(inserted), created: true };
  });
}

/**
 * `DELETE /airlines/delete/{id}`: the airline and its flights leave the catalogue (tombstoned, so
 * past orders and sales keep their references); its owner goes back to pending approval.
 */
export async function deleteAirline(
  sql: Sql,
  airlineId: string,
): Promise<{ flightsRemoved: number }> {
  return sql.begin(async (tx) => {
    const [airline] = await tx<{ owner_user_id: string | null }[]>`
      UPDATE airlines SET deleted = true, updated_at = now()
      WHERE id = ${airlineId} AND NOT deleted RETURNING owner_user_id`;
    if (!airline) throw new AppError(ErrorCode.NotFound, NO_SUCH_AIRLINE);
    const flightsRemoved = await removeAirlineFlights(tx, airlineId);
    if (airline.owner_user_id) {
      await tx`
        UPDATE users SET airline_status = 'pending', updated_at = now()
        WHERE id = ${airline.owner_user_id} AND role = 'airline'`;
    }
    return { flightsRemoved };
  });
}
