import type { CreateReviewBody } from '@skyport/shared';
import { apiRequest } from '../../../api/api-client.ts';

/** `POST /api/comments`: publishes a review of a flight bought in one order (online). */
export function postReview(body: CreateReviewBody): Promise<void> {
  return apiRequest('/comments', { method: 'POST', body });
}
