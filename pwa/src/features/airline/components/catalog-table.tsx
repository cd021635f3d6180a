import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { CATALOG_PAGE_SIZE, specLabels, type Flight } from '@skyport/shared';
import { CountryFlag } from '../../../ui/country-flag.tsx';
import { Loader } from '../../../ui/loader.tsx';
import { Pagination } from '../../../ui/pagination.tsx';
import { formatDate, formatPrice } from '../../../ui/format.ts';
import type { CatalogRow } from '../data/own-flights.ts';
import { airlineLabels } from '../labels.ts';

export interface CatalogTableProps {
  rows: readonly CatalogRow[];
  loading: boolean;
  /** 1-based page (from the URL); clamped to the pages there are. */
  page: number;
  onPageChange: (page: number) => void;
  /** Adding, editing and deleting need a connection (docs/architecture.md §1). */
  online: boolean;
  onAdd: () => void;
  onEdit: (flight: Flight) => void;
  /** Called with the selected ids (possibly none: the route answers "Choose a flight"). */
  onDelete: (flightIds: string[]) => void;
  title?: string;
  /** 1 on /catalog; 2 under the airline's header on /catalogProfile. */
  headingLevel?: 1 | 2;
}

function Place({ country }: { country: string }) {
  return (
    <span className="inline-flex items-center gap-1.5 whitespace-nowrap">
      <CountryFlag country={country} />
      {country}
    </span>
  );
}

/**
 * The airline's catalogue (spec §2 Catalog): 5 rows per page, Add, Edit by double-clicking a row
 * (or Enter on a focused row, or its Edit button), Delete of the checked rows. Rows waiting for
 * the server are marked, so an optimistic change never looks final before it is.
 */
