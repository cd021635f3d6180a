import {
  createContext,
  use,
  useContext,
  useMemo,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { of } from 'rxjs';
import type { SyncStatus } from '../sync/status.ts';
import type { CatalogueFreshness } from '../ui/price-freshness.tsx';
import type { SyncUser } from '../sync/engine.ts';
import { useObservable } from './use-observable.ts';
import type { LocalData } from './local-data.ts';
import type { LocalDataSource } from './local-data-source.ts';

const LocalDataContext = createContext<LocalDataSource | null>(null);

/** Provides the local database and sync engine (created outside React) to the screens. */
export function LocalDataProvider({
  source,
  children,
}: {
  source: LocalDataSource;
  children: ReactNode;
}) {
  return <LocalDataContext.Provider value={source}>{children}</LocalDataContext.Provider>;
}

function useSource(): LocalDataSource {
  const source = useContext(LocalDataContext);
  if (!source) throw new Error('local data hooks must be used inside <LocalDataProvider>');
  return source;
}

/**
 * The local data layer, for screens that cannot show anything without it: suspends (the route's
 * loader shows) until it is open, and starts opening it if nothing has yet.
 */
export function useLocalData(): LocalData {
  const source = useSource();
  const data = useSyncExternalStore(source.subscribe, source.current, source.current);
  return data ?? use(source.load());
}

/**
 * The local data layer if it is open, else null, without waiting: for the page frame and the
 * home page, which render before it has loaded (and re-render when it has).
 */
export function useLocalDataIfOpen(): LocalData | null {
  const source = useSource();
  // Hydrating the prerendered home page (made without it) starts without it too.
  return useSyncExternalStore(source.subscribe, source.current, notOpen);
}

const notOpen = () => null;

/** Resolves with the local data layer (for an action taken before it has opened). */
export function useLocalDataLoader(): () => Promise<LocalData> {
  const source = useSource();
  return source.load;
}

const STARTING: SyncStatus = {
  phase: 'syncing',
  error: null,
  updateRequired: false,
  rejected: [],
  unsent: null,
  live: false,
  catalogueFreshAt: null,
};

/** The sync status for an indicator: syncing, up to date, offline or error ("syncing" until open). */
export function useSyncStatus(): SyncStatus {
  const data = useLocalDataIfOpen();
  const store = data?.engine.status;
  const subscribe = store?.subscribe ?? noSubscription;
  return useSyncExternalStore(subscribe, store?.getSnapshot ?? startingStatus, startingStatus);
}

/**
 * How fresh the local catalogue's prices are (docs/architecture.md §4.9): null until the local
 * data layer is open (nothing is shown then), else whether they are live and, if not, as of when.
 */
export function useCatalogueFreshness(): CatalogueFreshness | null {
  const open = useLocalDataIfOpen() !== null;
  const { live, catalogueFreshAt } = useSyncStatus();
  return useMemo(
    () => (open ? { live, asOf: catalogueFreshAt } : null),
    [open, live, catalogueFreshAt],
  );
}

const noSubscription = () => () => {};
const startingStatus = () => STARTING;

/** The user whose data the local database holds (null for a guest, or until it is open). */
export function useSyncUser(): SyncUser | null {
  const data = useLocalDataIfOpen();
  return useObservable(() => data?.engine.user$ ?? of(null), [data], data?.engine.user ?? null);
}
