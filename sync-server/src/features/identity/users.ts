import { deriveRoleFlags, type AirlineStatus, type Role, type User } from '@skyport/shared';
import type { Sql } from '../../db/client.ts';

/** A live user as the server sees it: the public view plus nothing secret. */
export type AuthUser = User;

/** The columns of `users` (joined with the user's live airline) that make an `AuthUser`. */
export interface UserRow {
  id: string;
  email: string;
  name: string | null;
  last_name: string | null;
  image: string | null;
  phone: string | null;
  uid: string;
  role: Role;
  airline_status: AirlineStatus | null;
  email_verified: boolean;
  disabled: boolean;
  created_at: Date;
  airline_id: string | null;
}

/** SELECT list and FROM clause for `UserRow`s; callers add WHERE. */
export function selectUsers(sql: Sql) {
  return sql`
    SELECT u.id, u.email, u.name, u.last_name, u.image, u.phone, u.uid, u.role, u.airline_status,
           u.email_verified, u.disabled, u.created_at, a.id AS airline_id
    FROM users u
    LEFT JOIN airlines a ON a.owner_user_id = u.id AND NOT a.deleted`;
}

export function toUser(row: UserRow): AuthUser {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    lastName: row.last_name,
    image: row.image,
    phone: row.phone,
    uid: row.uid,
    role: row.role,
    airlineStatus: row.airline_status,
    emailVerified: row.email_verified,
    disabled: row.disabled,
    airlineId: row.role === 'airline' && row.airline_status === 'approved' ? row.airline_id : null,
    createdAt: row.created_at.getTime(),
    ...deriveRoleFlags(row.role, row.airline_status),
  };
}

export async function findUserById(sql: Sql, id: string): Promise<AuthUser | undefined> {
  const [row] = await sql<
    UserRow[]
  >`${selectUsers(sql)} WHERE u.id = ${id} AND u.deleted_at IS NULL`;
  return row && toUser(row);
}

export async function findUserByEmail(sql: Sql, email: string): Promise<AuthUser | undefined> {
  const [row] = await sql<UserRow[]>`
    ${selectUsers(sql)} WHERE lower(u.email) = ${email.toLowerCase()} AND u.deleted_at IS NULL`;
  return row && toUser(row);
}

export async function findUserByUid(sql: Sql, uid: string): Promise<AuthUser | undefined> {
  const [row] = await sql<
    UserRow[]
  >`${selectUsers(sql)} WHERE u.uid = ${uid} AND u.deleted_at IS NULL`;
  return row && toUser(row);
}

/** PostgreSQL's unique_violation, raised when a concurrent insert took the same email or uid. */
export function isUniqueViolation(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505'
  );
}
