import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { messages, saleTotalCents, type MonthlySalesTotal } from '@skyport/shared';
import { Loader } from '../../../ui/loader.tsx';
import { formatDate, formatHour, formatPrice, formatTimestamp } from '../../../ui/format.ts';
import { ErrorBoundary } from '../../../ui/error-boundary.tsx';
import { uiLabels } from '../../../ui/labels.ts';
import { PageSection, StatusNote, TitledCard } from '../../../ui/page-section.tsx';
import { Route } from '../../../ui/route.tsx';
import type { SalesView, ShownSale } from '../data/sales.ts';
import { airlineLabels } from '../labels.ts';

// ApexCharts is heavy: its chunk loads only when a sales screen shows the chart (docs/architecture.md §2.3).
const SalesChart = lazy(() =>
  import('./sales-chart.tsx').then((module) => ({ default: module.SalesChart })),
);

/**
 * One sale (spec §2): sale number, flight, unit price, tickets sold, total sale. The flight is
 * named by its route and departure (issue 16); its id stays, small, for reference.
 */
function SaleCard({ sale, number }: { sale: ShownSale; number: number }) {
  return (
    <li className="card card-border bg-base-100 shadow-sm" data-testid="sale-card">
      <div className="card-body gap-2 p-4">
        <h3 className="card-title flex-wrap items-baseline gap-x-2 text-base">
          {airlineLabels.saleNumber(number)}
          <time
            className="text-xs font-normal text-base-content/70"
            dateTime={new Date(sale.createdAt).toISOString()}
          >
            {formatTimestamp(sale.createdAt)}
          </time>
        </h3>
        {sale.flight === undefined ? (
          // Keeps the card's height while the flight is looked up.
          <p className="h-11" aria-hidden="true" />
        ) : sale.flight ? (
          <p className="flex flex-col gap-0.5" data-testid="sale-flight">
            <span className="font-semibold">
              <Route origin={sale.flight.origin} destination={sale.flight.destination} />
            </span>
            <span className="text-sm">
              {uiLabels.departure}: {formatDate(sale.flight.departureDate)},{' '}
              {formatHour(sale.flight.departureHour)}
            </span>
          </p>
        ) : null}
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-base-content/70">{airlineLabels.unitPrice}</dt>
          <dd>{formatPrice(sale.priceCents)}</dd>
          <dt className="text-base-content/70">{airlineLabels.ticketsSold}</dt>
          <dd data-testid="sale-amount">{sale.amount}</dd>
          <dt className="text-base-content/70">{airlineLabels.totalSale}</dt>
          <dd className="font-semibold" data-testid="sale-total">
            {formatPrice(saleTotalCents(sale))}
          </dd>
          <dt className="text-xs text-base-content/70">{airlineLabels.flightId}</dt>
          <dd
            className="truncate font-mono text-xs leading-5 text-base-content/70"
            title={sale.idFlight}
          >
            {sale.idFlight}
          </dd>
        </dl>
      </div>
    </li>
  );
}

/** The chart's numbers as a table, for screen readers (the SVG itself is hidden from them). */
function ChartDataTable({
  monthly,
  year,
}: {
  monthly: readonly MonthlySalesTotal[];
  year: number;
}) {
  return (
    <table className="sr-only" data-testid="sales-chart-data">
      <caption>{`${messages.salesChart}: ${airlineLabels.salesYear(year)}`}</caption>
      <thead>
        <tr>
          <th scope="col">{airlineLabels.month}</th>
          <th scope="col">{messages.salesChartTotalSale}</th>
          <th scope="col">{messages.salesChartTicketsSold}</th>
        </tr>
      </thead>
      <tbody>
        {monthly.map((point) => (
          <tr key={point.month}>
            <th scope="row">{point.month}</th>
            <td>{formatPrice(point.amountCents)}</td>
            <td>{point.tickets}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The sales part of /sales and /airlineProfile: the chart, then the cards (or the empty text). */
export function SalesPanel({
  view,
  online,
  headingLevel = 1,
}: {
  view: SalesView;
  online: boolean;
  headingLevel?: 1 | 2;
}) {
  return (
    <PageSection title={messages.yourSales} headingLevel={headingLevel} testId="sales-panel">
      {online ? null : (
        <StatusNote tone="info" testId="sales-saved">
          {airlineLabels.offlineSales}
        </StatusNote>
      )}
      <TitledCard
        title={
          <>
            {messages.salesChart}
            <span className="text-sm font-normal text-base-content/70">{view.year}</span>
          </>
        }
        headingLevel={headingLevel === 1 ? 2 : 3}
        bodyClassName="gap-2 p-3 sm:p-6"
        testId="sales-chart"
      >
        <ErrorBoundary>
          <Suspense fallback={<Loader lines={[airlineLabels.loadingChart]} />}>
            <SalesChart monthly={view.monthly} />
          </Suspense>
        </ErrorBoundary>
        <ChartDataTable monthly={view.monthly} year={view.year} />
      </TitledCard>
      {view.loading && view.sales.length === 0 ? (
        <Loader />
      ) : view.sales.length === 0 ? (
        <p
          className="rounded-box bg-base-200 p-6 text-center text-base-content/80"
          data-testid="sales-empty"
        >
          {messages.noSales}
        </p>
      ) : (
        <ol className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3" aria-label={messages.yourSales}>
          {view.sales.map((sale, index) => (
            <SaleCard key={sale.id} sale={sale} number={view.sales.length - index} />
          ))}
        </ol>
      )}
    </PageSection>
  );
}

/** /sales (spec §2 Sales screen): back home, "Your sales", the cards and the "Sales Chart". */
export function SalesScreen({ view, online }: { view: SalesView; online: boolean }) {
  return (
    <div className="flex flex-col gap-4">
      <div>
        <Link to="/" replace className="btn btn-ghost btn-sm" data-testid="back-home">
          <span aria-hidden="true">←</span> {messages.backToHome}
        </Link>
      </div>
      <SalesPanel view={view} online={online} />
    </div>
  );
}