export function CatalogTable({
  rows,
  loading,
  page,
  onPageChange,
  online,
  onAdd,
  onEdit,
  onDelete,
  title = specLabels.catalog,
  headingLevel = 1,
}: CatalogTableProps) {
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const captionId = useId();
  const offlineId = useId();
  const pageCount = Math.max(1, Math.ceil(rows.length / CATALOG_PAGE_SIZE));
  const current = Math.min(Math.max(1, page), pageCount);
  const visible = rows.slice((current - 1) * CATALOG_PAGE_SIZE, current * CATALOG_PAGE_SIZE);
  // Only rows still listed count as selected (a deleted flight leaves the selection).
  const selectedIds = useMemo(
    () => rows.filter((row) => selected.has(row.flight.id)).map((row) => row.flight.id),
    [rows, selected],
  );
  const selectable = visible.filter((row) => row.pending === null);
  const allOnPage = selectable.length > 0 && selectable.every((row) => selected.has(row.flight.id));
  const someOnPage = selectable.some((row) => selected.has(row.flight.id));

  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });
  const togglePage = (on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      for (const row of selectable) {
        if (on) next.add(row.flight.id);
        else next.delete(row.flight.id);
      }
      return next;
    });
  const onRowKey = (event: KeyboardEvent<HTMLTableRowElement>, row: CatalogRow) => {
    if (event.target !== event.currentTarget || row.pending !== null) return;
    if (event.key === 'Enter') {
      event.preventDefault();
      if (online) onEdit(row.flight);
    } else if (event.key === ' ') {
      event.preventDefault();
      toggle(row.flight.id, !selected.has(row.flight.id));
    }
  };
  const disabledReason = online ? undefined : offlineId;

  return (
    <section className="flex flex-col gap-4" aria-labelledby={`${captionId}-title`}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Heading id={`${captionId}-title`} className="text-2xl font-bold">
          {title}
        </Heading>
        <div className="flex flex-wrap items-center gap-2">
          {selectedIds.length > 0 ? (
            <span className="badge badge-ghost" aria-live="polite">
              {airlineLabels.selected(selectedIds.length)}
            </span>
          ) : null}
          <button
            type="button"
            className="btn btn-primary"
            onClick={onAdd}
            disabled={!online}
            aria-describedby={disabledReason}
            data-testid="catalog-add"
          >
            <svg
              viewBox="0 0 24 24"
              className="size-4"
              fill="none"
              stroke="currentColor"
              strokeWidth="2.5"
              aria-hidden="true"
            >
              <path d="M12 5v14M5 12h14" />
            </svg>
            {specLabels.add}
          </button>
          <button
            type="button"
            className="btn btn-error btn-outline"
            onClick={() => onDelete(selectedIds)}
            disabled={!online}
            aria-describedby={disabledReason}
            data-testid="catalog-delete"
          >
            {specLabels.delete}
          </button>
        </div>
      </div>
      {online ? null : (
        <p
          id={offlineId}
          role="status"
          className="alert alert-warning alert-soft text-sm"
          data-testid="catalog-offline"
        >
          {airlineLabels.offlineActions}
        </p>
      )}
      {loading && rows.length === 0 ? (
        <Loader />
      ) : (
        <div
          className="overflow-x-auto rounded-box border border-base-300 bg-base-100"
          role="region"
          aria-labelledby={`${captionId}-title`}
          tabIndex={0}
        >
          <table className="table table-sm md:table-md" data-testid="catalog-table">
            <caption id={captionId} className="sr-only">
              {airlineLabels.catalogCaption(rows.length)}
            </caption>
            <thead>
              <tr>
                <th className="w-10">
                  <input
                    type="checkbox"
                    className="checkbox checkbox-sm"
                    aria-label={airlineLabels.selectPage}
                    checked={allOnPage}
                    ref={(element) => {
                      if (element) element.indeterminate = someOnPage && !allOnPage;
                    }}
                    disabled={selectable.length === 0}
                    onChange={(event) => togglePage(event.target.checked)}
                  />
                </th>
                {/* Phones: one "Flight" column (route and departure) so that price and stock fit. */}
                <th scope="col" className="sm:hidden">
                  {airlineLabels.flight}
                </th>
                <th scope="col" className="hidden sm:table-cell">
                  {airlineLabels.origin}
                </th>
                <th scope="col" className="hidden sm:table-cell">
                  {airlineLabels.destination}
                </th>
                <th scope="col" className="hidden sm:table-cell">
                  {airlineLabels.departureDate}
                </th>
                <th scope="col" className="hidden md:table-cell">
                  {airlineLabels.arrivalDate}
                </th>
                <th scope="col" className="hidden sm:table-cell">
                  {airlineLabels.duration}
                </th>
                <th scope="col" className="text-right">
                  {airlineLabels.price}
                </th>
                <th scope="col" className="text-right">
                  {airlineLabels.stock}
                </th>
                <th scope="col">
                  <span className="sr-only">{specLabels.edit}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {visible.length === 0 ? (
                <tr>
                  <td
                    colSpan={10}
                    className="py-8 text-center text-base-content/80"
                    data-testid="catalog-empty"
                  >
                    {airlineLabels.noFlights}
                  </td>
                </tr>
              ) : (
                visible.map((row) => {
                  const { flight, pending } = row;
                  const route = airlineLabels.route(flight.origin, flight.destination);
                  return (
                    <tr
                      key={flight.id}
                      tabIndex={pending === null ? 0 : -1}
                      className={`row-hover ${pending ? 'opacity-60' : 'cursor-pointer'} ${selected.has(flight.id) ? 'bg-primary/10' : ''}`}
                      aria-busy={pending ? true : undefined}
                      aria-label={route}
                      onDoubleClick={() => pending === null && online && onEdit(flight)}
                      onKeyDown={(event) => onRowKey(event, row)}
                      data-testid="catalog-row"
                      data-flight-id={flight.id}
                      data-pending={pending ?? undefined}
                    >
                      <td onDoubleClick={(event) => event.stopPropagation()}>
                        <input
                          type="checkbox"
                          className="checkbox checkbox-sm"
                          aria-label={airlineLabels.selectFlight(route)}
                          checked={selected.has(flight.id)}
                          disabled={pending !== null}
                          onChange={(event) => toggle(flight.id, event.target.checked)}
                        />
                      </td>
                      <td className="sm:hidden">
                        <div className="flex flex-col gap-0.5">
                          <Place country={flight.origin} />
                          <span className="inline-flex items-center gap-1">
                            <span aria-hidden="true">→</span>
                            <span className="sr-only">{airlineLabels.to}</span>
                            <Place country={flight.destination} />
                          </span>
                          <span className="text-xs text-base-content/70">
                            {formatDate(flight.departureDate)} {flight.departureHour}
                          </span>
                        </div>
                      </td>
                      <td className="hidden sm:table-cell">
                        <Place country={flight.origin} />
                      </td>
                      <td className="hidden sm:table-cell">
                        <Place country={flight.destination} />
                      </td>
                      <td className="hidden whitespace-nowrap sm:table-cell">
                        {formatDate(flight.departureDate)}{' '}
                        <span className="text-base-content/70">{flight.departureHour}</span>
                      </td>
                      <td className="hidden whitespace-nowrap md:table-cell">
                        {formatDate(flight.arrivalDate)}{' '}
                        <span className="text-base-content/70">{flight.arrivalHour}</span>
                      </td>
                      <td className="hidden sm:table-cell">{flight.durationEstimated}</td>
                      <td className="text-right whitespace-nowrap">
                        {formatPrice(flight.priceCents)}
                      </td>
                      <td className="text-right">
                        {flight.tickets === 0 ? (
                          <span className="badge badge-warning badge-sm">
                            {airlineLabels.soldOut}
                          </span>
                        ) : (
                          flight.tickets
                        )}
                      </td>
                      <td className="whitespace-nowrap text-right">
                        {pending ? (
                          <span className="inline-flex items-center gap-1 text-xs" role="status">
                            <span
                              className="loading loading-spinner loading-xs"
                              aria-hidden="true"
                            />
                            {pending === 'delete' ? airlineLabels.deleting : airlineLabels.saving}
                          </span>
                        ) : (
                          <button
                            type="button"
                            className="btn btn-ghost btn-xs"
                            aria-label={airlineLabels.editFlight(route)}
                            disabled={!online}
                            onClick={() => onEdit(flight)}
                            onDoubleClick={(event) => event.stopPropagation()}
                          >
                            {specLabels.edit}
                          </button>
                        )}
                      </td>
                    </tr>
                  );
                })
              )}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={current} pageCount={pageCount} onPageChange={onPageChange} />
    </section>
  );
}
