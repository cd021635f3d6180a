import { map, type Observable } from 'rxjs';
import { messages, type ReviewDraftDoc, type ReviewDraftStatus } from '@skyport/shared';
import { useLocalData } from '../../../data/provider.tsx';
import { useObservable } from '../../../data/use-observable.ts';
import type { LocalData } from '../../../data/local-data.ts';

/**
 * Reviews written from an order line (spec §2 review modal) go into the replicated `reviewDrafts`
 * collection: saved at once in IndexedDB, pushed when online. The server turns a valid draft into
 * a review and marks the order lines reviewed (the order document then arrives updated), or
 * rejects it with the reason, which comes back on the draft.
 */

export interface ReviewInput {
  orderId: string;
  flightId: string;
  rating: number | null;
  name: string;
  comment: string;
}

/** Key of a draft: one per order and flight (every line of that flight is reviewed at once). */
export function reviewDraftKey(orderId: string, flightId: string): string {
  return `${orderId}:${flightId}`;
}

/**
 * Saves a review as a pending draft (replacing an earlier draft of the same order and flight that
 * was not accepted) and returns its id. Only a signed-in customer writes reviews.
 */
export async function saveReviewDraft(
  data: LocalData,
  input: ReviewInput,
): Promise<{ ok: true; id: string } | { ok: false; message: string }> {
  const user = data.engine.user;
  if (user?.role !== 'customer') return { ok: false, message: messages.notAllowed };
  const drafts = data.db.collections.reviewDrafts;
  const existing = await drafts
    .findOne({ selector: { orderId: input.orderId, flightId: input.flightId } })
    .exec();
  if (existing?.status === 'accepted') return { ok: false, message: messages.notAllowed };
  const id = existing?.id ?? crypto.randomUUID();
  await drafts.upsert({
    id,
    userId: user.id,
    orderId: input.orderId,
    flightId: input.flightId,
    rating: input.rating,
    name: input.name,
    comment: input.comment,
    status: 'pending',
    reason: null,
  });
  return { ok: true, id };
}

export interface ReviewDraftState {
  id: string;
  orderId: string;
  flightId: string;
  status: ReviewDraftStatus;
  reason: string | null;
  rating: number | null;
  name: string;
  comment: string;
}

/** Every draft by `reviewDraftKey`: pending (not yet sent or answered), accepted or rejected. */
export function reviewDrafts$(data: LocalData): Observable<ReadonlyMap<string, ReviewDraftState>> {
  return data.db.collections.reviewDrafts.find().$.pipe(
    map(
      (docs) =>
        new Map(
          docs.map((doc) => {
            const draft = doc._data as ReviewDraftDoc;
            return [
              reviewDraftKey(draft.orderId, draft.flightId),
              {
                id: draft.id,
                orderId: draft.orderId,
                flightId: draft.flightId,
                status: draft.status,
                reason: draft.reason,
                rating: draft.rating,
                name: draft.name,
                comment: draft.comment,
              },
            ];
          }),
        ),
    ),
  );
}

const NO_DRAFTS: ReadonlyMap<string, ReviewDraftState> = new Map();

export function useReviewDrafts(): ReadonlyMap<string, ReviewDraftState> {
  const data = useLocalData();
  return useObservable(() => reviewDrafts$(data), [data], NO_DRAFTS);
}

export function useSaveReviewDraft() {
  const data = useLocalData();
  return (input: ReviewInput) => saveReviewDraft(data, input);
}
