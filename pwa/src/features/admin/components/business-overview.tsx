import { useMemo, useState } from 'react';
import { messages, specLabels, type Airline, type Flight } from '@skyport/shared';
import { formatDate, formatHour, formatPrice } from '../../../ui/format.ts';
import { uiLabels } from '../../../ui/labels.ts';
import { TitledCard } from '../../../ui/page-section.tsx';
import { ResponsiveTable, type Column } from '../../../ui/responsive-table.tsx';
import { Place, Route } from '../../../ui/route.tsx';
import type { BusinessData } from '../data/business.ts';
import type { Remote } from '../data/admin-data.ts';
import { adminLabels } from '../labels.ts';
import { AdminList } from './admin-list.tsx';

interface AirlineFlights {
  airline: Airline;
  flights: Flight[];
}

/** Airlines by name, each with its flights by departure (date, then hour). */
export function groupByAirline(data: BusinessData): AirlineFlights[] {
  const byAirline = new Map<string, Flight[]>();
  for (const flight of data.flights) {
    const list = byAirline.get(flight.airlineId) ?? [];
    list.push(flight);
    byAirline.set(flight.airlineId, list);
  }
  return [...data.airlines]
    .sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id))
    .map((airline) => ({
      airline,
      flights: (byAirline.get(airline.id) ?? []).sort(
        (a, b) =>
          a.departureDate.localeCompare(b.departureDate) ||
          a.departureHour.localeCompare(b.departureHour) ||
          a.id.localeCompare(b.id),
      ),
    }));
}

/** A column of short values that never wrap (names, prices, dates, hours). */
function oneLine(
  key: string,
  header: string,
  text: (flight: Flight) => string,
  only?: Column<Flight>['only'],
): Column<Flight> {
  return { key, header, className: 'whitespace-nowrap', cell: text, only };
}

const whenOf = (date: string, hour: string) => `${formatDate(date)}, ${formatHour(hour)}`;

/** Every column of the spec's table (§2 Business); on a card the route heads it. */
function flightColumns(airline: Airline): readonly Column<Flight>[] {
  return [
    {
      key: 'route',
      // Never shown as a header: the card's title.
      header: `${specLabels.origin} → ${specLabels.destination}`,
      only: 'cards',
      kind: 'title',
      cell: (flight) => <Route origin={flight.origin} destination={flight.destination} />,
    },
    // A card sits under its airline's name: the column would only repeat it.
    oneLine('airline', specLabels.airline, (f) => f.airlineName || airline.name, 'table'),
    { ...oneLine('price', specLabels.price, (f) => formatPrice(f.priceCents)), numeric: true },
    {
      key: 'stock',
      header: specLabels.stock,
      numeric: true,
      className: 'whitespace-nowrap',
      cell: (flight) =>
        flight.tickets === 0 ? (
          <span className="badge badge-warning badge-sm font-semibold">
            0<span className="sr-only">, </span> {adminLabels.soldOut}
          </span>
        ) : (
          flight.tickets
        ),
    },
    {
      key: 'origin',
      header: specLabels.origin,
      only: 'table',
      cell: (flight) => <Place country={flight.origin} />,
    },
    // docs/architecture.md §8: the Destination column shows the destination (the spec's showed the arrival hour).
    {
      key: 'destination',
      header: specLabels.destination,
      only: 'table',
      testId: 'business-destination',
      cell: (flight) => <Place country={flight.destination} />,
    },
    { key: 'duration', header: specLabels.duration, cell: (flight) => flight.durationEstimated },
    // On a card, each end's date and hour on one line.
    oneLine(
      'departure',
      uiLabels.departure,
      (f) => whenOf(f.departureDate, f.departureHour),
      'cards',
    ),
    oneLine('arrival', uiLabels.arrival, (f) => whenOf(f.arrivalDate, f.arrivalHour), 'cards'),
    oneLine('dep-hour', specLabels.departureHour, (f) => formatHour(f.departureHour), 'table'),
    oneLine('arr-hour', specLabels.arrivalHour, (f) => formatHour(f.arrivalHour), 'table'),
    oneLine('dep-date', specLabels.departureDate, (f) => formatDate(f.departureDate), 'table'),
    oneLine('arr-date', specLabels.arrivalDate, (f) => formatDate(f.arrivalDate), 'table'),
    {
      key: 'logo',
      header: specLabels.logo,
      cell: (flight) =>
        flight.logo ? (
          <img
            src={flight.logo}
            alt={adminLabels.logoOf(flight.airlineName || airline.name)}
            className="inline-block h-6 w-10 object-contain"
            loading="lazy"
            referrerPolicy="no-referrer"
          />
        ) : null,
    },
  ];
}

