import { lazy, Suspense } from 'react';
import type { PriceHistory } from '../../../lib/price-history.ts';
import { ErrorBoundary } from '../../../ui/error-boundary.tsx';
import { formatPrice, formatTimestamp } from '../../../ui/format.ts';
import { Loader } from '../../../ui/loader.tsx';
import { TitledCard } from '../../../ui/page-section.tsx';
import { uiLabels } from '../../../ui/labels.ts';
import { catalogLabels } from '../labels.ts';

// ApexCharts is heavy: its chunk loads only when a flight has two prices to draw (§7).
const PriceHistoryChart = lazy(() =>
  import('./price-history-chart.tsx').then((module) => ({ default: module.PriceHistoryChart })),
);

/** The chart's points as a table, for screen readers (the SVG itself is hidden from them). */
function PointsTable({ history }: { history: PriceHistory }) {
  return (
    <table className="sr-only" data-testid="price-history-data">
      <caption>{catalogLabels.priceHistory}</caption>
      <thead>
        <tr>
          <th scope="col">{catalogLabels.priceHistoryWhen}</th>
          <th scope="col">{uiLabels.price}</th>
        </tr>
      </thead>
      <tbody>
        {history.map((point, index) => (
          <tr key={index}>
            <th scope="row">{formatTimestamp(point.at)}</th>
            <td>{formatPrice(point.priceCents)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * The flight detail's "Price history" (docs/architecture.md §4.9), for a customer: what this
 * device has recorded of a favourite's price, as a chart once it has changed; a line saying how
 * to start one otherwise.
 */
export function PriceHistorySection({
  history,
  isFavourite,
}: {
  history: PriceHistory;
  isFavourite: boolean;
}) {
  const first = history[0];
  return (
    <TitledCard
      title={catalogLabels.priceHistory}
      bodyClassName="gap-2 p-4 sm:p-6"
      testId="price-history"
      data={{ 'data-points': String(history.length) }}
    >
      {history.length === 0 ? (
        <p
          className="text-base-content/80"
          data-testid={isFavourite ? 'price-history-empty' : 'price-history-not-followed'}
        >
          {isFavourite ? catalogLabels.priceHistoryStarting : catalogLabels.priceHistoryNotFollowed}
        </p>
      ) : history.length === 1 && first ? (
        <p className="text-base-content/80" data-testid="price-history-empty">
          {catalogLabels.priceHistoryEmpty(
            formatPrice(first.priceCents),
            formatTimestamp(first.at),
          )}
        </p>
      ) : (
        <>
          <p className="text-sm text-base-content/80">{catalogLabels.priceHistoryCaption}</p>
          <ErrorBoundary>
            <Suspense fallback={<Loader lines={[catalogLabels.loadingChart]} />}>
              <PriceHistoryChart history={history} />
            </Suspense>
          </ErrorBoundary>
          <PointsTable history={history} />
        </>
      )}
    </TitledCard>
  );
}
