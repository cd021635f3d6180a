import { useMemo, useSyncExternalStore } from 'react';
import type { Observable, Subscription } from 'rxjs';

/**
 * The latest value of an observable (a live query), read with useSyncExternalStore: nothing is
 * copied into component state. `initial` is returned until the first value (a live query's first
 * result arrives asynchronously: `undefined` means "still loading"). The observable is created
 * once per `deps` and shared by every subscriber of this store.
 */
export function useObservable<T, I = undefined>(
  create: () => Observable<T>,
  deps: readonly unknown[],
  initial?: I,
): T | I {
  const store = useMemo(() => {
    let value: T | I = initial as I;
    let subscription: Subscription | undefined;
    const listeners = new Set<() => void>();
    return {
      subscribe(listener: () => void) {
        listeners.add(listener);
        subscription ??= create().subscribe((next) => {
          value = next;
          for (const notify of listeners) notify();
        });
        return () => {
          listeners.delete(listener);
          if (listeners.size === 0) {
            subscription?.unsubscribe();
            subscription = undefined;
          }
        };
      },
      getSnapshot: () => value,
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `deps` are the caller's
  }, deps);
  return useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
}
