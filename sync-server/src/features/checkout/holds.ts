import type postgres from 'postgres';
import { holdShareExceeded, messages, type SeatHold, type SeatHoldLine } from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import { beginRetryingDeadlocks, lockFlights, lockPartition } from '../../db/locks.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import type { Logger } from '../../lib/logger.ts';
import {
  readCartLines,
  findActiveHold,
  findHold,
  findHoldByKey,
  holdFlightIds,
  insertHold,
  readCartSeats,
  releaseExpiredHolds,
  releaseHolds,
  takeSeats,
  totalsOf,
  type CartSeatLine,
  type Hold,
  type HoldLine,
} from './hold-queries.ts';
import type { Jobs } from '../../lib/job-queue.ts';

/**
 * Seat holds (issue 17, docs/decisions/013-seat-holds.md): when a customer starts paying, the
 * server takes the cart's seats out of stock into a hold that expires; a checkout with the hold's
 * id then charges the hold's quote and its order transaction consumes the hold instead of taking
 * stock. Expired holds give their seats back through `releaseExpired`, run by every instance
 * (startHoldReleaser) and serialised by an advisory lock; its state is the `seat_holds` rows.
 */

export interface HoldSettings {
  /** How long a hold keeps its seats (SEAT_HOLD_SECONDS; 10 minutes by default). */
  ttlMs: number;
  /** The most of a flight's seats one customer may hold, in percent (SEAT_HOLD_MAX_SHARE_PERCENT). */
  maxSharePercent: number;
  /** How often the release job runs; none when unset (tests run `releaseExpired` themselves). */
  releaseEveryMs?: number | undefined;
}

export const defaultHoldSettings: HoldSettings = { ttlMs: 10 * 60_000, maxSharePercent: 50 };

/** At most this many holds are released per pass (the next pass takes the rest at once). */
const RELEASE_BATCH = 500;

/** The answer of `POST /api/checkout/hold` (shared SeatHoldSchema). */
export function holdView(hold: Hold): SeatHold {
  return {
    holdId: hold.id,
    status: hold.status,
    expiresAt: hold.expires_at.getTime(),
    expiresInMs: hold.status === 'active' ? hold.expires_in_ms : 0,
    lines: hold.lines.map((line): SeatHoldLine => ({
      flightId: line.flightId,
      amount: line.amount,
      unitPriceCents: Number(line.unitPriceCents),
    })),
    subtotalCents: hold.subtotal_cents,
    feeCents: hold.fee_cents,
    totalCents: hold.total_cents,
  };
}

const sameLines = (
  hold: { lines: readonly { flightId: string; amount: number }[] },
  cart: readonly { flightId: string; amount: number }[],
) =>
  hold.lines.length === cart.length &&
  hold.lines.every(
    (line, i) => line.flightId === cart[i]!.flightId && line.amount === cart[i]!.amount,
  );

/** The most seats of a flight of `seats` seats one customer may hold: at least one. */
export function holdShareLimit(seats: number, percent: number): number {
  return Math.max(1, Math.floor((seats * percent) / 100));
}

/** 409 "No stock available", naming the flights short of seats and what each has left. */
function noStock(short: readonly CartSeatLine[], own: ReadonlyMap<string, number>): AppError {
  return new AppError(ErrorCode.Conflict, messages.noStockAvailable, {
    reason: 'no_stock',
    flights: short.map((line) => ({
      flightId: line.flightId,
      tickets: line.deleted ? 0 : line.tickets + (own.get(line.flightId) ?? 0),
    })),
  });
}

/** Every line within the share of its flight's seats one customer may hold, or 409. */
function checkShareOf(
  cart: readonly CartSeatLine[],
  own: ReadonlyMap<string, number>,
  percent: number,
): void {
  for (const line of cart) {
    const seats = line.tickets + (own.get(line.flightId) ?? 0) + line.heldByOthers + line.sold;
    const most = holdShareLimit(seats, percent);
    if (!line.deleted && line.amount > most) {
      throw new AppError(ErrorCode.Conflict, holdShareExceeded(line.route, most, percent), {
        reason: 'hold_share_exceeded',
        flightId: line.flightId,
        most,
      });
    }
  }
}

