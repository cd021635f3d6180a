import { of, switchMap, type Observable } from 'rxjs';
import type { Theme } from '@skyport/shared';
import { localTheme$, writeLocalTheme } from '../../../db/local-state.ts';
import { useLocalData } from '../../../data/provider.tsx';
import { useObservable } from '../../../data/use-observable.ts';
import type { LocalData } from '../../../data/local-data.ts';

/**
 * The theme (spec §1: remembered in browser storage): the device's choice, kept locally before
 * any login; a customer's is also their replicated preference, so it follows them to other devices.
 */
export function theme$(data: LocalData): Observable<Theme> {
  return data.engine.user$.pipe(
    switchMap((user) =>
      user?.role === 'customer'
        ? data.db.collections.preferences.findOne(user.id).$.pipe(
            switchMap((doc) => (doc ? of(doc.theme) : localTheme$(data.db))),
          )
        : localTheme$(data.db),
    ),
  );
}

export async function setTheme(data: LocalData, theme: Theme): Promise<void> {
  await writeLocalTheme(data.db, theme);
  const user = data.engine.user;
  if (user?.role === 'customer') {
    await data.db.collections.preferences.upsert({ id: user.id, userId: user.id, theme });
  }
}

/** The chosen theme ('system' until one is chosen). */
export function useTheme(): Theme {
  const data = useLocalData();
  return useObservable(() => theme$(data), [data], 'system' as Theme);
}

export function useSetTheme() {
  const data = useLocalData();
  return (theme: Theme) => setTheme(data, theme);
}

