import { startTransition, useEffect, useMemo, useState } from 'react';
import type { Observable } from 'rxjs';

/**
 * The latest value of an observable (a live query). `initial` is returned until the first value
 * (a live query's first result arrives asynchronously: `undefined` means "still loading"). The
 * observable is created once per `deps`.
 *
 * A value that arrives later (a query's result, a change synced from the server) is rendered as a
 * transition: React renders it in slices of a few milliseconds, so a page of results arriving on
 * a slow phone never holds the main thread long enough to delay a tap. (useSyncExternalStore
 * would render every change in one blocking task.) A value the observable has at once, on
 * subscribing, is rendered as an ordinary update.
 */
export function useObservable<T, I = undefined>(
  create: () => Observable<T>,
  deps: readonly unknown[],
  initial?: I,
): T | I {
  // `deps` are the caller's: neither a literal array nor checkable here.
  // eslint-disable-next-line react-hooks/exhaustive-deps, react-hooks/use-memo
  const observable = useMemo(create, deps);
  const [latest, setLatest] = useState<{ from: Observable<T>; value: T } | null>(null);
  useEffect(() => {
    let subscribing = true;
    const subscription = observable.subscribe((value) => {
      if (subscribing) setLatest({ from: observable, value });
      else startTransition(() => setLatest({ from: observable, value }));
    });
    subscribing = false;
    return () => subscription.unsubscribe();
  }, [observable]);
  // A value of the previous observable (before `deps` changed) is not this one's.
  return latest?.from === observable ? latest.value : (initial as I);
}
