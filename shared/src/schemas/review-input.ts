import { z } from 'zod';
import { text } from './text.ts';
import { NAME_MAX_LENGTH, RATING_MAX, RATING_MIN } from '../constants.ts';
import { messages } from '../messages.ts';
import { IdSchema } from './common.ts';
import { ReviewMoreInfoSchema } from './review.ts';

/**
 * What a customer writes in the review modal (spec §2 Review modal, §5 Review) and the bodies
 * that carry it: `POST /comments`, `PUT /comments` and the offline review draft (design §4).
 * Every rule uses the §5 message: "Enter a name", "Enter a rating value", "Rating value must be
 * between 0 and 5" (the rating is a whole number from 1 to 5), "Enter a comment".
 */

/**
 * Longest review comment. Not in the spec: a bound so a body stays small. Equal to
 * `REVIEW_COMMENT_MAX_LENGTH` of replication.ts (a test checks it); not imported from there so
 * that the replication schemas may import these rules without an import cycle.
 */
export const REVIEW_INPUT_COMMENT_MAX_LENGTH = 2000;
/** Most `moreInfo` entries of a review. Not in the spec: one per flight of an order at most. */
export const REVIEW_MORE_INFO_MAX = 100;

/** "Users name": required after trimming, at most 40 characters like every name of the product. */
export const ReviewNameSchema = text({ error: messages.enterAName })
  .trim()
  .min(1, messages.enterAName)
  .max(NAME_MAX_LENGTH, messages.completeAllFieldsCorrectly);

/**
 * The star rating: missing (undefined, null, NaN, not a number) → "Enter a rating value";
 * a number that is not a whole 1 to 5 (0, 6, 3.5) → "Rating value must be between 0 and 5".
 */
export const ReviewRatingSchema = z
  .number({ error: messages.enterARating })
  .refine(
    (rating) => Number.isInteger(rating) && rating >= RATING_MIN && rating <= RATING_MAX,
    messages.ratingRange,
  );

/** "Your comment": required after trimming, at most `REVIEW_INPUT_COMMENT_MAX_LENGTH` characters. */
export const ReviewCommentSchema = text({ error: messages.enterAComment })
  .trim()
  .min(1, messages.enterAComment)
  .max(REVIEW_INPUT_COMMENT_MAX_LENGTH, messages.completeAllFieldsCorrectly);

/**
 * The review modal's fields. When it fails, the modal shows the field messages; on submit with a
 * field empty the spec shows "Oops..." / "Complete all fields!" (see `isReviewFormIncomplete`).
 */
export const ReviewFormSchema = z.object({
  name: ReviewNameSchema,
  rating: ReviewRatingSchema,
  comment: ReviewCommentSchema,
});
export type ReviewForm = z.infer<typeof ReviewFormSchema>;

/**
 * Whether a submit should show "Oops..." / "Complete all fields!": the name or comment is blank
 * or no rating was picked. A filled but out-of-range rating is not "incomplete".
 */
export function isReviewFormIncomplete(input: {
  readonly name?: string | null | undefined;
  readonly rating?: number | null | undefined;
  readonly comment?: string | null | undefined;
}): boolean {
  const blank = (text: string | null | undefined) => text == null || text.trim() === '';
  const noRating = input.rating == null || Number.isNaN(input.rating);
  return blank(input.name) || noRating || blank(input.comment);
}

/**
 * `POST /comments`: a review of one flight (and its airline) bought in one order. `moreInfo`
 * lists {flightName, origin, destination} as in spec §3. The server checks that the order is the
 * caller's, contains the flight and is not reviewed yet.
 */
export const CreateReviewBodySchema = z.object({
  ...ReviewFormSchema.shape,
  airlineId: IdSchema,
  flightId: IdSchema,
  orderId: IdSchema,
  moreInfo: z.array(ReviewMoreInfoSchema).max(REVIEW_MORE_INFO_MAX).default([]),
});
export type CreateReviewBody = z.infer<typeof CreateReviewBodySchema>;

/** `PUT /comments`: changes the name, rating or comment of a review; at least one of them. */
export const UpdateReviewBodySchema = z
  .object({ id: IdSchema, ...ReviewFormSchema.partial().shape })
  .refine(
    (body) => body.name !== undefined || body.rating !== undefined || body.comment !== undefined,
    { message: messages.completeAllFields },
  );
export type UpdateReviewBody = z.infer<typeof UpdateReviewBodySchema>;

/**
 * The rules a queued review draft (design §4, `ReviewDraftDocSchema` in replication.ts) must pass
 * before the server turns it into a review. The draft document itself only bounds its fields, so
 * a draft with an empty name or no rating syncs, and the server refuses it with this schema's
 * first message ("Enter a name", "Enter a rating value", …), which the review modal shows.
 * Other fields of the document are ignored here.
 */
export const ReviewDraftSchema = z.object({
  id: IdSchema,
  orderId: IdSchema,
  flightId: IdSchema,
  ...ReviewFormSchema.shape,
});
