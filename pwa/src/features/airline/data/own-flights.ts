import { useEffect, useMemo } from 'react';
import { map } from 'rxjs';
import { flightFieldsFromForm, type Flight, type FlightForm } from '@skyport/shared';
import { useLocalData, useSyncStatus } from '../../../data/provider.tsx';
import { useObservable } from '../../../data/use-observable.ts';
import { createStore, useStore } from '../../../lib/store.ts';
import { createFlight, deleteFlights, updateFlight } from '../api/airline-api.ts';
import { flightsWhere$ } from '../../../db/catalogue-reads.ts';

/**
 * The airline's own flights for the catalogue table: a live query of the local flights collection
 * (replicated for everybody, sold-out flights included) filtered by `airlineId`, with the
 * airline's own changes on top while the server decides and until replication brings them.
 *
 * Changes go online (`/api/flights/*`). A change shows at once, marked pending; the server's answer
 * then replaces it (the stored flight, with its id and the server's values) or removes it again
 * when refused, and the caller shows the server's verdict. The server's answer stays on screen
 * until the local collection has caught up with it, so nothing flickers in between.
 */
export type PendingKind = 'create' | 'update' | 'delete';

export interface CatalogRow {
  flight: Flight;
  /** What is waiting for the server on this row, if anything. */
  pending: PendingKind | null;
}

export interface OwnFlightsView {
  /** True until the local collection has answered (or while its first sync is running). */
  loading: boolean;
  rows: readonly CatalogRow[];
}

export type Overlay =
  | { op: number; kind: 'create'; flight: Flight }
  | { op: number; kind: 'update'; flight: Flight }
  | { op: number; kind: 'delete'; ids: ReadonlySet<string> }
  /** The server stored this flight; shown until the local copy equals it. */
  | { op: number; kind: 'saved'; flight: Flight; until: number }
  /** The server deleted these; hidden until the local copies are gone. */
  | { op: number; kind: 'gone'; ids: ReadonlySet<string>; until: number };

/** How long a confirmed change may wait for replication before the local data wins again. */
const CATCH_UP_MS = 60_000;

const overlays = createStore<readonly Overlay[]>([]);
let nextOp = 1;

function addOverlay(overlay: Overlay) {
  overlays.set([...overlays.get(), overlay]);
}

/** Replaces the change `op` with what the server made of it. */
function settleOverlay(op: number, settled: Overlay) {
  overlays.set([...overlays.get().filter((overlay) => overlay.op !== op), settled]);
}

function removeOverlay(op: number) {
  overlays.set(overlays.get().filter((overlay) => overlay.op !== op));
}

function sameFlight(a: Flight, b: Flight): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Drops the confirmed changes the local collection (when given) has caught up with, and those
 * that waited too long for it.
 */
function pruneOverlays(local: readonly Flight[] | null, now: number) {
  const byId = local ? new Map(local.map((flight) => [flight.id, flight])) : null;
  const current = overlays.get();
  const kept = current.filter((overlay) => {
    if (overlay.kind !== 'saved' && overlay.kind !== 'gone') return true;
    if (overlay.until <= now) return false;
    if (!byId) return true;
    if (overlay.kind === 'saved') {
      const copy = byId.get(overlay.flight.id);
      return !(copy && sameFlight(copy, overlay.flight));
    }
    return [...overlay.ids].some((id) => byId.has(id));
  });
  if (kept.length !== current.length) overlays.set(kept);
}

/** The local rows with the changes on top. */
export function applyOverlays(local: readonly Flight[], changes: readonly Overlay[]): CatalogRow[] {
  const rows: CatalogRow[] = local.map((flight) => ({ flight, pending: null }));
  const indexOf = (id: string) => rows.findIndex((row) => row.flight.id === id);
  for (const change of changes) {
    switch (change.kind) {
      case 'create':
        rows.push({ flight: change.flight, pending: 'create' });
        break;
      case 'saved':
      case 'update': {
        const index = indexOf(change.flight.id);
        const row = {
          flight: change.flight,
          pending: change.kind === 'update' ? ('update' as const) : null,
        };
        if (index >= 0) rows[index] = row;
        else rows.push(row);
        break;
      }
      case 'delete':
        for (const row of rows) if (change.ids.has(row.flight.id)) row.pending = 'delete';
        break;
      case 'gone':
        for (let index = rows.length - 1; index >= 0; index--) {
          if (change.ids.has(rows[index]!.flight.id)) rows.splice(index, 1);
        }
        break;
    }
  }
  return rows;
}

