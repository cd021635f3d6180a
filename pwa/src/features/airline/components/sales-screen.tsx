import { lazy, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { messages, saleTotalCents, type MonthlySalesTotal, type Sale } from '@skyport/shared';
import { Loader } from '../../../ui/loader.tsx';
import { formatPrice, formatTimestamp } from '../../../ui/format.ts';
import { ErrorBoundary } from '../../../ui/error-boundary.tsx';
import type { SalesView } from '../data/sales.ts';
import { airlineLabels } from '../labels.ts';

// ApexCharts is heavy: its chunk loads only when a sales screen shows the chart (docs/architecture.md §7).
const SalesChart = lazy(() =>
  import('./sales-chart.tsx').then((module) => ({ default: module.SalesChart })),
);

/** One sale (spec §2): sale number, flight id, unit price, tickets sold, total sale. */
function SaleCard({ sale, number }: { sale: Sale; number: number }) {
  return (
    <li className="card card-border bg-base-100 shadow-sm" data-testid="sale-card">
      <div className="card-body gap-2 p-4">
        <h3 className="card-title text-base">{airlineLabels.saleNumber(number)}</h3>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-base-content/70">{airlineLabels.flightId}</dt>
          <dd className="truncate font-mono text-xs leading-5" title={sale.idFlight}>
            {sale.idFlight}
          </dd>
          <dt className="text-base-content/70">{airlineLabels.unitPrice}</dt>
          <dd>{formatPrice(sale.priceCents)}</dd>
          <dt className="text-base-content/70">{airlineLabels.ticketsSold}</dt>
          <dd data-testid="sale-amount">{sale.amount}</dd>
          <dt className="text-base-content/70">{airlineLabels.totalSale}</dt>
          <dd className="font-semibold" data-testid="sale-total">
            {formatPrice(saleTotalCents(sale))}
          </dd>
        </dl>
        <p className="text-xs text-base-content/60">{formatTimestamp(sale.createdAt)}</p>
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
  const Title = headingLevel === 1 ? 'h1' : 'h2';
  const Sub = headingLevel === 1 ? 'h2' : 'h3';
  return (
    <section
      className="flex flex-col gap-4"
      aria-labelledby="sales-title"
      data-testid="sales-panel"
    >
      <Title
        id="sales-title"
        className={headingLevel === 1 ? 'text-2xl font-bold' : 'text-xl font-bold'}
      >
        {messages.yourSales}
      </Title>
      {online ? null : (
        <p role="status" className="alert alert-info alert-soft text-sm" data-testid="sales-saved">
          {airlineLabels.offlineSales}
        </p>
      )}
      <section
        className="card card-border bg-base-100 shadow-sm"
        aria-labelledby="sales-chart-title"
        data-testid="sales-chart"
      >
        <div className="card-body gap-2 p-3 sm:p-6">
          <Sub id="sales-chart-title" className="card-title">
            {messages.salesChart}
            <span className="text-sm font-normal text-base-content/70">{view.year}</span>
          </Sub>
          <ErrorBoundary>
            <Suspense fallback={<Loader lines={[airlineLabels.loadingChart]} />}>
              <SalesChart monthly={view.monthly} />
            </Suspense>
          </ErrorBoundary>
          <ChartDataTable monthly={view.monthly} year={view.year} />
        </div>
      </section>
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
    </section>
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
