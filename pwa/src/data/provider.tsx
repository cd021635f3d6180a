import {
  createContext,
  startTransition,
  use,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import { useSyncExternalStoreWithSelector } from 'use-sync-external-store/with-selector';
import { shallowEqual } from '../lib/equal.ts';
import type { SyncStatus } from '../sync/status.ts';
import type { CatalogueFreshness } from '../ui/price-freshness.tsx';
import type { LocalData } from './local-data.ts';
import type { LocalDataSource } from './local-data-source.ts';

const LocalDataContext = createContext<LocalDataSource | null>(null);
/** The data layer as the page frame and the home page see it (see `useOpenedLocalData`). */
const OpenedLocalDataContext = createContext<LocalData | null>(null);

/** Provides the local database and sync engine (created outside React) to the screens. */
export function LocalDataProvider({
  source,
  children,
}: {
  source: LocalDataSource;
  children: ReactNode;
}) {
  const opened = useOpenedLocalData(source);
  return (
    <LocalDataContext.Provider value={source}>
      <OpenedLocalDataContext.Provider value={opened}>{children}</OpenedLocalDataContext.Provider>
    </LocalDataContext.Provider>
  );
}

const noSubscription = () => () => {};

/**
 * The data layer once it has opened, taken in as a transition: React renders the page frame and
 * the home page again with it (their live queries start) in slices of a few milliseconds. Read
 * with useSyncExternalStore, that render was blocking: 75-80 ms of a 110-140 ms task at a 4× CPU
 * slowdown, in the middle of a first visit's download of the catalogue (issue 15). While the
 * prerendered home page is hydrated (it was made without the data layer), null.
 */
function useOpenedLocalData(source: LocalDataSource): LocalData | null {
  const hydrating = useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
  const [opened, setOpened] = useState(source.current);
  useEffect(() => {
    const take = () => {
      const current = source.current();
      if (current) startTransition(() => setOpened(current));
    };
    // It may have opened between the render and this effect.
    take();
    return source.subscribe(take);
  }, [source]);
  return hydrating ? null : opened;
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
  useSource();
  return useContext(OpenedLocalDataContext);
}

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
  return useSyncStatusPart(wholeStatus, Object.is);
}

const wholeStatus = (status: SyncStatus) => status;

/**
 * A part of the sync status: the component renders again only when that part changes (`isEqual`),
 * not at every pull's start and end. A change of the whole status renders in one blocking task
 * (useSyncExternalStore), and the home page and the page frame re-rendered whole several times
 * during a first sync: tasks of 120-160 ms on a phone four times slower than a laptop
 * (docs/benchmarks.md §3).
 */
export function useSyncStatusPart<T>(
  select: (status: SyncStatus) => T,
  isEqual: (a: T, b: T) => boolean,
): T {
  const data = useLocalDataIfOpen();
  const store = data?.engine.status;
  const subscribe = store?.subscribe ?? noSubscription;
  return useSyncExternalStoreWithSelector(
    subscribe,
    store?.getSnapshot ?? startingStatus,
    startingStatus,
    select,
    isEqual,
  );
}

const selectFreshness = ({ live, catalogueFreshAt }: SyncStatus) => ({ live, catalogueFreshAt });

/**
 * How fresh the local catalogue's prices are (docs/architecture.md §4.9): null until the local
 * data layer is open (nothing is shown then), else whether they are live and, if not, as of when.
 */
export function useCatalogueFreshness(): CatalogueFreshness | null {
  const open = useLocalDataIfOpen() !== null;
  const { live, catalogueFreshAt } = useSyncStatusPart(selectFreshness, shallowEqual);
  return useMemo(
    () => (open ? { live, asOf: catalogueFreshAt } : null),
    [open, live, catalogueFreshAt],
  );
}

const startingStatus = () => STARTING;
