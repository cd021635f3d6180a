import type { TicketPublicJwk } from '@skyport/shared';
import type postgres from 'postgres';
import type { Sql } from '../../db/client.ts';
import type { StoredKey } from './keys.ts';

/** The pool or a transaction (a savepoint included): every query here runs on any of them. */
export type Queryable = Sql | postgres.TransactionSql;

/** A signing key row as the signer reads it (never leaves the server). */
export interface SigningKeyRow {
  kid: string;
  private_key: string;
  private_key_encrypted: boolean;
}

/** The current signing key, if there is one. */
export async function selectCurrentKey(sql: Queryable): Promise<SigningKeyRow | undefined> {
  const [row] = await sql<SigningKeyRow[]>`
    SELECT kid, private_key, private_key_encrypted FROM ticket_signing_keys WHERE retired_at IS NULL`;
  return row;
}

/**
 * Stores `key` as the current key unless there is one already: instances starting at once may
 * each try, the unique index on the current key lets one insert through and the others do
 * nothing (an insert waits for a concurrent one to commit or roll back, then decides).
 */
export async function insertFirstKey(sql: Queryable, key: StoredKey): Promise<boolean> {
  const inserted = await sql`
    INSERT INTO ticket_signing_keys (kid, public_jwk, private_key, private_key_encrypted)
    VALUES (${key.kid}, ${sql.json(key.publicJwk)}, ${key.privateKey}, ${key.privateKeyEncrypted})
    ON CONFLICT DO NOTHING`;
  return inserted.count === 1;
}

/**
 * Retires the current key and makes `key` current, in one transaction under an advisory lock
 * (two rotations at once run one after the other). Answers the retired key's id.
 */
