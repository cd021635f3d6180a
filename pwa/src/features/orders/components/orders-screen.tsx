import { useState } from 'react';
import { Link } from 'react-router-dom';
import { messages, specLabels, type Order, type OrderLine } from '@skyport/shared';
import { formatHour, formatPrice, formatTimestamp } from '../../../ui/format.ts';
import { ChevronIcon } from '../../../ui/icons.tsx';
import { uiLabels } from '../../../ui/labels.ts';
import { Loader } from '../../../ui/loader.tsx';
import { PageSection } from '../../../ui/page-section.tsx';
import { ResponsiveTable, type Column } from '../../../ui/responsive-table.tsx';

export interface OrdersScreenProps {
  /** undefined while the orders load. */
  orders: readonly Order[] | undefined;
  /** Airline names by id, for the Airline column. */
  airlineName: (airlineId: string) => string;
  /** Lines whose review is waiting to sync (written offline). */
  pendingReviewLineIds?: ReadonlySet<string>;
  onReview: (order: Order, line: OrderLine) => void;
}

/** "Your orders": one card per order with its lines; Review opens the feedback modal. */
export function OrdersScreen({
  orders,
  airlineName,
  pendingReviewLineIds,
  onReview,
}: OrdersScreenProps) {
  return (
    <PageSection
      title={messages.yourOrders}
      actions={
        <Link to="/" replace className="btn btn-outline btn-sm">
          {messages.backToHome}
        </Link>
      }
    >
      {orders === undefined ? (
        <Loader />
      ) : orders.length === 0 ? (
        <p className="alert" data-testid="orders-empty">
          {messages.noPurchases}
        </p>
      ) : (
        <ol className="flex flex-col gap-4" data-testid="orders">
          {orders.map((order, index) => (
            <li key={order.id}>
              <OrderCard
                order={order}
                number={orders.length - index}
                airlineName={airlineName}
                pendingReviewLineIds={pendingReviewLineIds}
                onReview={onReview}
              />
            </li>
          ))}
        </ol>
      )}
    </PageSection>
  );
}

const detailsId = (line: OrderLine) => `details-${line.id}`;

/** "More Details" of a line: the flight as it was bought (spec §3 moreinfo). */
function LineDetails({ line }: { line: OrderLine }) {
  const fields = [
    [uiLabels.origin, line.moreinfo.origin],
    [uiLabels.destination, line.moreinfo.destination],
    [uiLabels.arrivalHour, formatHour(line.moreinfo.arrivalHour)],
    [uiLabels.departureHour, formatHour(line.moreinfo.departureHour)],
  ] as const;
  return (
    <>
      <p className="font-semibold">{messages.moreDetails}</p>
      <dl className="grid grid-cols-2 gap-1 sm:grid-cols-4">
        {fields.map(([label, value]) => (
          <div key={label}>
            <dt className="text-base-content/80">{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

function OrderCard({
  order,
  number,
  airlineName,
  pendingReviewLineIds,
  onReview,
}: {
  order: Order;
  number: number;
  airlineName: (airlineId: string) => string;
  pendingReviewLineIds: ReadonlySet<string> | undefined;
  onReview: (order: Order, line: OrderLine) => void;
}) {
  const [expanded, setExpanded] = useState<string | null>(null);
  // On a phone each line is a card: the airline heads it, Review and More info sit at its foot.
  const lineColumns: readonly Column<OrderLine>[] = [
    {
      key: 'airline',
      header: specLabels.columnAirline,
      kind: 'title',
      cell: (line) => airlineName(line.airlineId),
    },
    { key: 'amount', header: specLabels.columnAmount, numeric: true, cell: (line) => line.amount },
    {
      key: 'value',
      header: specLabels.columnValue,
      numeric: true,
      cell: (line) => formatPrice(line.valueCents),
    },
    {
      key: 'review',
      header: specLabels.columnReview,
      kind: 'actions',
      cell: (line) => (
        <button
          type="button"
          className="btn btn-xs btn-primary max-md:btn-sm"
          disabled={line.review || (pendingReviewLineIds?.has(line.id) ?? false)}
          onClick={() => onReview(order, line)}
          data-testid="review-button"
        >
          {line.review ? uiLabels.reviewed : specLabels.columnReview}
        </button>
      ),
    },
    {
      key: 'more-info',
      header: specLabels.columnMoreInfo,
      kind: 'actions',
      cell: (line) => {
        const open = expanded === line.id;
        return (
          <button
            type="button"
            className="btn btn-xs btn-ghost max-md:btn-sm"
            aria-expanded={open}
            aria-controls={detailsId(line)}
            onClick={() => setExpanded(open ? null : line.id)}
            data-testid="more-info"
          >
            {specLabels.columnMoreInfo}
            <ChevronIcon className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`} />
          </button>
        );
      },
    },
  ];
  return (
    <article className="card card-border bg-base-100 shadow-sm" data-testid="order-card">
      <div className="card-body gap-3 p-4">
        <header className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 className="card-title">{uiLabels.orderNumber(number)}</h2>
          <p className="text-lg font-bold">
            {uiLabels.totalPaid}: {formatPrice(order.priceCents)}
          </p>
        </header>
        <dl className="grid gap-1 text-sm sm:grid-cols-2">
          {order.idpurchase ? (
            <div>
              <dt className="inline text-base-content/80">{uiLabels.purchaseId}: </dt>
              <dd className="inline break-all font-mono">{order.idpurchase}</dd>
            </div>
          ) : null}
          {order.creationdate ? (
            <div>
              <dt className="inline text-base-content/80">{uiLabels.purchaseDate}: </dt>
              <dd className="inline">{formatTimestamp(order.creationdate)}</dd>
            </div>
          ) : null}
        </dl>
        {order.idpurchase ? (
          <p className="badge badge-success" data-testid="payment-confirmed">
            {messages.paymentStatusConfirmed}
          </p>
        ) : null}
        <ResponsiveTable
          columns={lineColumns}
          rows={order.stocks}
          rowKey={(line) => line.id}
          caption={uiLabels.orderNumber(number)}
          size="table-sm"
          rowProps={() => ({ 'data-testid': 'order-line' })}
          details={(line) =>
            expanded === line.id
              ? { id: detailsId(line), content: <LineDetails line={line} /> }
              : null
          }
        />
      </div>
    </article>
  );
}
