import type postgres from 'postgres';
import { calculateTotals, type Totals } from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import { lockFlights } from '../../db/locks.ts';

/**
 * The SQL of seat holds (migration 012, docs/decisions/013-seat-holds.md). Every transaction that
 * moves seats between a hold and the flights locks the flights' rows in id order first
 * (lockFlights) and the hold's row after, in that order everywhere, so a hold being taken, paid,
 * cancelled and released never wait for each other in a cycle.
 */

type Tx = postgres.TransactionSql | Sql;

export type HoldStatus = 'active' | 'consumed' | 'released';

export interface HoldRow {
  id: string;
  user_id: string;
  idempotency_key: string | null;
  status: HoldStatus;
  subtotal_cents: number;
  fee_cents: number;
  total_cents: number;
  expires_at: Date;
  created_at: Date;
  released_at: Date | null;
  release_reason: string | null;
  payment_id: string | null;
  /** Milliseconds left until `expires_at` by the database's clock when read (0 once past). */
  expires_in_ms: number;
}

export interface HoldLine {
  flightId: string;
  amount: number;
  unitPriceCents: number;
}

export type Hold = HoldRow & { lines: HoldLine[] };

const HOLD_COLUMNS = (tx: Tx) => tx`
  h.*, greatest(0, floor(extract(epoch FROM h.expires_at - now()) * 1000))::int8 AS expires_in_ms,
  coalesce((SELECT json_agg(json_build_object('flightId', l.flight_id, 'amount', l.amount,
                                              'unitPriceCents', l.unit_price_cents) ORDER BY l.flight_id)
            FROM seat_hold_lines l WHERE l.hold_id = h.id), '[]') AS lines`;

export async function findHold(tx: Tx, id: string): Promise<Hold | undefined> {
  const [row] = await tx<Hold[]>`SELECT ${HOLD_COLUMNS(tx)} FROM seat_holds h WHERE h.id = ${id}`;
  return row;
}

export async function findHoldByKey(
  tx: Tx,
  userId: string,
  key: string,
): Promise<Hold | undefined> {
  const [row] = await tx<Hold[]>`
    SELECT ${HOLD_COLUMNS(tx)} FROM seat_holds h
    WHERE h.user_id = ${userId} AND h.idempotency_key = ${key}`;
  return row;
}

/** The customer's active hold (at most one, migration 012), expired or not. */
export async function findActiveHold(tx: Tx, userId: string): Promise<Hold | undefined> {
  const [row] = await tx<Hold[]>`
    SELECT ${HOLD_COLUMNS(tx)} FROM seat_holds h WHERE h.user_id = ${userId} AND h.status = 'active'`;
  return row;
}

/** A line of the customer's cart with what a hold decides from: stock, price, the flight's seats. */
export interface CartSeatLine {
  flightId: string;
  amount: number;
  priceCents: number;
  tickets: number;
  deleted: boolean;
  /** "Origin → Destination", for messages. */
  route: string;
  /** Seats of other customers' active holds on the flight. */
  heldByOthers: number;
  /** Seats sold (sales of orders not cancelled). */
  sold: number;
}

/**
 * The customer's server-side cart with each flight's stock and seats, read after its flights
 * were locked: what the hold takes is decided from these numbers in the same transaction.
 */
export async function readCartSeats(tx: Tx, userId: string): Promise<CartSeatLine[]> {
  return tx<CartSeatLine[]>`
    SELECT c.flight_id AS "flightId", c.amount, f.price_cents AS "priceCents", f.tickets, f.deleted,
           f.origin || ' → ' || f.destination AS route,
           coalesce((SELECT sum(l.amount) FROM seat_hold_lines l JOIN seat_holds h ON h.id = l.hold_id
                     WHERE l.flight_id = c.flight_id AND h.status = 'active' AND h.user_id <> ${userId}), 0)::int8
             AS "heldByOthers",
           coalesce((SELECT sum(s.amount) FROM sales s WHERE s.flight_id = c.flight_id AND NOT s.deleted), 0)::int8
             AS sold
    FROM cart_lines c JOIN flights f ON f.id = c.flight_id
    WHERE c.user_id = ${userId} AND NOT c.deleted
    ORDER BY c.flight_id`;
}

/** The customer's cart lines (flight, amount), in flight order. */
export async function readCartLines(
  tx: Tx,
  userId: string,
): Promise<{ flightId: string; amount: number }[]> {
  return tx<{ flightId: string; amount: number }[]>`
    SELECT flight_id AS "flightId", amount FROM cart_lines
    WHERE user_id = ${userId} AND NOT deleted ORDER BY flight_id`;
}

/**
 * Takes `lines` out of the flights' stock (the order transaction's guarded decrement: never below
 * zero, never a deleted flight), and prices them as taken, under the rows' locks. Fewer lines
 * back than asked means some flight is short: the caller rolls back.
 */
export async function takeSeats(
  tx: Tx,
  lines: readonly { flightId: string; amount: number }[],
): Promise<HoldLine[]> {
  return tx<HoldLine[]>`
    UPDATE flights f SET tickets = f.tickets - l.amount, updated_at = now()
    FROM unnest(${lines.map((l) => l.flightId)}::uuid[], ${lines.map((l) => l.amount)}::int[]) AS l(id, amount)
    WHERE f.id = l.id AND NOT f.deleted AND f.tickets >= l.amount
    RETURNING f.id AS "flightId", l.amount, f.price_cents AS "unitPriceCents"`;
}

