import {
  averageRatingOf,
  type CreateReviewBody,
  type Review,
  type UpdateReviewBody,
} from '@skyport/shared';
import type postgres from 'postgres';
import type { Sql } from '../../db/client.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';

interface ReviewRow {
  id: string;
  user_id: string | null;
  order_id: string | null;
  flight_id: string;
  airline_id: string;
  rating: number;
  name: string;
  comment: string;
  more_info: Review['moreInfo'];
  created_at: Date;
}

function toReview(row: ReviewRow): Review {
  return {
    id: row.id,
    rating: row.rating,
    comment: row.comment,
    name: row.name,
    airlineId: row.airline_id,
    flightId: row.flight_id,
    orderId: row.order_id,
    moreInfo: row.more_info,
    createdAt: row.created_at.getTime(),
  };
}

export interface ReviewResult {
  review: Review;
  /** Half-step averages (shared rule) after this review; null when there is none. */
  flightAverage: number | null;
  airlineAverage: number | null;
}

async function averages(sql: Sql, flightId: string, airlineId: string) {
  const rows = await sql<{ flight_id: string; rating: number }[]>`
    SELECT flight_id, rating FROM reviews WHERE airline_id = ${airlineId} AND NOT deleted`;
  return {
    flightAverage: averageRatingOf(rows.filter((r) => r.flight_id === flightId)),
    airlineAverage: averageRatingOf(rows),
  };
}

/** What a new review needs; `airlineId`, when the client names one, must be the flight's airline. */
export interface NewReview {
  orderId: string;
  flightId: string;
  airlineId?: string | undefined;
  rating: number;
  name: string;
  comment: string;
}

/**
 * A customer reviews a flight they bought (spec §4 "Order line review"): only the order's own
 * customer, only a paid order that contains the flight, once per order and flight. The review's
 * airline and "moreInfo" come from the order's snapshot, not from the client; every line of that
 * flight in the order becomes reviewed, and the order row is touched so that its revision moves
 * (order lines replicate with their order). Runs in the caller's transaction, which must hold the
 * replication lock: `submitReview` (POST /comments) and the sync review-draft push both do.
 * Every refusal is thrown before anything is written, so the caller's transaction stays usable.
 * @throws AppError NotFound, Forbidden (`not_owner`), NotFound (`not_bought`), BadRequest (airline)
 * or Conflict (`already_reviewed`).
 */
export async function insertReview(
  tx: postgres.TransactionSql | postgres.ReservedSql,
  userId: string,
  input: NewReview,
): Promise<Review> {
  const [order] = await tx<{ user_id: string }[]>`
    SELECT user_id FROM orders WHERE id = ${input.orderId} AND status = 'confirmed' AND NOT deleted`;
  if (!order) throw new AppError(ErrorCode.NotFound, 'Order not found');
  // Security: another customer's order is refused whatever the body says.
  if (order.user_id !== userId) {
    throw new AppError(ErrorCode.Forbidden, 'You can only review your own orders', {
      reason: 'not_owner',
    });
  }
  const lines = await tx<
    {
      airline_id: string;
      airline_name: string;
      origin: string;
      destination: string;
      reviewed: boolean;
    }[]
  >`
    SELECT airline_id, airline_name, origin, destination, reviewed FROM order_lines
    WHERE order_id = ${input.orderId} AND flight_id = ${input.flightId}
    FOR UPDATE`;
  const first = lines[0];
  if (!first)
    throw new AppError(ErrorCode.NotFound, 'This flight is not in that order', {
      reason: 'not_bought',
    });
  if (input.airlineId !== undefined && input.airlineId !== first.airline_id) {
    throw new AppError(ErrorCode.BadRequest, 'airlineId: not the airline of this flight');
  }
  const alreadyReviewed = () =>
    new AppError(ErrorCode.Conflict, 'This flight of this order is already reviewed', {
      reason: 'already_reviewed',
    });
  if (lines.some((l) => l.reviewed)) throw alreadyReviewed();
  const moreInfo = [
    { flightName: first.airline_name, origin: first.origin, destination: first.destination },
  ];
  // One review per order and flight: the unique index decides, without aborting the caller's
  // transaction.
  const [row] = await tx<ReviewRow[]>`
    INSERT INTO reviews (user_id, order_id, flight_id, airline_id, rating, name, comment, more_info)
    VALUES (${userId}, ${input.orderId}, ${input.flightId}, ${first.airline_id}, ${input.rating}, ${input.name},
            ${input.comment}, ${tx.json(moreInfo)})
    ON CONFLICT (order_id, flight_id) WHERE order_id IS NOT NULL DO NOTHING
    RETURNING *`;
  if (!row) throw alreadyReviewed();
  await tx`UPDATE order_lines SET reviewed = true WHERE order_id = ${input.orderId} AND flight_id = ${input.flightId}`;
  await tx`UPDATE orders SET deleted = deleted WHERE id = ${input.orderId}`;
  return toReview(row);
}

/** POST /comments: `insertReview` in a transaction of its own, with the averages after it. */
export async function submitReview(
  sql: Sql,
  userId: string,
  input: Omit<CreateReviewBody, 'moreInfo'> & { moreInfo?: unknown },
): Promise<ReviewResult> {
  const review = await sql.begin(async (tx) => {
    return insertReview(tx, userId, input);
  });
  return { review, ...(await averages(sql, review.flightId, review.airlineId)) };
}

/** The author edits their review's name, rating or comment; nobody else may. */
export async function editReview(
  sql: Sql,
  userId: string,
  input: UpdateReviewBody,
): Promise<ReviewResult> {
  const review = await sql.begin(async (tx) => {
    const [found] = await tx<{ user_id: string | null }[]>`
      SELECT user_id FROM reviews WHERE id = ${input.id} AND NOT deleted FOR UPDATE`;
    if (!found) throw new AppError(ErrorCode.NotFound, 'Review not found');
    if (found.user_id !== userId) {
      throw new AppError(ErrorCode.Forbidden, 'You can only edit your own reviews', {
        reason: 'not_owner',
      });
    }
    const [row] = await tx<ReviewRow[]>`
      UPDATE reviews SET
        name = coalesce(${input.name ?? null}, name),
        rating = coalesce(${input.rating ?? null}::smallint, rating),
        comment = coalesce(${input.comment ?? null}, comment),
        updated_at = now()
      WHERE id = ${input.id}
      RETURNING *`;
    return toReview(row!);
  });
  return { review, ...(await averages(sql, review.flightId, review.airlineId)) };
}
