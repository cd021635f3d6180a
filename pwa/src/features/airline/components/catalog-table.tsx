import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { CATALOG_PAGE_SIZE, specLabels, type Flight } from '@skyport/shared';
import { Loader } from '../../../ui/loader.tsx';
import { PageSection, StatusNote } from '../../../ui/page-section.tsx';
import { Pagination } from '../../../ui/pagination.tsx';
import { formatDate, formatHour, formatPrice } from '../../../ui/format.ts';
import { ResponsiveTable, type Column } from '../../../ui/responsive-table.tsx';
import { Place, Route } from '../../../ui/route.tsx';
import type { CatalogRow } from '../data/own-flights.ts';
import { airlineLabels } from '../labels.ts';

export interface CatalogTableProps {
  rows: readonly CatalogRow[];
  loading: boolean;
  /** 1-based page (from the URL); clamped to the pages there are. */
  page: number;
  onPageChange: (page: number) => void;
  /** Adding, editing and deleting need a connection (docs/architecture.md §2.2). */
  online: boolean;
  onAdd: () => void;
  onEdit: (flight: Flight) => void;
  /** Called with the selected ids (possibly none: the route answers "Choose a flight"). */
  onDelete: (flightIds: string[]) => void;
  title?: string;
  /** 1 on /catalog; 2 under the airline's header on /catalogProfile. */
  headingLevel?: 1 | 2;
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
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
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
  const pageBox = (
    <PageCheckbox
      checked={allOnPage}
      indeterminate={someOnPage && !allOnPage}
      disabled={selectable.length === 0}
      onChange={togglePage}
    />
  );

  const columns: readonly Column<CatalogRow>[] = [
    {
      key: 'select',
      header: pageBox,
      kind: 'select',
      headerClassName: 'w-10',
      cell: ({ flight, pending }) => (
        <input
          type="checkbox"
          className="checkbox checkbox-sm"
          aria-label={airlineLabels.selectFlight(routeOf(flight))}
          checked={selected.has(flight.id)}
          disabled={pending !== null}
          onChange={(event) => toggle(flight.id, event.target.checked)}
          onDoubleClick={(event) => event.stopPropagation()}
        />
      ),
    },
    // A phone's card is headed by the route; the table has a column for each end.
    {
      key: 'route',
      header: airlineLabels.flight,
      kind: 'title',
      only: 'cards',
      cell: ({ flight }) => <Route origin={flight.origin} destination={flight.destination} />,
    },
    {
      key: 'origin',
      header: airlineLabels.origin,
      only: 'table',
      cell: ({ flight }) => <Place country={flight.origin} />,
    },
    {
      key: 'destination',
      header: airlineLabels.destination,
      only: 'table',
      cell: ({ flight }) => <Place country={flight.destination} />,
    },
    {
      key: 'departure',
      header: airlineLabels.departureDate,
      className: 'whitespace-nowrap',
      cell: ({ flight }) => <DateAndHour date={flight.departureDate} hour={flight.departureHour} />,
    },
    {
      key: 'arrival',
      header: airlineLabels.arrivalDate,
      className: 'whitespace-nowrap',
      cell: ({ flight }) => <DateAndHour date={flight.arrivalDate} hour={flight.arrivalHour} />,
    },
    {
      key: 'duration',
      header: airlineLabels.duration,
      cell: ({ flight }) => flight.durationEstimated,
    },
    {
      key: 'price',
      header: airlineLabels.price,
      numeric: true,
      className: 'whitespace-nowrap',
      cell: ({ flight }) => formatPrice(flight.priceCents),
    },
    {
      key: 'stock',
      header: airlineLabels.stock,
      numeric: true,
      cell: ({ flight }) =>
        flight.tickets === 0 ? (
          <span className="badge badge-warning badge-sm">{airlineLabels.soldOut}</span>
        ) : (
          flight.tickets
        ),
    },
    {
      key: 'edit',
      header: <span className="sr-only">{specLabels.edit}</span>,
      kind: 'actions',
      className: 'whitespace-nowrap md:text-right',
      cell: ({ flight, pending }) =>
        pending ? (
          <span className="inline-flex items-center gap-1 text-xs" role="status">
            <span className="loading loading-spinner loading-xs" aria-hidden="true" />
            {pending === 'delete' ? airlineLabels.deleting : airlineLabels.saving}
          </span>
        ) : (
          <button
            type="button"
            className="btn btn-ghost btn-xs max-md:btn-outline max-md:btn-sm"
            aria-label={airlineLabels.editFlight(routeOf(flight))}
            disabled={!online}
            onClick={() => onEdit(flight)}
            onDoubleClick={(event) => event.stopPropagation()}
          >
            {specLabels.edit}
          </button>
        ),
    },
  ];

  return (
    <PageSection
      title={title}
      headingLevel={headingLevel}
      actions={
        <>
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
          {/* On a phone the table's header (and its page checkbox) gives way to the cards. */}
          <label className="flex basis-full items-center gap-2 text-sm md:hidden">
            {pageBox}
            <span aria-hidden="true">{airlineLabels.selectPage}</span>
          </label>
        </>
      }
    >
      {online ? null : (
        <StatusNote id={offlineId} testId="catalog-offline">
          {airlineLabels.offlineActions}
        </StatusNote>
      )}
      {loading && rows.length === 0 ? (
        <Loader />
      ) : (
        <ResponsiveTable
          columns={columns}
          rows={visible}
          rowKey={(row) => row.flight.id}
          caption={airlineLabels.catalogCaption(rows.length)}
          framed
          testId="catalog-table"
          empty={
            <p className="py-8 text-center text-base-content/80" data-testid="catalog-empty">
              {airlineLabels.noFlights}
            </p>
          }
          rowTone={(row) =>
            row.pending ? 'muted' : selected.has(row.flight.id) ? 'selected' : undefined
          }
          rowProps={(row) => {
            const { flight, pending } = row;
            return {
              className: pending ? undefined : 'row-hover cursor-pointer',
              tabIndex: pending === null ? 0 : -1,
              'aria-busy': pending ? true : undefined,
              'aria-label': routeOf(flight),
              onDoubleClick: () => pending === null && online && onEdit(flight),
              onKeyDown: (event) => onRowKey(event, row),
              'data-testid': 'catalog-row',
              'data-flight-id': flight.id,
              'data-pending': pending ?? undefined,
            };
          }}
        />
      )}
      <Pagination page={current} pageCount={pageCount} onPageChange={onPageChange} />
    </PageSection>
  );
}

const routeOf = (flight: Flight) => airlineLabels.route(flight.origin, flight.destination);

/** A date with its hour, dimmer: when a flight leaves or lands. */
function DateAndHour({ date, hour }: { date: string; hour: string }) {
  return (
    <>
      {formatDate(date)} <span className="text-base-content/70">{formatHour(hour)}</span>
    </>
  );
}

/** "Select every flight on this page": checked, unchecked or mixed. */
function PageCheckbox({
  checked,
  indeterminate,
  disabled,
  onChange,
}: {
  checked: boolean;
  indeterminate: boolean;
  disabled: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <input
      type="checkbox"
      className="checkbox checkbox-sm"
      aria-label={airlineLabels.selectPage}
      checked={checked}
      ref={(element) => {
        if (element) element.indeterminate = indeterminate;
      }}
      disabled={disabled}
      onChange={(event) => onChange(event.target.checked)}
    />
  );
}