export async function rotateKey(sql: Sql, key: StoredKey): Promise<string | null> {
  return sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtext('skyport:ticket-signing-keys'))`;
    const [retired] = await tx<{ kid: string }[]>`
      UPDATE ticket_signing_keys SET retired_at = now() WHERE retired_at IS NULL RETURNING kid`;
    await tx`
      INSERT INTO ticket_signing_keys (kid, public_jwk, private_key, private_key_encrypted)
      VALUES (${key.kid}, ${tx.json(key.publicJwk)}, ${key.privateKey}, ${key.privateKeyEncrypted})`;
    return retired?.kid ?? null;
  });
}

/**
 * The published key set: the current key, then every retired key that signed a ticket which has
 * not expired yet (those tickets must keep verifying), newest first.
 */
export async function selectPublishedKeys(sql: Queryable): Promise<TicketPublicJwk[]> {
  const rows = await sql<{ public_jwk: TicketPublicJwk }[]>`
    SELECT k.public_jwk FROM ticket_signing_keys k
    WHERE k.retired_at IS NULL
       OR EXISTS (SELECT 1 FROM tickets t WHERE t.kid = k.kid AND t.expires_at > now())
    ORDER BY k.retired_at DESC NULLS FIRST, k.created_at DESC`;
  return rows.map((row) => row.public_jwk);
}

/** A line of a confirmed order that has no ticket yet, with what its ticket names. */
export interface UnticketedLine {
  order_line_id: string;
  order_id: string;
  flight_id: string;
  airline_name: string;
  origin: string;
  destination: string;
  departure_date: string;
  departure_hour: string;
  amount: number;
  passenger: string;
  /** The ticket's expiry (seconds since the epoch): the day after the flight lands, 00:00 UTC. */
  expires_at: number;
}

/**
 * The lines of confirmed, live orders (all of `orderIds`, or any) that have no ticket yet. The
 * departure date comes from the flight (order lines keep its hours, spec §3 `moreinfo`); the
 * passenger is the buyer's name, or their email when they gave none.
 */
export function selectUnticketedLines(
  sql: Queryable,
  orderIds: readonly string[] | 'any',
  limit = 1000,
): Promise<UnticketedLine[]> {
  const which =
    orderIds === 'any' ? sql`true` : sql`l.order_id = ANY(${orderIds as string[]}::uuid[])`;
  return linesWithoutTicket(sql, sql`${which} AND o.status = 'confirmed'`, limit);
}

/**
 * The lines without a ticket of the order that payment `paymentId` wrote, while it is pending or
 * confirmed: read right behind the order statement, so that the tickets are signed before the
 * confirmation, which stores them (checkout/queries.ts `writeOrder` and `markCaptured`).
 */
export function selectLinesToTicket(sql: Queryable, paymentId: string): Promise<UnticketedLine[]> {
  return linesWithoutTicket(
    sql,
    sql`o.id = (SELECT order_id FROM payments WHERE id = ${paymentId})
      AND o.status IN ('pending', 'confirmed')`,
    1000,
  );
}

function linesWithoutTicket(
  sql: Queryable,
  which: postgres.Fragment,
  limit: number,
): Promise<UnticketedLine[]> {
  return sql<UnticketedLine[]>`
    SELECT l.id AS order_line_id, l.order_id, l.flight_id, l.airline_name, l.origin, l.destination,
      to_char(f.departure_date, 'YYYY-MM-DD') AS departure_date,
      to_char(l.departure_hour, 'HH24:MI') AS departure_hour, l.amount,
      coalesce(nullif(btrim(concat_ws(' ', u.name, u.last_name)), ''), u.email) AS passenger,
      extract(epoch FROM ((f.arrival_date + 1)::timestamp AT TIME ZONE 'UTC'))::int8 AS expires_at
    FROM order_lines l
      JOIN orders o ON o.id = l.order_id
      JOIN flights f ON f.id = l.flight_id
      JOIN users u ON u.id = o.user_id
    WHERE ${which} AND NOT o.deleted
      AND NOT EXISTS (SELECT 1 FROM tickets t WHERE t.order_line_id = l.id)
    ORDER BY l.order_id, l.id
    LIMIT ${limit}`;
}

/** A signed ticket to store. */
export interface NewTicket {
  id: string;
  orderLineId: string;
  orderId: string;
  kid: string;
  token: string;
  expiresAt: number;
}

/**
 * Stores issued tickets, each only while its order is confirmed and live: a ticket signed ahead of
 * its order's confirmation (checkout/queries.ts `markCaptured` sends both at once) is dropped when
 * the confirmation did not happen. A line that got its ticket meanwhile keeps the first one.
 */
export async function insertTickets(
  sql: Queryable,
  tickets: readonly NewTicket[],
): Promise<number> {
  if (tickets.length === 0) return 0;
  const inserted = await sql`
    INSERT INTO tickets (id, order_line_id, order_id, kid, token, expires_at)
    SELECT id, order_line_id, order_id, kid, token, to_timestamp(expires_at)
    FROM unnest(${tickets.map((t) => t.id)}::uuid[], ${tickets.map((t) => t.orderLineId)}::uuid[],
                ${tickets.map((t) => t.orderId)}::uuid[], ${tickets.map((t) => t.kid)}::text[],
                ${tickets.map((t) => t.token)}::text[], ${tickets.map((t) => t.expiresAt)}::int8[])
         AS n(id, order_line_id, order_id, kid, token, expires_at)
    WHERE EXISTS (SELECT 1 FROM orders o WHERE o.id = n.order_id AND o.status = 'confirmed' AND NOT o.deleted)
    ON CONFLICT (order_line_id) DO NOTHING`;
  return inserted.count;
}

/** A ticket's server-side state, by its id (`jti`). */
export async function selectTicketStatus(
  sql: Queryable,
  jti: string,
): Promise<{ status: 'valid' | 'void'; voided_at: Date | null; token: string } | undefined> {
  const [row] = await sql<{ status: 'valid' | 'void'; voided_at: Date | null; token: string }[]>`
    SELECT t.status, t.voided_at, t.token FROM tickets t WHERE t.id = ${jti}`;
  return row;
}