/**
 * Holds the caller's server-side cart (see `createHolds().hold`). Before any lock: a replay answers
 * at once, and a cart the stock cannot cover is refused without queueing on its flights' rows (a
 * sold-out flight's buyers do not wait in line to hear it). `takeHold` decides again under the
 * locks.
 */
async function holdCart(
  sql: Sql,
  settings: HoldSettings,
  userId: string,
  idempotencyKey: string | undefined,
): Promise<{ hold: Hold; created: boolean }> {
  if (idempotencyKey !== undefined) {
    const replayed = await findHoldByKey(sql, userId, idempotencyKey);
    if (replayed) return { hold: replayed, created: false };
  }
  const [seen, ownHold] = await Promise.all([
    readCartSeats(sql, userId),
    findActiveHold(sql, userId),
  ]);
  const ownSeats = new Map((ownHold?.lines ?? []).map((line) => [line.flightId, line.amount]));
  const short = seen.filter(
    (line) => line.deleted || line.tickets + (ownSeats.get(line.flightId) ?? 0) < line.amount,
  );
  if (short.length > 0) throw noStock(short, ownSeats);
  return beginRetryingDeadlocks(sql, (tx) =>
    takeHold(tx, settings, { userId, idempotencyKey, seen, ownSeats }),
  );
}

/** The hold's transaction: the cart's seats taken under the customer's and the flights' locks. */
async function takeHold(
  tx: postgres.TransactionSql,
  settings: HoldSettings,
  request: {
    userId: string;
    idempotencyKey: string | undefined;
    /** The cart's seats as read before the locks. */
    seen: CartSeatLine[];
    /** The seats of the customer's active hold, by flight. */
    ownSeats: ReadonlyMap<string, number>;
  },
): Promise<{ hold: Hold; created: boolean }> {
  const { userId, idempotencyKey, seen, ownSeats } = request;
  // The customer's partition: their cart cannot change, and their other hold requests
  // wait, until this one has decided.
  await lockPartition(tx, userId);
  if (idempotencyKey !== undefined) {
    const replayed = await findHoldByKey(tx, userId, idempotencyKey);
    if (replayed) return { hold: replayed, created: false };
  }
  const [earlier, cartNow] = await Promise.all([
    findActiveHold(tx, userId),
    readCartLines(tx, userId),
  ]);
  if (cartNow.length === 0) {
    throw new AppError(ErrorCode.BadRequest, 'Your cart is empty', { reason: 'empty_cart' });
  }
  // The share cap, from the flights' seats (sold + held + left: holds and sales only move
  // seats between those, so a read before the locks is as good as one under them).
  const cart = sameLines({ lines: seen }, cartNow) ? seen : await readCartSeats(tx, userId);
  checkShareOf(cart, ownSeats, settings.maxSharePercent);
  if (earlier && earlier.expires_in_ms > 0 && sameLines(earlier, cartNow)) {
    return { hold: earlier, created: false };
  }
  // Flights' rows in id order before several change (a single one is locked by its
  // UPDATE), then the earlier hold again: the release job may have released it
  // meanwhile, and cannot from now on (it locks the flights first too).
  const flightIds = new Set(cartNow.map((line) => line.flightId));
  for (const line of earlier?.lines ?? []) flightIds.add(line.flightId);
  if (flightIds.size > 1) await lockFlights(tx, { ids: [...flightIds] });
  const current = earlier && (await findActiveHold(tx, userId));
  if (current) {
    await releaseHolds(tx, [current.id], current.expires_in_ms > 0 ? 'replaced' : 'expired');
  }
  const taken = await takeSeats(tx, cartNow);
  if (taken.length !== cartNow.length) {
    // Rolled back with the transaction: the earlier hold keeps its seats too.
    const got = new Set(taken.map((line) => line.flightId));
    throw noStock(
      cart.filter((line) => !got.has(line.flightId)),
      new Map((current?.lines ?? []).map((line) => [line.flightId, line.amount])),
    );
  }
  // Priced as the seats were taken, under their rows' locks.
  const lines: HoldLine[] = taken.sort((a, b) => (a.flightId < b.flightId ? -1 : 1));
  const hold = await insertHold(tx, {
    userId,
    idempotencyKey: idempotencyKey ?? null,
    lines,
    totals: totalsOf(lines),
    ttlMs: settings.ttlMs,
  });
  return { hold, created: true };
}

