import { Observable, filter, from, startWith, switchMap } from 'rxjs';
import { nextTask } from '../ui/idle.ts';
import type { CatalogueFlight, CatalogueReplica } from './catalogue-replica.ts';

/**
 * Live reads of the catalogue's replica (db/catalogue-replica.ts) for the screens: the flights of
 * a few ids (a cart's, favourites', sales'), or every flight that passes a test (an airline's own,
 * all of them for the administrator). Each read again after a change that concerns it; the home
 * page's index keeps its own (features/catalog/data/catalogue.ts).
 */

/** The flights with these ids that the replica holds, now and after each change of one of them. */
export function flightsByIds$(
  catalogue: CatalogueReplica,
  ids: readonly string[],
): Observable<Map<string, CatalogueFlight>> {
  const wanted = new Set(ids);
  return catalogue.changes$.pipe(
    filter(
      (change) => change === 'reset' || change.flights.some((changed) => wanted.has(changed.id)),
    ),
    startWith(null),
    switchMap(() => from(catalogue.get(ids))),
  );
}

/** Flights per read of `flightsWhere$`: one IndexedDB request each, in a task of its own. */
const READ_STEP = 2000;

/**
 * Every flight of the replica that passes `keep`, in id order, now and after each change: a few
 * changed flights are applied to what was read, a `'reset'` reads again.
 */
export function flightsWhere$(
  catalogue: CatalogueReplica,
  keep: (flight: CatalogueFlight) => boolean,
): Observable<CatalogueFlight[]> {
  return new Observable<CatalogueFlight[]>((subscriber) => {
    let kept: Map<string, CatalogueFlight> | undefined;
    let stopped = false;
    /** Which read is the latest; an older one that ends is dropped. */
    let generation = 0;
    let reading = false;

    const emit = () => {
      if (!kept || stopped) return;
      subscriber.next([...kept.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)));
    };

    function readAll() {
      const mine = ++generation;
      reading = true;
      void (async () => {
        const found = new Map<string, CatalogueFlight>();
        let after: string | undefined;
        for (;;) {
          const page = await catalogue.page(after, READ_STEP);
          if (stopped || mine !== generation) return;
          for (const flight of page) if (keep(flight)) found.set(flight.id, flight);
          if (page.length < READ_STEP) break;
          after = page[page.length - 1]!.id;
          await nextTask();
        }
        kept = found;
        reading = false;
        emit();
      })().catch((error: unknown) => subscriber.error(error));
    }

    const changes = catalogue.changes$.subscribe((change) => {
      // A read under way may have passed these flights already: it starts again.
      if (change === 'reset' || reading || !kept) return readAll();
      let changed = false;
      for (const { id, flight } of change.flights) {
        if (flight && keep(flight)) kept.set(id, flight);
        else if (!kept.delete(id)) continue;
        changed = true;
      }
      if (changed) emit();
    });
    readAll();
    return () => {
      stopped = true;
      changes.unsubscribe();
    };
  });
}
