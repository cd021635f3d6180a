import { createStore } from '../lib/store.ts';
import type { LocalData } from './local-data.ts';

/**
 * The local data layer as the app sees it before it exists. RxDB, Dexie and the sync engine are
 * about half of the app's JavaScript, so they load in their own chunk: the page frame and the
 * first screen render without them, and the data layer opens right after (or at once when a
 * screen needs it). `load` starts it once; `current` is null until it is open.
 */
export interface LocalDataSource {
  current(): LocalData | null;
  /** Starts opening the data layer (the first call only) and resolves when it is open. */
  load(): Promise<LocalData>;
  /** Called once, when the data layer is open. */
  subscribe(listener: () => void): () => void;
}

export function createLocalDataSource(open: () => Promise<LocalData>): LocalDataSource {
  const data = createStore<LocalData | null>(null);
  let loading: Promise<LocalData> | undefined;
  return {
    current: data.get,
    load() {
      loading ??= open().then((opened) => {
        data.set(opened);
        return opened;
      });
      return loading;
    },
    subscribe: data.subscribe,
  };
}
