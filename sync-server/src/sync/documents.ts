import {
  SYNC_COLLECTION_INFO,
  type ReplicationCheckpoint,
  type SyncCollectionName,
  type SyncDoc,
  type WithDeletedFlag,
} from '@skyport/shared';
import type postgres from 'postgres';
import type { Sql } from '../db/client.ts';
import { FLIGHT_WIRE_COLUMNS } from '../db/flight-row.ts';

/** The pool or a transaction: every query here runs on either. */
export type Queryable = Sql | postgres.TransactionSql;

/**
 * The replicated documents as SQL reads them: one query per collection that lists the rows of a
 * partition after a revision, oldest first, already shaped as the wire document (camelCase,
 * cents, `yyyy-mm-dd` dates, `hh:mm` hours, times in ms). Tombstones (`deleted`) are included:
 * that is how a client learns that a row is gone.
 *
 * A document's position is `(txid, revision)`: the transaction that last wrote the row and the
 * row's revision (010 migration). Only rows whose transaction is below the replication watermark
 * are sent, so "position greater than the checkpoint's" is the whole pagination condition; the
 * checkpoint's id only names the last document for RxDB.
 */

/**
 * A row as the change queries return it: the document fields plus `revision` and `deleted`.
 * Orders that are not confirmed (payment not captured, or cancelled) and their sales are shown to
 * nobody, so they replicate as tombstones until they are confirmed (005/006 migrations).
 */
type ChangeRow = Record<string, unknown> & {
  revision: number;
  deleted: boolean;
  id: string;
  txid?: number;
  settled?: boolean;
};

/** Where a replication reader stands: after this position (010 migration). */
export interface ReplicationPosition {
  tx: number;
  revision: number;
}

/** The position of a checkpoint (none: before the first row). */
export function positionOf(checkpoint: Pick<ReplicationCheckpoint, 'tx' | 'revision'> | null) {
  return { tx: checkpoint?.tx ?? 0, revision: checkpoint?.revision ?? 0 };
}

/** Documents after a position, and the checkpoint of the last one. */
export interface ChangeBatch<C extends SyncCollectionName> {
  documents: WithDeletedFlag<SyncDoc<C>>[];
  /** The checkpoint after the last document, or null when there is none. */
  last: ReplicationCheckpoint | null;
  /**
   * Whether committed rows past the last document wait for the watermark (a transaction with a
   * smaller txid was still running): they come with a later read.
   */
  heldBack: boolean;
  /**
   * For the collections devices push to: each document's revision, in the same order. A device
   * drops a pulled state older than what the server accepted from it (a late echo,
   * docs/architecture.md §4.6); the documents themselves stay as they were.
   */
  revisions?: number[];
}

/** The table behind each collection (what the change notifications name). */
export const COLLECTION_TABLES: Readonly<Record<SyncCollectionName, string>> = {
  flights: 'flights',
  airlines: 'airlines',
  reviews: 'reviews',
  favourites: 'favourites',
  cart: 'cart_lines',
  preferences: 'preferences',
  reviewDrafts: 'review_drafts',
  orders: 'orders',
  sales: 'sales',
};

const ms = (column: string) => `(extract(epoch FROM ${column}) * 1000)::int8`;
const day = (column: string) => `to_char(${column}, 'YYYY-MM-DD')`;
const hour = (column: string) => `to_char(${column}, 'HH24:MI')`;

/**
 * A cart line's or favourite's `flightDeleted`: true when its flight has left the catalogue, else
 * SQL NULL, which `toDocument` leaves out. So the documents of live flights are exactly what they
 * were before the field existed (older clients and their pushes see no difference), and a deleted
 * flight's lines and favourites say so (they get a new revision when it is deleted: 009
 * migration). A deleted flight's cart line also shows `tickets` 0, as `GET /api/cart` does, so a
 * client that does not know the field still cannot add tickets to it.
 */
const FLIGHT_DELETED = `CASE WHEN f.deleted THEN true END AS "flightDeleted"`;
/**
 * A user's row about one flight (a favourite, a cart line, both keyed by the flight) with the
 * server's summary of that flight, joined as `f`.
 */
const flightLine = (alias: string) =>
  `${alias}.flight_id AS id, ${alias}.user_id AS "userId", ${alias}.flight_id AS "flightId",
      f.airline_id AS "airlineId", f.airline_name AS "airlineName", f.origin, f.destination,
      f.price_cents AS "priceCents", f.logo, ${hour('f.departure_hour')} AS "departureHour",
      ${hour('f.arrival_hour')} AS "arrivalHour"`;

/**
 * The queries below are built from constant text per collection, so each connection prepares
 * each of them once (postgres.js leaves `unsafe` queries unprepared by default: parsed and
 * planned on every call).
 */
const PREPARED = { prepare: true } as const;