export function createHolds(deps: { sql: Sql; logger: Logger; settings: HoldSettings }) {
  const { sql, logger, settings } = deps;

  return {
    settings,

    /**
     * Holds the caller's server-side cart. A replay (the same Idempotency-Key) answers the hold
     * that key made, as it is now; an unexpired active hold of the same cart is answered as it is
     * too, whatever the key, so no request extends a hold. An active hold of another cart (or an
     * expired one the job has not released yet) is released in the same transaction.
     * @throws AppError 400 empty cart, 409 no stock / share exceeded (nothing changes).
     */
    hold(
      userId: string,
      idempotencyKey: string | undefined,
    ): Promise<{
      hold: Hold;
      created: boolean;
    }> {
      return holdCart(sql, settings, userId, idempotencyKey);
    },

    /**
     * The owner gives the seats back now. Another customer's hold is answered as an unknown one.
     * @throws AppError 404 unknown hold, 409 already paid for.
     */
    async cancel(userId: string, holdId: string): Promise<Hold> {
      return beginRetryingDeadlocks(sql, async (tx) => {
        const found = await findHold(tx, holdId);
        // Security: another customer's hold id is answered like an unknown one.
        if (!found || found.user_id !== userId) {
          throw new AppError(ErrorCode.NotFound, messages.holdNotFound);
        }
        await lockPartition(tx, userId);
        await lockFlights(tx, { ids: await holdFlightIds(tx, [holdId]) });
        await releaseHolds(tx, [holdId], 'cancelled');
        const hold = (await findHold(tx, holdId))!;
        if (hold.status === 'consumed') {
          throw new AppError(ErrorCode.Conflict, messages.holdAlreadyPaid, {
            reason: 'hold_consumed',
          });
        }
        return hold;
      });
    },

    /** One pass of the release job (see releaseExpiredHolds); safe on any number of instances. */
    async releaseExpired(): Promise<{ ran: boolean; released: number }> {
      let ran = false;
      let released = 0;
      // Until a pass finds fewer than a batch (or another instance is running one).
      for (;;) {
        const pass = await beginRetryingDeadlocks(sql, (tx) =>
          releaseExpiredHolds(tx, RELEASE_BATCH),
        );
        ran ||= pass.ran;
        released += pass.released.length;
        if (!pass.ran || pass.released.length < RELEASE_BATCH) break;
      }
      if (released > 0) logger.info({ released }, 'expired seat holds released');
      return { ran, released };
    },
  };
}

export type Holds = ReturnType<typeof createHolds>;

/**
 * Schedules `holds.releaseExpired()` on the job queue every `intervalMs` (one pass at a time
 * cluster-wide). The job keeps nothing in memory: any instance releases what is due.
 */
export function startHoldReleaser(jobs: Jobs, holds: Holds, intervalMs: number): void {
  jobs.define(
    'seat-hold-release',
    async () => {
      await holds.releaseExpired();
    },
    { retryLimit: 2, retryDelaySeconds: 1, expireInSeconds: 5 * 60 },
  );
  jobs.every('seat-hold-release', intervalMs);
}
