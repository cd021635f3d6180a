import { useMemo } from 'react';
import { messages, specLabels, type Airline, type Flight } from '@skyport/shared';
import { CountryFlag } from '../../../ui/country-flag.tsx';
import { formatDate, formatPrice } from '../../../ui/format.ts';
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

function Place({ country }: { country: string }) {
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
      <CountryFlag country={country} />
      {country}
    </span>
  );
}

function AirlineTable({ airline, flights }: AirlineFlights) {
  const headingId = `business-${airline.id}`;
  return (
    <section
      className="card card-border bg-base-100 shadow-sm"
      aria-labelledby={headingId}
      data-testid="business-airline"
      data-airline={airline.name}
    >
      <div className="card-body gap-3 p-3 sm:p-5">
        <h2 id={headingId} className="card-title flex-wrap">
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
        </h2>
        {flights.length === 0 ? (
          <p className="text-base-content/80" data-testid="business-no-flights">
            {messages.businessNoFlights}
          </p>
        ) : (
          <div className="overflow-x-auto" role="region" aria-labelledby={headingId} tabIndex={0}>
            <table className="table table-xs md:table-sm" data-testid="business-table">
              <caption className="sr-only">
                {adminLabels.flightsOf(airline.name, flights.length)}
              </caption>
              <thead>
                <tr>
                  <th scope="col">{specLabels.airline}</th>
                  <th scope="col" className="text-right">
                    {specLabels.price}
                  </th>
                  <th scope="col" className="text-right">
                    {specLabels.stock}
                  </th>
                  <th scope="col">{specLabels.origin}</th>
                  <th scope="col">{specLabels.destination}</th>
                  <th scope="col">{specLabels.duration}</th>
                  <th scope="col">{specLabels.departureHour}</th>
                  <th scope="col">{specLabels.arrivalHour}</th>
                  <th scope="col">{specLabels.departureDate}</th>
                  <th scope="col">{specLabels.arrivalDate}</th>
                  <th scope="col">{specLabels.logo}</th>
                </tr>
              </thead>
              <tbody>
                {flights.map((flight) => {
                  const soldOut = flight.tickets === 0;
                  return (
                    <tr
                      key={flight.id}
                      className={soldOut ? 'bg-warning/25' : undefined}
                      data-testid="business-row"
                      data-zero-stock={soldOut || undefined}
                    >
                      <td className="whitespace-nowrap">{flight.airlineName || airline.name}</td>
                      <td className="text-right whitespace-nowrap">
                        {formatPrice(flight.priceCents)}
                      </td>
                      <td className="text-right whitespace-nowrap">
                        {soldOut ? (
                          <span className="badge badge-warning badge-sm font-semibold">
                            0<span className="sr-only">, </span> {adminLabels.soldOut}
                          </span>
                        ) : (
                          flight.tickets
                        )}
                      </td>
                      <td>
                        <Place country={flight.origin} />
                      </td>
                      {/* docs/architecture.md §8: the Destination column shows the destination (the spec's showed the arrival hour). */}
                      <td data-testid="business-destination">
                        <Place country={flight.destination} />
                      </td>
                      <td>{flight.durationEstimated}</td>
                      <td>{flight.departureHour}</td>
                      <td>{flight.arrivalHour}</td>
                      <td className="whitespace-nowrap">{formatDate(flight.departureDate)}</td>
                      <td className="whitespace-nowrap">{formatDate(flight.arrivalDate)}</td>
                      <td>
                        {flight.logo ? (
                          <img
                            src={flight.logo}
                            alt={adminLabels.logoOf(flight.airlineName || airline.name)}
                            className="h-6 w-10 object-contain"
                            loading="lazy"
                            referrerPolicy="no-referrer"
                          />
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
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
      scroll={false}
    >
      {(list) => (
        <div className="flex flex-col gap-4">
          {list.map((group) => (
            <AirlineTable key={group.airline.id} {...group} />
          ))}
        </div>
      )}
    </AdminList>
  );
}