/** Optional document fields: left out of the document when SQL gives NULL. */
const OPTIONAL_FIELDS = ['flightDeleted'] as const;

/**
 * SELECT list (document fields), FROM clause and partition column of each collection. Written as
 * constant SQL text: only the partition value, revision and limit are parameters.
 */
const QUERIES: Readonly<
  Record<
    SyncCollectionName,
    {
      select: string;
      from: string;
      partitionColumn?: string;
      revisionColumn: string;
      txColumn: string;
    }
  >
> = {
  flights: {
    select: `${FLIGHT_WIRE_COLUMNS}, f.revision, f.deleted`,
    from: 'flights f',
    revisionColumn: 'f.revision',
    txColumn: 'f.txid',
  },
  airlines: {
    select: `a.id, a.name, a.owner_user_id AS "userId", a.image, a.revision, a.deleted`,
    from: 'airlines a',
    revisionColumn: 'a.revision',
    txColumn: 'a.txid',
  },
  reviews: {
    select: `r.id, r.rating::int AS rating, r.comment, r.name, r.airline_id AS "airlineId",
      r.flight_id AS "flightId", r.order_id AS "orderId", r.more_info AS "moreInfo",
      ${ms('r.created_at')} AS "createdAt", r.revision, r.deleted`,
    from: 'reviews r',
    revisionColumn: 'r.revision',
    txColumn: 'r.txid',
  },
  favourites: {
    select: `${flightLine('fv')}, ${day('f.departure_date')} AS "departureDate",
      ${ms('fv.created_at')} AS "createdAt", ${FLIGHT_DELETED}, fv.revision, fv.deleted`,
    from: 'favourites fv JOIN flights f ON f.id = fv.flight_id',
    partitionColumn: 'fv.user_id',
    revisionColumn: 'fv.revision',
    txColumn: 'fv.txid',
  },
  cart: {
    select: `${flightLine('c')}, CASE WHEN f.deleted THEN 0 ELSE f.tickets END AS tickets,
      c.amount, ${FLIGHT_DELETED}, c.revision, c.deleted`,
    from: 'cart_lines c JOIN flights f ON f.id = c.flight_id',
    partitionColumn: 'c.user_id',
    revisionColumn: 'c.revision',
    txColumn: 'c.txid',
  },
  preferences: {
    select: `p.user_id AS id, p.user_id AS "userId", p.theme, p.revision, p.deleted`,
    from: 'preferences p',
    partitionColumn: 'p.user_id',
    revisionColumn: 'p.revision',
    txColumn: 'p.txid',
  },
  reviewDrafts: {
    select: `d.id, d.user_id AS "userId", d.order_id AS "orderId", d.flight_id AS "flightId",
      d.rating::int AS rating, d.name, d.comment, d.status, d.reason, d.revision, d.deleted`,
    from: 'review_drafts d',
    partitionColumn: 'd.user_id',
    revisionColumn: 'd.revision',
    txColumn: 'd.txid',
  },
  orders: {
    select: `o.id, o.user_id AS "userId", o.payment_id AS idpurchase,
      to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS creationdate,
      o.total_cents AS "priceCents",
      coalesce((
        SELECT json_agg(json_strip_nulls(json_build_object(
          'id', l.id, 'flightId', l.flight_id, 'airlineId', l.airline_id, 'amount', l.amount,
          'valueCents', l.unit_price_cents, 'review', l.reviewed,
          'moreinfo', json_build_object('origin', l.origin, 'destination', l.destination,
            'arrivalHour', ${hour('l.arrival_hour')}, 'departureHour', ${hour('l.departure_hour')}),
          -- The signed e-ticket (013 migration), absent until issued: nothing else here is null.
          'ticket', (SELECT t.token FROM tickets t WHERE t.order_line_id = l.id)))
          ORDER BY l.id)
        FROM order_lines l WHERE l.order_id = o.id), '[]'::json) AS stocks,
      o.revision, (o.deleted OR o.status <> 'confirmed') AS deleted`,
    from: 'orders o',
    partitionColumn: 'o.user_id',
    revisionColumn: 'o.revision',
    txColumn: 'o.txid',
  },
  sales: {
    // The flight as sold: the order line's snapshot (016 migration), whatever became of the flight.
    select: `s.id, s.airline_id AS "airlineId", s.flight_id AS "idFlight", s.unit_price_cents AS "priceCents",
      s.amount, ${ms('s.created_at')} AS "createdAt",
      json_build_object('origin', l.origin, 'destination', l.destination,
        'departureDate', ${day('l.departure_date')}, 'departureHour', ${hour('l.departure_hour')}) AS flight,
      s.revision,
      (s.deleted OR o.deleted OR o.status <> 'confirmed') AS deleted`,
    from: 'sales s JOIN order_lines l ON l.id = s.order_line_id JOIN orders o ON o.id = l.order_id',
    partitionColumn: 's.airline_id',
    revisionColumn: 's.revision',
    txColumn: 's.txid',
  },
};