/**
 * Flights an airline's table shows at first, and more with each press of its button: with every
 * row drawn at once, 400 demo flights made a page of cards tens of thousands of pixels tall on a
 * phone, and a real catalogue's hundred thousand would not draw at all.
 */
export const BUSINESS_PAGE_SIZE = 10;

export function AirlineTable({ airline, flights }: AirlineFlights) {
  const [shown, setShown] = useState(BUSINESS_PAGE_SIZE);
  const more = Math.min(BUSINESS_PAGE_SIZE, flights.length - shown);
  return (
    <TitledCard
      title={
        <>
          {airline.image ? (
            <img
              src={airline.image}
              alt=""
              className="size-8 rounded object-contain"
              referrerPolicy="no-referrer"
            />
          ) : null}
          {airline.name}
          <span className="badge badge-ghost">{flights.length}</span>
        </>
      }
      bodyClassName="gap-3 p-3 sm:p-5"
      titleClassName="flex-wrap"
      testId="business-airline"
      data={{ 'data-airline': airline.name }}
    >
      {flights.length === 0 ? (
        <p className="text-base-content/80" data-testid="business-no-flights">
          {messages.businessNoFlights}
        </p>
      ) : (
        <>
          <ResponsiveTable
            columns={flightColumns(airline)}
            rows={flights.slice(0, shown)}
            rowKey={(flight) => flight.id}
            caption={adminLabels.flightsOf(airline.name, flights.length)}
            cardsBelow="lg"
            size="table-xs xl:table-sm"
            testId="business-table"
            rowTone={(flight) => (flight.tickets === 0 ? 'warning' : undefined)}
            rowProps={(flight) => ({
              'data-testid': 'business-row',
              'data-zero-stock': flight.tickets === 0 || undefined,
            })}
          />
          {more > 0 ? (
            <button
              type="button"
              className="btn btn-outline btn-sm self-start"
              onClick={() => setShown(shown + BUSINESS_PAGE_SIZE)}
              data-testid="business-more"
            >
              {adminLabels.showMoreFlights(more, flights.length - shown)}
            </button>
          ) : null}
        </>
      )}
    </TitledCard>
  );
}

/**
 * The business overview (spec §2 Business): for each airline a table of its flights, sold-out
 * rows highlighted (and labelled, so the highlight is not colour alone). Read from the local
 * database, so it also works offline.
 */
export function BusinessOverview({ remote }: { remote: Remote<BusinessData> }) {
  const groups = useMemo(
    () => (remote.data ? groupByAirline(remote.data) : undefined),
    [remote.data],
  );
  return (
    // Eleven columns: on a wide screen the overview takes the page's whole width, past the margins
    // of the main column (docs/architecture.md §8), so that at 1366 px every column shows.
    <div className="xl:mx-[calc(50%-50vw+1.5rem)]">
      <AdminList
        title={specLabels.business}
        caption={`${adminLabels.overviewIntro} ${adminLabels.soldOutRows}`}
        remote={
          groups
            ? { status: 'ready', data: groups }
            : remote.status === 'error'
              ? { status: 'error', error: remote.error }
              : { status: 'loading' }
        }
        isEmpty={(list) => list.length === 0}
        emptyText={messages.businessNoCompanies}
        // Read-only and local: nothing on it needs a connection.
        online
        onRetry={() => undefined}
        testId="business"
      >
        {(list) => (
          <div className="flex flex-col gap-4">
            {list.map((group) => (
              <AirlineTable key={group.airline.id} {...group} />
            ))}
          </div>
        )}
      </AdminList>
    </div>
  );
}
