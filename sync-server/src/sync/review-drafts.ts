import { ReviewDraftSchema, messages, type ReviewDraftDoc } from '@skyport/shared';
import type postgres from 'postgres';
import { insertReview } from '../features/reviews/queries.ts';
import { AppError, ErrorCode } from '../lib/errors.ts';

/** Why a review draft could not become a review, beyond the §5 field rules. */
export const REVIEW_DRAFT_REASONS = {
  /** The order is not the caller's, or has no line of that flight. */
  notYourOrder: messages.notAllowed,
  /** A review of that flight from that order exists already (the Review button is disabled then). */
  alreadyReviewed: 'This flight has already been reviewed',
} as const;

/** The draft's reason for each refusal of `insertReview`; any other error fails the push. */
const REASON_BY_CODE: Partial<Record<ErrorCode, string>> = {
  [ErrorCode.NotFound]: REVIEW_DRAFT_REASONS.notYourOrder,
  [ErrorCode.Forbidden]: REVIEW_DRAFT_REASONS.notYourOrder,
  [ErrorCode.Conflict]: REVIEW_DRAFT_REASONS.alreadyReviewed,
};

export type DraftOutcome =
  { status: 'accepted'; reviewId: string } | { status: 'rejected'; reason: string };

/**
 * Turns a review draft into a published review (spec §4 "Order line review"), inside the push's
 * transaction (so the draft's outcome and the review are written together): the §5 rules first
 * (the shared `ReviewDraftSchema`, first message wins), then the rules and writes of POST /comments
 * (`insertReview` of features/reviews), whose refusals become the draft's reason.
 */
export async function reviewFromDraft(
  tx: postgres.TransactionSql | postgres.ReservedSql,
  userId: string,
  draft: ReviewDraftDoc,
): Promise<DraftOutcome> {
  const parsed = ReviewDraftSchema.safeParse(draft);
  if (!parsed.success) {
    return {
      status: 'rejected',
      reason: parsed.error.issues[0]?.message ?? messages.completeAllFields,
    };
  }
  try {
    const review = await insertReview(tx, userId, parsed.data);
    return { status: 'accepted', reviewId: review.id };
  } catch (error) {
    const reason = error instanceof AppError ? REASON_BY_CODE[error.code] : undefined;
    if (reason === undefined) throw error;
    return { status: 'rejected', reason };
  }
}
