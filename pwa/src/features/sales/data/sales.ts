import { map, of, switchMap, type Observable } from 'rxjs';
import type { Sale } from '@skyport/shared';
import type { LocalData } from '../../../data/local-data.ts';

/** An approved airline's sales, newest first, read offline from the replicated `sales` collection. */
export function sales$(data: LocalData): Observable<Sale[]> {
  return data.engine.user$.pipe(
    switchMap((user) =>
      user?.role === 'airline' && user.airlineId
        ? data.db.collections.sales
            .find({ sort: [{ createdAt: 'desc' }, { id: 'asc' }] })
            .$.pipe(map((docs) => docs.map((doc) => doc._data as Sale)))
        : of([] as Sale[]),
    ),
  );
}
