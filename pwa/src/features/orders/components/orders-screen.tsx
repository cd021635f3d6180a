import { useState } from 'react';
import { Link } from 'react-router-dom';
import { messages, specLabels, type Order, type OrderLine } from '@skyport/shared';
import { formatHour, formatPrice, formatTimestamp } from '../../../ui/format.ts';
import { ChevronIcon, QrIcon } from '../../../ui/icons.tsx';
import { ticketLabels } from '../../../ui/ticket-labels.ts';
import { TicketQr } from './ticket-qr.tsx';
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
const ticketId = (line: OrderLine) => `ticket-${line.id}`;

/** What a line shows under it: its "More Details", or its signed e-ticket (issue 17). */
type Expanded = { lineId: string; part: 'details' | 'ticket' } | null;

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

/** A line's e-ticket: its QR code, and the code itself to copy or paste into /verify-ticket. */
function LineTicket({ ticket, title }: { ticket: string; title: string }) {
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const copy = () =>
    navigator.clipboard
      .writeText(ticket)
      .then(() => setCopied('yes'))
      .catch(() => setCopied('failed'));
  return (
    <div
      className="flex flex-col items-center gap-3 sm:flex-row sm:items-start"
      data-testid="line-ticket"
    >
      <TicketQr value={ticket} title={title} className="w-full max-w-64 shrink-0 p-1" />
      <div className="flex w-full min-w-0 flex-col gap-2">
        <p className="font-semibold">{title}</p>
        <p className="text-sm text-base-content/80">{ticketLabels.qrHint}</p>
        <label className="flex flex-col gap-1 text-sm">
          <span>{ticketLabels.code}</span>
          <textarea
            readOnly
            rows={3}
            className="textarea w-full font-mono text-xs break-all"
            value={ticket}
            onFocus={(event) => event.currentTarget.select()}
            data-testid="ticket-code"
          />
        </label>
        <div className="flex flex-wrap items-center gap-2">
          <button type="button" className="btn btn-sm" onClick={() => void copy()}>
            {ticketLabels.copy}
          </button>
          {copied ? (
            <span role="status" className="text-sm">
              {copied === 'yes' ? ticketLabels.copied : ticketLabels.copyFailed}
            </span>
          ) : null}
        </div>
      </div>
    </div>
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
  const [expanded, setExpanded] = useState<Expanded>(null);
  const isOpen = (line: OrderLine, part: 'details' | 'ticket') =>
    expanded?.lineId === line.id && expanded.part === part;
  const toggle = (line: OrderLine, part: 'details' | 'ticket') =>
    setExpanded(isOpen(line, part) ? null : { lineId: line.id, part });
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
      key: 'ticket',
      header: ticketLabels.column,
      kind: 'actions',
      cell: (line) => {
        if (!line.ticket) {
          return (
            <span className="badge badge-ghost" title={ticketLabels.notIssuedHint}>
              {ticketLabels.notIssued}
            </span>
          );
        }
        const open = isOpen(line, 'ticket');
        return (
          <button
            type="button"
            className="btn btn-xs btn-secondary max-md:btn-sm"
            aria-expanded={open}
            aria-controls={ticketId(line)}
            onClick={() => toggle(line, 'ticket')}
            data-testid="show-ticket"
          >
            <QrIcon className="size-4" />
            {open ? ticketLabels.hide : ticketLabels.show}
          </button>
        );
      },
    },
    {
      key: 'more-info',
      header: specLabels.columnMoreInfo,
      kind: 'actions',
      cell: (line) => {
        const open = isOpen(line, 'details');
        return (
          <button
            type="button"
            className="btn btn-xs btn-ghost max-md:btn-sm"
            aria-expanded={open}
            aria-controls={detailsId(line)}
            onClick={() => toggle(line, 'details')}
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
            isOpen(line, 'details')
              ? { id: detailsId(line), content: <LineDetails line={line} /> }
              : isOpen(line, 'ticket') && line.ticket
                ? {
                    id: ticketId(line),
                    content: (
                      <LineTicket
                        ticket={line.ticket}
                        title={ticketLabels.qrTitle(
                          airlineName(line.airlineId),
                          line.moreinfo.origin,
                          line.moreinfo.destination,
                        )}
                      />
                    ),
                  }
                : null
          }
        />
      </div>
    </article>
  );
}
