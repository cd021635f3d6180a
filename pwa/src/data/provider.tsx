import { createContext, useContext, useSyncExternalStore, type ReactNode } from 'react';
import type { SyncStatus } from '../sync/status.ts';
import type { SyncUser } from '../sync/engine.ts';
import { useObservable } from './use-observable.ts';
import type { LocalData } from './local-data.ts';

const LocalDataContext = createContext<LocalData | null>(null);

/** Provides the local database and sync engine (created outside React) to the screens. */
export function LocalDataProvider({ value, children }: { value: LocalData; children: ReactNode }) {
  return <LocalDataContext.Provider value={value}>{children}</LocalDataContext.Provider>;
}

/** The local data layer; only inside `LocalDataProvider`. */
export function useLocalData(): LocalData {
  const data = useContext(LocalDataContext);
  if (!data) throw new Error('useLocalData must be used inside <LocalDataProvider>');
  return data;
}

/** The sync status for an indicator: syncing, up to date, offline or error. */
export function useSyncStatus(): SyncStatus {
  const { engine } = useLocalData();
  return useSyncExternalStore(engine.status.subscribe, engine.status.getSnapshot, engine.status.getSnapshot);
}

/** The user whose data the local database holds (null for a guest). */
export function useSyncUser(): SyncUser | null {
  const { engine } = useLocalData();
  return useObservable(() => engine.user$, [engine], engine.user);
}