function toDocument<C extends SyncCollectionName>(row: ChangeRow): WithDeletedFlag<SyncDoc<C>> {
  const { revision: _revision, txid: _txid, settled: _settled, deleted, ...fields } = row;
  for (const field of OPTIONAL_FIELDS) if (fields[field] === null) delete fields[field];
  return { ...fields, _deleted: deleted } as WithDeletedFlag<SyncDoc<C>>;
}

/**
 * The documents of one partition (`null` for a public collection) after a position, oldest first,
 * at most `limit` of them, stopping before the first row above the replication watermark.
 *
 * The rows are read past the watermark too (with `settled` false), in the same statement and so
 * the same snapshot: their presence is what `heldBack` reports, so that a live feed knows to read
 * again when the watermark has moved. Rows sort by txid first, so the settled ones are a prefix.
 */
export async function selectChanges<C extends SyncCollectionName>(
  sql: Queryable,
  collection: C,
  partition: string | null,
  after: Pick<ReplicationCheckpoint, 'tx' | 'revision'> | null,
  limit: number,
): Promise<ChangeBatch<C>> {
  const query = QUERIES[collection];
  const position = positionOf(after);
  const where = query.partitionColumn
    ? `${query.partitionColumn} = $1 AND (${query.txColumn}, ${query.revisionColumn}) > ($2, $3)`
    : `(${query.txColumn}, ${query.revisionColumn}) > ($2, $3) AND $1::text IS NULL`;
  const rows = await sql.unsafe<ChangeRow[]>(
    `SELECT ${query.select}, ${query.txColumn} AS txid,
       ${query.txColumn} < (SELECT replication_watermark()) AS settled
     FROM ${query.from} WHERE ${where}
     ORDER BY ${query.txColumn}, ${query.revisionColumn} LIMIT $4`,
    [partition, position.tx, position.revision, limit],
    PREPARED,
  );
  const settledCount = rows.findIndex((row) => !row.settled);
  const settled = settledCount === -1 ? rows : rows.slice(0, settledCount);
  const lastRow = settled.at(-1);
  return {
    documents: settled.map((row) => toDocument<C>(row)),
    last: lastRow ? checkpointOf(lastRow) : null,
    heldBack: settled.length < rows.length,
    ...(SYNC_COLLECTION_INFO[collection].writable && {
      revisions: settled.map((row) => Number(row.revision)),
    }),
  };
}

function checkpointOf(row: ChangeRow): ReplicationCheckpoint {
  return { tx: row.txid ?? 0, revision: row.revision, id: String(row.id) };
}

/** Documents by id within a partition, tombstones included, keyed by id (absent ids are missing). */
export async function selectDocuments<C extends SyncCollectionName>(
  sql: Queryable,
  collection: C,
  partition: string | null,
  ids: readonly string[],
): Promise<Map<string, WithDeletedFlag<SyncDoc<C>>>> {
  const query = QUERIES[collection];
  const idColumn = ID_COLUMNS[collection];
  const where = query.partitionColumn
    ? `${query.partitionColumn} = $1 AND ${idColumn} = ANY($2::uuid[])`
    : `$1::text IS NULL AND ${idColumn} = ANY($2::uuid[])`;
  const rows = await sql.unsafe<ChangeRow[]>(
    `SELECT ${query.select} FROM ${query.from} WHERE ${where}`,
    [partition, ids as string[]],
    PREPARED,
  );
  return new Map(rows.map((row) => [String(row.id), toDocument<C>(row)]));
}

/** The column a document's id comes from. */
const ID_COLUMNS: Readonly<Record<SyncCollectionName, string>> = {
  flights: 'f.id',
  airlines: 'a.id',
  reviews: 'r.id',
  favourites: 'fv.flight_id',
  cart: 'c.flight_id',
  preferences: 'p.user_id',
  reviewDrafts: 'd.id',
  orders: 'o.id',
  sales: 's.id',
};

/**
 * The position of a partition's last settled row (before the first row when it has none): where
 * a live feed starts.
 */
export async function selectHead(
  sql: Sql,
  collection: SyncCollectionName,
  partition: string | null,
): Promise<ReplicationPosition> {
  const query = QUERIES[collection];
  const where = query.partitionColumn ? `${query.partitionColumn} = $1` : `$1::text IS NULL`;
  const [row] = await sql.unsafe<{ tx: number; revision: number }[]>(
    `SELECT ${query.txColumn} AS tx, ${query.revisionColumn} AS revision FROM ${query.from}
     WHERE ${where} AND ${query.txColumn} < (SELECT replication_watermark())
     ORDER BY ${query.txColumn} DESC, ${query.revisionColumn} DESC LIMIT 1`,
    [partition],
    PREPARED,
  );
  return row ?? { tx: 0, revision: 0 };
}
