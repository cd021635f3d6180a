import { expect, test } from 'vitest';
import { z } from 'zod';
import { REVIEW_COMMENT_MAX_LENGTH } from './replication.ts';
import {
  CreateReviewBodySchema,
  isReviewFormIncomplete,
  REVIEW_INPUT_COMMENT_MAX_LENGTH,
  ReviewDraftSchema,
  ReviewFormSchema,
  UpdateReviewBodySchema,
} from './review-input.ts';

const ID = '00000000-0000-4000-8000-000000000001';
const valid = { name: 'Ana', rating: 4, comment: 'Smooth flight' };
/** What a review body names besides the review: the airline, the flight and the order. */
const reviewed = { airlineId: ID, flightId: ID, orderId: ID };
/** A review draft's own ids: the draft, its order line's order and flight. */
const draftIds = { id: ID, orderId: ID, flightId: ID };

function fieldErrors(result: ReturnType<typeof ReviewFormSchema.safeParse>) {
  return result.success ? {} : z.flattenError(result.error).fieldErrors;
}

test('a filled review form parses with its text trimmed', () => {
  expect(ReviewFormSchema.parse({ name: '  Ana ', rating: 5, comment: ' Great ' })).toEqual({
    name: 'Ana',
    rating: 5,
    comment: 'Great',
  });
});

test('a missing or blank name says "Enter a name"', () => {
  for (const name of [undefined, null, '', '   ']) {
    expect(fieldErrors(ReviewFormSchema.safeParse({ ...valid, name })).name).toEqual([
      'Enter a name',
    ]);
  }
});

test('a missing rating says "Enter a rating value"', () => {
  for (const rating of [undefined, null, Number.NaN, '4', '']) {
    expect(fieldErrors(ReviewFormSchema.safeParse({ ...valid, rating })).rating).toEqual([
      'Enter a rating value',
    ]);
  }
});

test('a rating outside 1 to 5 says "Rating value must be between 0 and 5"', () => {
  for (const rating of [0, -1, -1.5, 6, 10, 7.5]) {
    expect(fieldErrors(ReviewFormSchema.safeParse({ ...valid, rating })).rating).toEqual([
      'Rating value must be between 0 and 5',
    ]);
  }
});

test('a rating that is not whole is out of range', () => {
  expect(fieldErrors(ReviewFormSchema.safeParse({ ...valid, rating: 3.5 })).rating).toEqual([
    'Rating value must be between 0 and 5',
  ]);
});

test('every whole rating from 1 to 5 is accepted', () => {
  for (const rating of [1, 2, 3, 4, 5]) {
    expect(ReviewFormSchema.safeParse({ ...valid, rating }).success).toBe(true);
  }
});

test('a missing or blank comment says "Enter a comment"', () => {
  for (const comment of [undefined, '', '\n\t ']) {
    expect(fieldErrors(ReviewFormSchema.safeParse({ ...valid, comment })).comment).toEqual([
      'Enter a comment',
    ]);
  }
});

test('an empty form reports all three messages at once', () => {
  expect(fieldErrors(ReviewFormSchema.safeParse({}))).toEqual({
    name: ['Enter a name'],
    rating: ['Enter a rating value'],
    comment: ['Enter a comment'],
  });
});

test('a name longer than 40 characters is refused', () => {
  const result = ReviewFormSchema.safeParse({ ...valid, name: 'a'.repeat(41) });
  expect(fieldErrors(result).name).toEqual(['Please complete all fields correctly']);
  expect(ReviewFormSchema.safeParse({ ...valid, name: 'a'.repeat(40) }).success).toBe(true);
});

test('a comment longer than the limit is refused', () => {
  const comment = 'a'.repeat(REVIEW_INPUT_COMMENT_MAX_LENGTH + 1);
  expect(ReviewFormSchema.safeParse({ ...valid, comment }).success).toBe(false);
});

test('the comment limit matches what a review draft document can store', () => {
  expect(REVIEW_INPUT_COMMENT_MAX_LENGTH).toBe(REVIEW_COMMENT_MAX_LENGTH);
});

test('a form with a blank field is incomplete, one with a bad rating is not', () => {
  expect(isReviewFormIncomplete(valid)).toBe(false);
  expect(isReviewFormIncomplete({ ...valid, name: ' ' })).toBe(true);
  expect(isReviewFormIncomplete({ ...valid, rating: null })).toBe(true);
  expect(isReviewFormIncomplete({ ...valid, rating: Number.NaN })).toBe(true);
  expect(isReviewFormIncomplete({ ...valid, comment: undefined })).toBe(true);
  expect(isReviewFormIncomplete({ ...valid, rating: 9 })).toBe(false);
});

test('a review body names the airline, flight and order and defaults moreInfo to empty', () => {
  const body = CreateReviewBodySchema.parse({ ...valid, ...reviewed });
  expect(body.moreInfo).toEqual([]);
});

test('a review body without its order is refused', () => {
  const { orderId: _orderId, ...withoutOrder } = reviewed;
  expect(CreateReviewBodySchema.safeParse({ ...valid, ...withoutOrder }).success).toBe(false);
});

test('a review body keeps moreInfo entries of flight name, origin and destination', () => {
  const moreInfo = [{ flightName: 'AR 1140', origin: 'Argentina', destination: 'Chile' }];
  const body = CreateReviewBodySchema.parse({ ...valid, ...reviewed, moreInfo });
  expect(body.moreInfo).toEqual(moreInfo);
});

test('a review update changes at least one field under the same rules', () => {
  expect(UpdateReviewBodySchema.parse({ id: ID, rating: 2 })).toEqual({ id: ID, rating: 2 });
  expect(UpdateReviewBodySchema.safeParse({ id: ID }).success).toBe(false);
  expect(UpdateReviewBodySchema.safeParse({ id: ID, rating: 7 }).success).toBe(false);
  expect(UpdateReviewBodySchema.safeParse({ id: ID, name: ' ' }).success).toBe(false);
});

test('a review draft document passes when its fields follow the review rules', () => {
  const doc = { ...valid, ...draftIds, userId: ID, status: 'pending', reason: null };
  expect(ReviewDraftSchema.parse(doc)).toEqual({ ...valid, ...draftIds });
});

test('a review draft with no rating is refused with "Enter a rating value"', () => {
  const result = ReviewDraftSchema.safeParse({ ...valid, rating: null, ...draftIds });
  expect(result.success).toBe(false);
  if (!result.success) expect(result.error.issues[0]?.message).toBe('Enter a rating value');
});
