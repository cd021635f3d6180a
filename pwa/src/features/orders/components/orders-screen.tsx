import { Fragment, useState } from 'react';
import { Link } from 'react-router-dom';
import { messages, specLabels, type Order, type OrderLine } from '@skyport/shared';
import { formatPrice } from '../../../ui/format.ts';
import { ChevronIcon } from '../../../ui/icons.tsx';
import { uiLabels } from '../../../ui/labels.ts';
import { Loader } from '../../../ui/loader.tsx';

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
    <section aria-labelledby="orders-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 id="orders-title" className="text-2xl font-bold">
          {messages.yourOrders}
        </h1>
        <Link to="/" replace className="btn btn-outline btn-sm">
          {messages.backToHome}
        </Link>
      </div>
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
    </section>
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
              <dd className="inline">{new Date(order.creationdate).toLocaleString()}</dd>
            </div>
          ) : null}
        </dl>
        {order.idpurchase ? (
          <p className="badge badge-success" data-testid="payment-confirmed">
            {messages.paymentStatusConfirmed}
          </p>
        ) : null}
        <div className="overflow-x-auto">
          <table className="table table-sm">
            <thead>
              <tr>
                <th scope="col">{specLabels.columnAirline}</th>
                <th scope="col">{specLabels.columnAmount}</th>
                <th scope="col">{specLabels.columnValue}</th>
                <th scope="col">{specLabels.columnReview}</th>
                <th scope="col">{specLabels.columnMoreInfo}</th>
              </tr>
            </thead>
            <tbody>
              {order.stocks.map((line) => {
                const open = expanded === line.id;
                const pending = pendingReviewLineIds?.has(line.id) ?? false;
                const detailsId = `details-${line.id}`;
                return (
                  <Fragment key={line.id}>
                    <tr data-testid="order-line">
                      <td>{airlineName(line.airlineId)}</td>
                      <td>{line.amount}</td>
                      <td>{formatPrice(line.valueCents)}</td>
                      <td>
                        <button
                          type="button"
                          className="btn btn-xs btn-primary"
                          disabled={line.review || pending}
                          onClick={() => onReview(order, line)}
                          data-testid="review-button"
                        >
                          {line.review ? uiLabels.reviewed : specLabels.columnReview}
                        </button>
                      </td>
                      <td>
                        <button
                          type="button"
                          className="btn btn-xs btn-ghost"
                          aria-expanded={open}
                          aria-controls={detailsId}
                          onClick={() => setExpanded(open ? null : line.id)}
                          data-testid="more-info"
                        >
                          {specLabels.columnMoreInfo}
                          <ChevronIcon
                            className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`}
                          />
                        </button>
                      </td>
                    </tr>
                    {open ? (
                      <tr id={detailsId} className="bg-base-200">
                        <td colSpan={5}>
                          <p className="font-semibold">{messages.moreDetails}</p>
                          <dl className="grid grid-cols-2 gap-1 sm:grid-cols-4">
                            <div>
                              <dt className="text-base-content/80">{uiLabels.origin}</dt>
                              <dd>{line.moreinfo.origin}</dd>
                            </div>
                            <div>
                              <dt className="text-base-content/80">{uiLabels.destination}</dt>
                              <dd>{line.moreinfo.destination}</dd>
                            </div>
                            <div>
                              <dt className="text-base-content/80">{uiLabels.arrivalHour}</dt>
                              <dd>{line.moreinfo.arrivalHour}</dd>
                            </div>
                            <div>
                              <dt className="text-base-content/80">{uiLabels.departureHour}</dt>
                              <dd>{line.moreinfo.departureHour}</dd>
                            </div>
                          </dl>
                        </td>
                      </tr>
                    ) : null}
                  </Fragment>
                );
              })}
            </tbody>
          </table>
        </div>
      </div>
    </article>
  );
}