/** Oldest first, ties by id. */
function byCreation(a: Flight, b: Flight): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The airline's flights in the local catalogue, live, oldest first (`undefined` until read). */
function useLocalOwnFlights(airlineId: string): Flight[] | undefined {
  const { catalogue } = useLocalData();
  return useObservable(
    () =>
      flightsWhere$(catalogue, (flight) => flight.airlineId === airlineId).pipe(
        map((flights) => flights.sort(byCreation)),
      ),
    [catalogue, airlineId],
    undefined,
  );
}

/** The airline's flights, live, with the pending changes marked. */
export function useOwnFlights(airlineId: string): OwnFlightsView {
  const local = useLocalOwnFlights(airlineId);
  const status = useSyncStatus();
  const changes = useStore(overlays);
  useEffect(() => {
    if (local) pruneOverlays(local, Date.now());
  }, [local, changes]);
  const mine = useMemo(
    () =>
      changes.filter(
        (change) =>
          change.kind === 'delete' ||
          change.kind === 'gone' ||
          change.flight.airlineId === airlineId,
      ),
    [changes, airlineId],
  );
  const rows = useMemo(() => applyOverlays(local ?? [], mine), [local, mine]);
  return {
    loading: local === undefined || (local.length === 0 && status.phase === 'syncing'),
    rows,
  };
}

/** A flight as the form describes it, shown until the server answers. */
function provisionalFlight(
  form: FlightForm,
  id: string,
  airlineId: string,
  previous: Flight | undefined,
): Flight {
  return {
    id,
    airlineId,
    airlineName: previous?.airlineName ?? '',
    ...flightFieldsFromForm(form),
    logo: previous?.logo ?? '',
    createdAt: previous?.createdAt ?? Date.now(),
  };
}

export type ActionResult<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Schedules a prune when a confirmed change's wait runs out (the local data wins then). */
function expireLater() {
  setTimeout(() => pruneOverlays(null, Date.now()), CATCH_UP_MS + 50);
}

/**
 * Adds (`previous` null) or updates a flight of `airlineId`: shown at once, then as the server
 * stored it, or gone again when the server refuses (the result carries its reason).
 */
export async function saveOwnFlight(
  form: FlightForm,
  airlineId: string,
  previous: Flight | null,
): Promise<ActionResult<Flight>> {
  const op = nextOp++;
  const provisional = provisionalFlight(
    form,
    previous?.id ?? `pending-${op}`,
    airlineId,
    previous ?? undefined,
  );
  addOverlay(
    previous
      ? { op, kind: 'update', flight: provisional }
      : { op, kind: 'create', flight: provisional },
  );
  try {
    const saved = previous ? await updateFlight(previous.id, form) : await createFlight(form);
    settleOverlay(op, { op, kind: 'saved', flight: saved, until: Date.now() + CATCH_UP_MS });
    expireLater();
    return { ok: true, value: saved };
  } catch (error) {
    removeOverlay(op);
    return { ok: false, error };
  }
}

/** Deletes flights: marked at once, gone when the server confirms, back if it refuses. */
export async function deleteOwnFlights(ids: readonly string[]): Promise<ActionResult<string[]>> {
  const op = nextOp++;
  addOverlay({ op, kind: 'delete', ids: new Set(ids) });
  try {
    const deleted = await deleteFlights(ids);
    settleOverlay(op, { op, kind: 'gone', ids: new Set(deleted), until: Date.now() + CATCH_UP_MS });
    expireLater();
    return { ok: true, value: deleted };
  } catch (error) {
    removeOverlay(op);
    return { ok: false, error };
  }
}