export async function insertHold(
  tx: Tx,
  hold: {
    userId: string;
    idempotencyKey: string | null;
    lines: readonly HoldLine[];
    totals: Totals;
    ttlMs: number;
  },
): Promise<Hold> {
  // One statement (the flights' rows are locked meanwhile: every round trip counts).
  const [row] = await tx<HoldRow[]>`
    WITH new_hold AS (
      INSERT INTO seat_holds (user_id, idempotency_key, subtotal_cents, fee_cents, total_cents, expires_at)
      VALUES (${hold.userId}, ${hold.idempotencyKey}, ${hold.totals.subtotalCents}, ${hold.totals.feeCents},
              ${hold.totals.totalCents}, now() + ${hold.ttlMs} * interval '1 millisecond')
      RETURNING *
    ), new_lines AS (
      INSERT INTO seat_hold_lines (hold_id, flight_id, amount, unit_price_cents)
      SELECT h.id, l.* FROM new_hold h,
        unnest(${hold.lines.map((l) => l.flightId)}::uuid[], ${hold.lines.map((l) => l.amount)}::int[],
               ${hold.lines.map((l) => l.unitPriceCents)}::bigint[]) AS l(flight_id, amount, price)
    )
    SELECT h.*, greatest(0, floor(extract(epoch FROM h.expires_at - now()) * 1000))::int8 AS expires_in_ms
    FROM new_hold h`;
  return { ...row!, lines: [...hold.lines].sort((a, b) => (a.flightId < b.flightId ? -1 : 1)) };
}

/** The flights of holds, to lock before their seats move. */
export async function holdFlightIds(tx: Tx, holdIds: readonly string[]): Promise<string[]> {
  const rows = await tx<{ flight_id: string }[]>`
    SELECT DISTINCT flight_id FROM seat_hold_lines WHERE hold_id = ANY(${holdIds as string[]}::uuid[])`;
  return rows.map((row) => row.flight_id);
}

/**
 * Gives the seats of those `holdIds` that are still active back to their flights and marks them
 * released, in one statement. The caller has locked their flights (holdFlightIds, lockFlights). A
 * hold already consumed or released is left alone, so seats go back exactly once however many
 * releases race (the status test is re-checked on the locked row). Returns the ids released.
 */
export async function releaseHolds(
  tx: Tx,
  holdIds: readonly string[],
  reason: 'expired' | 'cancelled' | 'replaced',
  options: { onlyExpired?: boolean } = {},
): Promise<string[]> {
  if (holdIds.length === 0) return [];
  const rows = await tx<{ id: string }[]>`
    WITH released AS (
      UPDATE seat_holds SET status = 'released', released_at = now(), release_reason = ${reason}
      WHERE id = ANY(${holdIds as string[]}::uuid[]) AND status = 'active'
        ${options.onlyExpired ? tx`AND expires_at <= now()` : tx``}
      RETURNING id
    ), back AS (
      SELECT l.flight_id, sum(l.amount) AS seats
      FROM seat_hold_lines l JOIN released r ON r.id = l.hold_id
      GROUP BY l.flight_id
    ), restocked AS (
      UPDATE flights f SET tickets = f.tickets + back.seats, updated_at = now()
      FROM back WHERE f.id = back.flight_id
      RETURNING f.id
    )
    SELECT id FROM released`;
  return rows.map((row) => row.id);
}

/** Advisory lock of the release job: one instance at a time runs a pass (others skip theirs). */
const RELEASE_JOB_LOCK = 'skyport:seat-hold-release';

/**
 * One pass of the release job: expired active holds, oldest first, at most `limit`, their seats
 * back on sale. Runs only where it takes the job's transaction-level advisory lock (another
 * instance's pass is running: this one returns at once), and takes the holds with
 * `FOR UPDATE SKIP LOCKED` after their flights, so it never waits behind a checkout paying one.
 */
export async function releaseExpiredHolds(
  tx: postgres.TransactionSql,
  limit: number,
): Promise<{ ran: boolean; released: string[] }> {
  const [lock] = await tx<{ locked: boolean }[]>`
    SELECT pg_try_advisory_xact_lock(hashtext(${RELEASE_JOB_LOCK})) AS locked`;
  if (!lock?.locked) return { ran: false, released: [] };
  const due = await tx<{ id: string }[]>`
    SELECT id FROM seat_holds WHERE status = 'active' AND expires_at <= now()
    ORDER BY expires_at LIMIT ${limit}`;
  if (due.length === 0) return { ran: true, released: [] };
  const ids = due.map((row) => row.id);
  await lockFlights(tx, { ids: await holdFlightIds(tx, ids) });
  const lockable = await tx<{ id: string }[]>`
    SELECT id FROM seat_holds WHERE id = ANY(${ids}::uuid[]) AND status = 'active'
    ORDER BY id FOR UPDATE SKIP LOCKED`;
  const released = await releaseHolds(
    tx,
    lockable.map((row) => row.id),
    'expired',
    { onlyExpired: true },
  );
  return { ran: true, released };
}

export function totalsOf(lines: readonly HoldLine[]): Totals {
  return calculateTotals(lines);
}
