import { ReviewDraftSchema, messages, type ReviewDraftDoc } from '@skyport/shared';
import type { Queryable } from './documents.ts';

/** Why a review draft could not become a review, beyond the §5 field rules. */
export const REVIEW_DRAFT_REASONS = {
  /** The order is not the caller's, or has no line of that flight. */
  notYourOrder: messages.notAllowed,
  /** A review of that flight from that order exists already (the Review button is disabled then). */
  alreadyReviewed: 'This flight has already been reviewed',
} as const;

export type DraftOutcome = { status: 'accepted'; reviewId: string } | { status: 'rejected'; reason: string };


/**
 * Turns a review draft into a published review (spec §4 "Order line review"), inside the push's
 * transaction (so the draft's outcome and the review are written together): the §5 rules first
 * (the shared `ReviewDraftSchema`, first message wins), then the order must be the customer's,
 * confirmed, and contain the flight, not yet reviewed; then the review is inserted and every line
 * of that flight in the order is marked reviewed. The same rules as `submitReview` of
 * features/reviews (POST /comments), which runs its own transaction and so cannot be called from
 * inside this one. At most one review per order and flight: the unique index decides.
 */
export async function reviewFromDraft(sql: Queryable, userId: string, draft: ReviewDraftDoc): Promise<DraftOutcome> {
  const parsed = ReviewDraftSchema.safeParse(draft);
  if (!parsed.success) {
    return { status: 'rejected', reason: parsed.error.issues[0]?.message ?? messages.completeAllFields };
  }
  const input = parsed.data;
  const lines = await sql<{ airline_id: string; airline_name: string; origin: string; destination: string; reviewed: boolean }[]>`
    SELECT l.airline_id, l.airline_name, l.origin, l.destination, l.reviewed
    FROM order_lines l JOIN orders o ON o.id = l.order_id
    WHERE o.id = ${input.orderId} AND o.user_id = ${userId} AND o.status = 'confirmed' AND NOT o.deleted
      AND l.flight_id = ${input.flightId}
    ORDER BY l.id
    FOR UPDATE OF l`;
  const first = lines[0];
  if (!first) return { status: 'rejected', reason: REVIEW_DRAFT_REASONS.notYourOrder };
  if (lines.some((line) => line.reviewed)) return { status: 'rejected', reason: REVIEW_DRAFT_REASONS.alreadyReviewed };

  const moreInfo = [{ flightName: first.airline_name, origin: first.origin, destination: first.destination }];
  const inserted = await sql<{ id: string }[]>`
    INSERT INTO reviews (user_id, order_id, flight_id, airline_id, rating, name, comment, more_info)
    VALUES (${userId}, ${input.orderId}, ${input.flightId}, ${first.airline_id}, ${input.rating},
            ${input.name}, ${input.comment}, ${sql.json(moreInfo)})
    ON CONFLICT (order_id, flight_id) WHERE order_id IS NOT NULL DO NOTHING
    RETURNING id`;
  const review = inserted[0];
  if (!review) return { status: 'rejected', reason: REVIEW_DRAFT_REASONS.alreadyReviewed };
  await sql`
    UPDATE order_lines SET reviewed = true
    WHERE order_id = ${input.orderId} AND flight_id = ${input.flightId} AND NOT reviewed`;
  return { status: 'accepted', reviewId: review.id };
}
