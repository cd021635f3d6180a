import { memo, useCallback, type ReactNode } from 'react';
import {
  cheapestDays,
  messages,
  type Airline,
  type CatalogQuery,
  type CatalogSort,
  type Flight,
  type PriceBand,
} from '@skyport/shared';
import type { CatalogPlaces, DepartureChoice, HomePage } from '../data/catalogue.ts';
import { Loader } from '../../../ui/loader.tsx';
import { Pagination } from '../../../ui/pagination.tsx';
import { uiLabels } from '../../../ui/labels.ts';
import { PriceFreshness, type CatalogueFreshness } from '../../../ui/price-freshness.tsx';
import { FlightCard } from './flight-card.tsx';
import { FilterPanel } from './filter-panel.tsx';
import { SearchBox } from './search-box.tsx';
import { ContactUs } from './contact-us.tsx';
import { DepartureFilter } from './departure-filter.tsx';
import { DepartureDays } from './departure-days.tsx';

// The home page renders again when a part of it changes (the prices' freshness, the airlines,
// the favourites, the page) while the catalogue syncs; memoised, the parts that did not change
// (given the same values and the same callbacks) are not rendered again: whole renders made
// tasks of 120-160 ms on a phone four times slower than a laptop (docs/benchmarks.md §3).
const Card = memo(FlightCard);
const Filters = memo(FilterPanel);
const Search = memo(SearchBox);
const Departure = memo(DepartureFilter);

export interface HomeScreenProps {
  query: CatalogQuery;
  /**
   * The page to show; undefined while the catalogue loads for the first time. Empty and marked
   * `catalogueNotOnDevice` offline before this device has stored the catalogue.
   */
  page: HomePage | undefined;
  airlines: readonly Airline[];
  /** The places flights serve (the search box's suggestions). */
  places: CatalogPlaces;
  favouriteIds: ReadonlySet<string>;
  showBuyActions: boolean;
  /** How fresh the prices of the local catalogue are (null until known: nothing is shown). */
  freshness?: CatalogueFreshness | null;
  onQueryChange: (change: Partial<CatalogQuery>) => void;
  /** The departure date and flexibility of the URL (`query` has its range); undefined: any date. */
  departure: DepartureChoice | undefined;
  onDepartureChange: (choice: DepartureChoice | undefined) => void;
  onReset: () => void;
  onAddFavourite: (flight: Flight) => void;
  onAddToCart: (flight: Flight) => void;
  /** Shown above the grid, e.g. "Origin not found". */
  notice?: ReactNode;
}

/** Hero with search, filter/order panel, flights grid with pagination, Contact Us. */
export function HomeScreen(props: HomeScreenProps) {
  const { query, page, airlines, places, favouriteIds, showBuyActions, onQueryChange, onReset } =
    props;
  const notOnDevice = page?.catalogueNotOnDevice === true && page.total === 0;
  const { departure, onDepartureChange } = props;
  // A flexible date: the range day by day, and the flights of its cheapest day(s) marked.
  const flexibleDays =
    departure && departure.flex > 0 && page?.departureDays && page.departureDays.length > 0
      ? page.departureDays
      : undefined;
  const cheapest = flexibleDays ? cheapestDays(flexibleDays) : undefined;
  const onSearch = useCallback(
    ({ origin, destination }: { origin: string; destination: string }) =>
      onQueryChange({ origin: origin || undefined, destination: destination || undefined }),
    [onQueryChange],
  );
  const onSortChange = useCallback((sort: CatalogSort) => onQueryChange({ sort }), [onQueryChange]);
  const onBandChange = useCallback((band: PriceBand) => onQueryChange({ band }), [onQueryChange]);
  const onAirlineChange = useCallback(
    (airlineId: string | undefined) => onQueryChange({ airlineId }),
    [onQueryChange],
  );
  return (
    <div className="flex flex-col gap-6">
      <section className="hero rounded-box bg-gradient-to-br from-primary to-secondary text-primary-content">
        <div className="hero-content w-full flex-col items-stretch gap-4 py-8 sm:py-12">
          <div>
            <h1 className="text-3xl font-bold sm:text-4xl">{uiLabels.heroTitle}</h1>
            <p className="mt-2 max-w-2xl text-primary-content/90">{uiLabels.heroText}</p>
          </div>
          <div className="rounded-box bg-base-100 p-3 text-base-content shadow-lg">
            <Search
              key={`${query.origin ?? ''}|${query.destination ?? ''}`}
              origin={query.origin ?? ''}
              destination={query.destination ?? ''}
              places={places}
              onSearch={onSearch}
            />
            <div className="divider my-1" aria-hidden="true" />
            <Departure choice={departure} onChange={onDepartureChange} />
          </div>
        </div>
      </section>

      <div className="grid gap-6 lg:grid-cols-[18rem_1fr]">
        <aside>
          <Filters
            sort={query.sort}
            band={query.band}
            airlineId={query.airlineId}
            airlines={airlines}
            onSortChange={onSortChange}
            onBandChange={onBandChange}
            onAirlineChange={onAirlineChange}
            onReset={onReset}
          />
        </aside>
        <section aria-labelledby="flights-title" className="flex flex-col gap-4">
          <h2 id="flights-title" className="sr-only">
            {notOnDevice ? messages.catalogueNotOnDevice : uiLabels.flightsFound(page?.total ?? 0)}
          </h2>
          {props.notice}
          {flexibleDays && departure && query.departureFrom && query.departureTo ? (
            <DepartureDays
              from={query.departureFrom}
              to={query.departureTo}
              chosen={departure.date}
              days={flexibleDays}
              onChooseDay={(date) => onDepartureChange({ date, flex: 0 })}
            />
          ) : null}
          {page === undefined ? (
            <Loader
              lines={[
                messages.homeLoaderTitle,
                messages.homeLoaderWait,
                messages.homeLoaderLoading,
              ]}
            />
          ) : notOnDevice ? (
            // Not "no flight matches": this device has no catalogue to search yet.
            <div
              role="status"
              className="alert alert-warning"
              data-testid="catalogue-not-on-device"
            >
              {messages.catalogueNotOnDevice}
            </div>
          ) : page.total === 0 ? (
            <div role="status" className="alert alert-info" data-testid="flights-not-found">
              {messages.flightsNotFound}
            </div>
          ) : (
            <>
              <div className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1">
                <p
                  className="text-sm text-base-content/80"
                  aria-live="polite"
                  data-testid="flights-total"
                >
                  {uiLabels.flightsFound(page.total)}
                </p>
                <PriceFreshness freshness={props.freshness ?? null} />
              </div>
              <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="flight-grid">
                {page.items.map((flight) => (
                  <li
                    key={flight.id}
                    className="flex min-w-0 [&>article]:min-w-0 [&>article]:flex-1"
                  >
                    <Card
                      flight={flight}
                      showBuyActions={showBuyActions}
                      isFavourite={favouriteIds.has(flight.id)}
                      cheapestDay={cheapest?.has(flight.departureDate) ?? false}
                      onAddFavourite={props.onAddFavourite}
                      onAddToCart={props.onAddToCart}
                    />
                  </li>
                ))}
              </ul>
              <Pagination
                page={page.page}
                pageCount={page.pageCount}
                onPageChange={(next) => {
                  onQueryChange({ page: next });
                  document.getElementById('flights-title')?.scrollIntoView({ block: 'start' });
                }}
              />
            </>
          )}
        </section>
      </div>

      <ContactUs />
    </div>
  );
}
