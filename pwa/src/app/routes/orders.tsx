import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  messages,
  TOAST_FEEDBACK_MS,
  specLabels,
  type CreateReviewBody,
  type Order,
  type OrderLine,
  type ReviewForm,
} from '@skyport/shared';
import { OrdersScreen } from '../../features/orders/components/orders-screen.tsx';
import { ReviewModal } from '../../features/orders/components/review-modal.tsx';
import { postReview } from '../../features/orders/api/reviews-api.ts';
import { alertDialog } from '../../ui/dialogs.tsx';
import { Loader } from '../../ui/loader.tsx';
import { showToast } from '../../ui/toast.tsx';
import { uiLabels } from '../../ui/labels.ts';
import { UserAvatar } from '../../ui/user-avatar.tsx';
import { ApiError, reportApiError } from '../../api/api-client.ts';
import { useAirlines } from '../../features/catalog/data/catalogue.ts';
import { useOrders } from '../../features/orders/data/orders.ts';
import {
  reviewDraftKey,
  useReviewDrafts,
  useSaveReviewDraft,
} from '../../features/orders/data/review-drafts.ts';
import { useSession } from '../session.ts';
import { LoginRoute } from './auth.tsx';

/** /orders: the customer's orders. /purchases shows them inside the profile (`withProfile`). */
export function OrdersRoute({ withProfile = false }: { withProfile?: boolean }) {
  const session = useSession();
  const user = session.user;
  const orders = useOrders();
  const airlines = useAirlines();
  const drafts = useReviewDrafts();
  const saveDraft = useSaveReviewDraft();
  // Lines whose review waits in the local queue (written offline, not yet accepted by the server).
  const pending = useMemo(() => {
    const ids = new Set<string>();
    for (const order of orders ?? []) {
      for (const line of order.stocks) {
        if (drafts.get(reviewDraftKey(order.id, line.flightId))?.status === 'pending')
          ids.add(line.id);
      }
    }
    return ids;
  }, [orders, drafts]);
  const names = useMemo(
    () => new Map(airlines.map((airline) => [airline.id, airline.name])),
    [airlines],
  );
  const [chosen, setChosen] = useState<{ order: Order; line: OrderLine } | null>(null);
  // `?review=<draft id>`: a refused review opened again from the pending changes page to fix it.
  const [params, setParams] = useSearchParams();
  const fixing = params.get('review');
  const fixTarget = useMemo(() => {
    if (!fixing) return null;
    const draft = [...drafts.values()].find((item) => item.id === fixing);
    const order = orders?.find((item) => item.id === draft?.orderId);
    const line = order?.stocks.find((item) => item.flightId === draft?.flightId);
    return order && line && !line.review ? { order, line } : null;
  }, [fixing, drafts, orders]);
  const reviewing = chosen ?? fixTarget;
  const reviewingDraft = reviewing
    ? drafts.get(reviewDraftKey(reviewing.order.id, reviewing.line.flightId))
    : undefined;
  const close = () => {
    setChosen(null);
    if (fixing) setParams({}, { replace: true });
  };

  if (session.status === 'loading') return <Loader />;
  if (!user) return <LoginRoute />;

  const submit = async (target: { order: Order; line: OrderLine }, review: ReviewForm) => {
    const { order, line } = target;
    const body: CreateReviewBody = {
      ...review,
      airlineId: line.airlineId,
      flightId: line.flightId,
      orderId: order.id,
      moreInfo: [
        {
          flightName: names.get(line.airlineId) ?? '',
          origin: line.moreinfo.origin,
          destination: line.moreinfo.destination,
        },
      ],
    };
    const queue = async () => {
      const saved = await saveDraft({
        orderId: order.id,
        flightId: line.flightId,
        rating: review.rating,
        name: review.name,
        comment: review.comment,
      });
      if (saved.ok) showToast(uiLabels.reviewDraftQueued, 'info');
      else showToast(saved.message, 'error');
    };
    // Offline, or fixing a refused review: through the queue, whose outcome the draft records.
    const refused = drafts.get(reviewDraftKey(order.id, line.flightId))?.status === 'rejected';
    if (!navigator.onLine || refused) {
      await queue();
      return;
    }
    try {
      await postReview(body);
      showToast(messages.feedbackSent, 'success', TOAST_FEEDBACK_MS);
    } catch (error) {
      if (error instanceof ApiError && error.isOffline) {
        await queue();
        return;
      }
      reportApiError(error);
    }
  };

  return (
    <div className="flex flex-col gap-6">
      {withProfile ? (
        <header className="flex items-center gap-4" data-testid="purchases-profile">
          <UserAvatar image={user.image} size="w-14" />
          <div>
            <p className="text-xl font-bold">
              {[user.name, user.lastName].filter(Boolean).join(' ') || user.email}
            </p>
            <p className="text-base-content/80">{specLabels.myOrders}</p>
          </div>
        </header>
      ) : null}
      <OrdersScreen
        orders={orders}
        airlineName={(id) => names.get(id) ?? '—'}
        pendingReviewLineIds={pending}
        onReview={(order, line) => setChosen({ order, line })}
      />
      <ReviewModal
        key={reviewing?.line.id ?? 'none'}
        open={reviewing !== null}
        defaultName={
          reviewingDraft?.status === 'rejected' ? reviewingDraft.name : (user.name ?? '')
        }
        defaultReview={reviewingDraft?.status === 'rejected' ? reviewingDraft : undefined}
        onClose={close}
        onIncomplete={() =>
          void alertDialog({ title: messages.oops, text: messages.completeAllFieldsReview })
        }
        onSubmit={(review) => {
          if (reviewing) void submit(reviewing, review);
        }}
      />
    </div>
  );
}

export function PurchasesRoute() {
  return <OrdersRoute withProfile />;
}
