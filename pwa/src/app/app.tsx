import { filter, firstValueFrom } from 'rxjs';
import { RouterProvider } from 'react-router-dom';
import { LocalDataProvider } from '../data/provider.tsx';
import { createLocalDataSource, type LocalDataSource } from '../data/local-data-source.ts';
import { catalogueSyncedBefore, prefetchHomePage } from '../features/catalog/data/catalogue.ts';
import { router } from './router.tsx';
import { getSession, loadSession, onSessionUserChange } from './session.ts';

/** If no screen has asked for the local data layer by then, it opens this long after the page loaded. */
const OPEN_LOCAL_DATA_AFTER_MS = 2000;

/**
 * Start-up, outside React: ask the server once who is signed in, and prepare the local data
 * layer (database and sync, in its own chunk). It opens at once on a device that already holds
 * the catalogue (its screens read it, online or not); on a first visit the home page shows the
 * server's first page and then opens it (home.tsx), so the page is usable before RxDB loads.
 * Either way, a screen that needs it opens it, and it opens shortly after load regardless.
 */
export function startApp(): LocalDataSource {
  const source = createLocalDataSource(async () => {
    const { createLocalData, followSession } = await import('../data/local-data.ts');
    const data = await createLocalData();
    // Login starts the customer's replication, logout stops it and clears personal data.
    followSession(data, onSessionUserChange);
    // Screens get the data layer once it holds the signed-in user: an action waiting for it (a
    // favourite clicked while it opened) must not be taken for a guest's.
    const session = getSession();
    if (session.status === 'ready') {
      const id = session.user?.id ?? null;
      await firstValueFrom(data.engine.user$.pipe(filter((user) => (user?.id ?? null) === id)));
    }
    return data;
  });
  void loadSession();
  prefetchHomePage(window.location);
  if (catalogueSyncedBefore()) void source.load();
  else {
    const openLater = () => setTimeout(() => void source.load(), OPEN_LOCAL_DATA_AFTER_MS);
    if (document.readyState === 'complete') openLater();
    else window.addEventListener('load', openLater, { once: true });
  }
  return source;
}

/** The app: the local data layer and the router (with the page frame as its root route). */
export function App({ source }: { source: LocalDataSource }) {
  return (
    <LocalDataProvider source={source}>
      <RouterProvider router={router} />
    </LocalDataProvider>
  );
}
