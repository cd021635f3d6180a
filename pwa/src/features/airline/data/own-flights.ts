import { useEffect, useMemo } from 'react';
import {
  useMutation,
  useMutationState,
  useQueryClient,
  type MutationCache,
  type MutationState,
} from '@tanstack/react-query';
import { map } from 'rxjs';
import { flightFieldsFromForm, type Flight, type FlightForm } from '@skyport/shared';
import { useLocalData, useSyncStatus } from '../../../data/provider.tsx';
import { useObservable } from '../../../data/use-observable.ts';
import { createFlight, deleteFlights, updateFlight } from '../api/airline-api.ts';
import { flightsWhere$ } from '../../../db/catalogue-reads.ts';

/**
 * The airline's own flights for the catalogue table: a live query of the local flights collection
 * (replicated for everybody, sold-out flights included) filtered by `airlineId`, with the
 * airline's own changes on top while the server decides and until replication brings them.
 *
 * Changes go online (`/api/flights/*`) as TanStack Query mutations (decision 035). A change shows
 * at once, marked pending; the server's answer then replaces it (the stored flight, with its id
 * and the server's values) or removes it again when refused, and the caller shows the server's
 * verdict. The server's answer stays on screen until the local collection has caught up with it,
 * so nothing flickers in between.
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

/**
 * The catalogue changes are TanStack Query mutations under this key (decision 035): the mutation
 * cache holds each change while the server decides and, once stored, until the local collection
 * has caught up with it. The table reads them with `useMutationState`.
 */
export const OWN_FLIGHT_CHANGES = ['own-flights', 'changes'] as const;

type SaveChange = { kind: 'save'; form: FlightForm; airlineId: string; previous: Flight | null };
type DeleteChange = { kind: 'delete'; ids: readonly string[] };
/** What the server answered, shown until `until` if replication has not brought it by then. */
type SavedAnswer = { kind: 'saved'; flight: Flight; until: number };
type GoneAnswer = { kind: 'gone'; ids: readonly string[]; until: number };
export type ChangeState = MutationState<
  SavedAnswer | GoneAnswer,
  unknown,
  SaveChange | DeleteChange
>;

function sameFlight(a: Flight, b: Flight): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** An overlay with its ids in an array: plain data, which `useMutationState` keeps equal. */
type PlainOverlay =
  | Exclude<Overlay, { ids: ReadonlySet<string> }>
  | { op: number; kind: 'delete'; ids: readonly string[] }
  | { op: number; kind: 'gone'; ids: readonly string[]; until: number };

/**
 * What a change puts on top of the local rows: while the server decides, the change as sent;
 * once stored, the server's answer; nothing once refused.
 */
export function overlayOf(op: number, state: ChangeState): PlainOverlay | null {
  const { status, variables: change, data: answer, submittedAt } = state;
  if (status === 'success' && answer) {
    return answer.kind === 'saved'
      ? { op, kind: 'saved', flight: answer.flight, until: answer.until }
      : { op, kind: 'gone', ids: answer.ids, until: answer.until };
  }
  if (status !== 'pending' || !change) return null;
  if (change.kind === 'delete') return { op, kind: 'delete', ids: change.ids };
  const { form, airlineId, previous } = change;
  const flight = provisionalFlight(
    form,
    previous?.id ?? `pending-${op}`,
    airlineId,
    previous,
    submittedAt,
  );
  return { op, kind: previous ? 'update' : 'create', flight };
}

/**
 * Drops the answered changes the local collection (when given) has caught up with, those that
 * waited too long for it, and the refused ones.
 */
export function pruneChanges(cache: MutationCache, local: readonly Flight[] | null, now: number) {
  const byId = local ? new Map(local.map((flight) => [flight.id, flight])) : null;
  const caughtUp = (answer: SavedAnswer | GoneAnswer) => {
    if (!byId) return false;
    if (answer.kind === 'saved') {
      const copy = byId.get(answer.flight.id);
      return copy !== undefined && sameFlight(copy, answer.flight);
    }
    return !answer.ids.some((id) => byId.has(id));
  };
  for (const mutation of cache.findAll({ mutationKey: OWN_FLIGHT_CHANGES })) {
    const { status, data: answer } = mutation.state as ChangeState;
    if (status === 'error' || (answer && (answer.until <= now || caughtUp(answer))))
      cache.remove(mutation);
  }
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
  const client = useQueryClient();
  const changes = useMutationState({
    filters: { mutationKey: OWN_FLIGHT_CHANGES },
    select: (mutation) => overlayOf(mutation.mutationId, mutation.state as ChangeState),
  });
  useEffect(() => {
    if (local) pruneChanges(client.getMutationCache(), local, Date.now());
  }, [client, local, changes]);
  const mine = useMemo(
    () =>
      changes.flatMap((change): Overlay[] => {
        if (change === null) return [];
        if (change.kind === 'delete' || change.kind === 'gone')
          return [{ ...change, ids: new Set(change.ids) }];
        return change.flight.airlineId === airlineId ? [change] : [];
      }),
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
  previous: Flight | null,
  submittedAt: number,
): Flight {
  return {
    id,
    airlineId,
    airlineName: previous?.airlineName ?? '',
    ...flightFieldsFromForm(form),
    logo: previous?.logo ?? '',
    createdAt: previous?.createdAt ?? submittedAt,
  };
}

export type ActionResult<T> = { ok: true; value: T } | { ok: false; error: unknown };

async function resultOf<T>(answer: Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, value: await answer };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * The airline's catalogue changes. `saveOwnFlight` adds (`previous` null) or updates a flight of
 * `airlineId`: shown at once, then as the server stored it, or gone again when the server refuses
 * (the result carries its reason). `deleteOwnFlights` marks flights at once, hides them when the
 * server confirms, and shows them again if it refuses.
 */
export function useOwnFlightChanges() {
  const client = useQueryClient();
  // A confirmed change's wait runs out: prune then (the local data wins).
  const expireLater = () =>
    void setTimeout(
      () => pruneChanges(client.getMutationCache(), null, Date.now()),
      CATCH_UP_MS + 50,
    );
  const save = useMutation({
    mutationKey: OWN_FLIGHT_CHANGES,
    mutationFn: async ({ form, previous }: SaveChange): Promise<SavedAnswer> => {
      const flight = previous ? await updateFlight(previous.id, form) : await createFlight(form);
      return { kind: 'saved', flight, until: Date.now() + CATCH_UP_MS };
    },
    onSuccess: expireLater,
  });
  const remove = useMutation({
    mutationKey: OWN_FLIGHT_CHANGES,
    mutationFn: async ({ ids }: DeleteChange): Promise<GoneAnswer> => {
      const deleted = await deleteFlights(ids);
      return { kind: 'gone', ids: deleted, until: Date.now() + CATCH_UP_MS };
    },
    onSuccess: expireLater,
  });
  return {
    saveOwnFlight: (
      form: FlightForm,
      airlineId: string,
      previous: Flight | null,
    ): Promise<ActionResult<Flight>> =>
      resultOf(
        save
          .mutateAsync({ kind: 'save', form, airlineId, previous })
          .then((answer) => answer.flight),
      ),
    deleteOwnFlights: (ids: readonly string[]): Promise<ActionResult<string[]>> =>
      resultOf(remove.mutateAsync({ kind: 'delete', ids }).then((answer) => [...answer.ids])),
  };
}
