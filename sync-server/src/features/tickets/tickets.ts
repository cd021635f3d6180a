import { randomUUID, type KeyObject } from 'node:crypto';
import { createLocalJWKSet, errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import {
  TICKET_ALGORITHM,
  TICKET_ISSUER,
  TICKET_NAME_MAX_LENGTH,
  TICKET_TYPE,
  TicketClaimsSchema,
  type TicketClaims,
  type TicketJwks,
  type TicketStatusResponse,
} from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import type { Logger } from '../../lib/logger.ts';
import { generateSigningKey, openSigningKey } from './keys.ts';
import {
  insertFirstKey,
  insertTickets,
  rotateKey,
  selectCurrentKey,
  selectPublishedKeys,
  selectTicketStatus,
  selectLinesToTicket,
  selectUnticketedLines,
  type NewTicket,
  type Queryable,
  type SigningKeyRow,
  type UnticketedLine,
} from './queries.ts';
import type { Jobs } from '../../lib/job-queue.ts';

/**
 * Signed e-tickets (issue 17, docs/decisions/014-signed-tickets.md): one compact JWS per line of a
 * confirmed order, signed with the current Ed25519 key, stored once and never re-signed.
 *
 * - `signForPayment` signs an order's tickets as soon as it is written (its reads go in the order
 *   statement's round trip, checkout/queries.ts `writeOrder`), and the checkout's confirmation
 *   stores them in its transaction (`markCaptured`): the order and its tickets commit together,
 *   and a ticket that cannot be signed (a key that cannot be opened) never stops an order from
 *   being confirmed: it is logged and `issueMissing` issues it later (main.ts, at start and every
 *   few minutes).
 * - Keys: `ensureKey` creates the first one (safe with instances starting at once), `rotate`
 *   retires the current one; retired keys stay published while their tickets are unexpired.
 * - A ticket is `void` once its order is cancelled (migration 013's trigger); `check` says so.
 */

export interface TicketServiceDeps {
  sql: Sql;
  logger: Logger;
  /** TICKET_KEY_SECRET: seals new private keys and opens sealed ones. */
  secret?: string | undefined;
}

/** What the server says of a pasted ticket (`POST /api/tickets/verify`). */
export type TicketCheck = TicketStatusResponse & { claims: TicketClaims | null };

const cut = (value: string, max = 200) => (value.length > max ? value.slice(0, max) : value);

/** The claims of a line's ticket. */
function claimsOf(line: UnticketedLine, jti: string, issuedAt: number): TicketClaims {
  return TicketClaimsSchema.parse({
    iss: TICKET_ISSUER,
    jti,
    iat: issuedAt,
    exp: Number(line.expires_at),
    order: line.order_id,
    flight: line.flight_id,
    airline: cut(line.airline_name),
    from: cut(line.origin),
    to: cut(line.destination),
    date: line.departure_date,
    time: line.departure_hour,
    seats: line.amount,
    name: cut(line.passenger, TICKET_NAME_MAX_LENGTH),
  });
}

export function createTicketService(deps: TicketServiceDeps) {
  const { sql, logger, secret } = deps;
  // Opened private keys by id: a key never changes, so opening it once per instance is enough.
  const opened = new Map<string, KeyObject>();

  function signingKey(row: SigningKeyRow): KeyObject {
    let key = opened.get(row.kid);
    if (!key) {
      key = openSigningKey(row, secret);
      opened.set(row.kid, key);
    }
    return key;
  }

  /**
   * Creates the first signing key unless there is one. Instances starting at once each generate
   * a pair, and the unique index on the current key keeps exactly one (queries.ts).
   */
  async function ensureKey(): Promise<{ created: boolean }> {
    if (await selectCurrentKey(sql)) return { created: false };
    const created = await insertFirstKey(sql, await generateSigningKey(secret));
    if (created) logger.info('ticket signing key created');
    return { created };
  }

  async function currentKey(db: Queryable): Promise<SigningKeyRow> {
    let row = await selectCurrentKey(db);
    if (!row) {
      // Created through `db`, not the pool: `db` is usually the confirming transaction, and
      // asking the pool from inside it deadlocks once every connection is such a transaction
      // (500 buyers at once on a database no instance has started on). Concurrent inserts wait
      // on the unique current-key index, and the losers read the winner's key.
      if (await insertFirstKey(db, await generateSigningKey(secret))) {
        logger.info('ticket signing key created');
      }
      row = await selectCurrentKey(db);
    }
    if (!row) throw new Error('no current ticket signing key');
    return row;
  }

  /** The signed tickets of `lines`, with the key of `row`. */
  function sign(lines: readonly UnticketedLine[], row: SigningKeyRow): Promise<NewTicket[]> {
    const key = signingKey(row);
    const issuedAt = Math.floor(Date.now() / 1000);
    return Promise.all(
      lines.map(async (line) => {
        const id = randomUUID();
        const token = await new SignJWT(claimsOf(line, id, issuedAt))
          .setProtectedHeader({ alg: TICKET_ALGORITHM, kid: row.kid, typ: TICKET_TYPE })
          .sign(key);
        return {
          id,
          orderLineId: line.order_line_id,
          orderId: line.order_id,
          kid: row.kid,
          token,
          expiresAt: Number(line.expires_at),
        };
      }),
    );
  }

  /** Signs and stores the tickets of `orderIds`' lines (or of any confirmed order's) that have none. */
  async function issue(db: Queryable, orderIds: readonly string[] | 'any', limit?: number) {
    const lines = await selectUnticketedLines(db, orderIds, limit);
    if (lines.length === 0) return 0;
    return insertTickets(db, await sign(lines, await currentKey(db)));
  }

  /** The public key set (`GET /api/tickets/jwks.json`). */
  async function jwks(): Promise<TicketJwks> {
    return { keys: await selectPublishedKeys(sql) };
  }

  /** The server-side status of a ticket id. */
  async function status(jti: string): Promise<TicketStatusResponse> {
    const row = await selectTicketStatus(sql, jti);
    if (!row) return { jti, status: 'unknown', voidedAt: null };
    return { jti, status: row.status, voidedAt: row.voided_at?.getTime() ?? null };
  }

  return {
    ensureKey,

    /**
     * The signed tickets of the order payment `paymentId` wrote, for its confirmation to store
     * (checkout/queries.ts `markCaptured`). The lines and the current key are sent now, on `db`:
     * right behind the order statement (`writeOrder`), in its round trip. Never rejects: a failure
     * is logged and answers none, the order is confirmed without them, and `issueMissing` issues
     * them later.
     */
    async signForPayment(db: Queryable, paymentId: string): Promise<NewTicket[]> {
      try {
        const [lines, key] = await Promise.all([
          selectLinesToTicket(db, paymentId),
          selectCurrentKey(db),
        ]);
        return lines.length === 0 ? [] : await sign(lines, key ?? (await currentKey(db)));
      } catch (error) {
        logger.error({ err: error, paymentId }, 'tickets could not be signed; will retry');
        return [];
      }
    },

    /**
     * Issues the tickets every confirmed order still lacks (orders confirmed before tickets
     * existed, the demo's, or one whose signing failed), in batches. Answers how many.
     */
    async issueMissing(batch = 500): Promise<number> {
      let total = 0;
      for (;;) {
        const issued = await sql.begin((tx) => issue(tx, 'any', batch));
        total += issued;
        if (issued < batch) return total;
      }
    },

    /** Retires the current key and signs with a new one from now on. */
    async rotate(): Promise<{ kid: string; retired: string | null }> {
      const key = await generateSigningKey(secret);
      const retired = await rotateKey(sql, key);
      logger.info({ kid: key.kid, retired }, 'ticket signing key rotated');
      return { kid: key.kid, retired };
    },

    jwks,
    status,

    /**
     * Checks a pasted ticket: its signature against the published keys, its expiry, then its
     * status. A ticket that does not verify says only `invalid` (or `expired`).
     */
    async check(token: string): Promise<TicketCheck> {
      const keys = createLocalJWKSet(await jwks());
      let claims: TicketClaims;
      try {
        const { payload } = await jwtVerify(token, keys, {
          algorithms: [TICKET_ALGORITHM],
          issuer: TICKET_ISSUER,
          typ: TICKET_TYPE,
        });
        claims = TicketClaimsSchema.parse(payload);
      } catch (error) {
        const expired = error instanceof joseErrors.JWTExpired;
        return { jti: null, status: expired ? 'expired' : 'invalid', voidedAt: null, claims: null };
      }
      return { ...(await status(claims.jti)), claims };
    },
  };
}

export type TicketService = ReturnType<typeof createTicketService>;

/**
 * Schedules `tickets.issueMissing()` on the job queue every `intervalMs` (one pass at a time
 * cluster-wide; safe anyway: a line keeps the first ticket stored for it).
 */
export function startTicketBackfill(
  jobs: Jobs,
  tickets: TicketService,
  logger: Logger,
  intervalMs = 5 * 60_000,
): void {
  jobs.define(
    'ticket-backfill',
    async () => {
      const issued = await tickets.issueMissing();
      if (issued > 0) logger.info({ issued }, 'tickets issued for confirmed orders');
    },
    { retryLimit: 2, expireInSeconds: 10 * 60 },
  );
  jobs.every('ticket-backfill', intervalMs);
}
