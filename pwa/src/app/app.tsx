import { useEffect } from 'react';
import { filter, firstValueFrom } from 'rxjs';
import { RouterProvider, type RouterProviderProps } from 'react-router-dom';
import { LocalDataProvider } from '../data/provider.tsx';
import { createLocalDataSource, type LocalDataSource } from '../data/local-data-source.ts';
import { prefetchHomePage } from '../features/catalog/data/catalogue.ts';
import { catalogueSyncedBefore } from '../features/catalog/data/catalogue-synced.ts';
import { requestFirstPull } from '../sync/pull-request.ts';
import { afterLoad, nextTask, whenEngagedOrHidden } from '../ui/idle.ts';
import { getSession, loadSession, onSessionUserChange } from './session.ts';

/** The sync endpoints: the app's own origin, with its session cookie. */
const SYNC_TRANSPORT = { baseUrl: '/api' };

/**
 * How long after the page's load event a guest's first visit starts downloading the catalogue
 * without any interaction (then in the next idle moment, at the latest a second later): the
 * page's own start-up (hydration, the first flights, the service worker's install) is done by
 * then on a phone, and the catalogue is on the device within a few seconds more.
 */
const FIRST_VISIT_DOWNLOAD_DELAY_MS = 5000;

/**
 * The data layer's code (RxDB, Dexie, the sync engine: its own chunks, ~90 KB gzipped), evaluated
 * one part per task: evaluated at once it is one task of 100-400 ms on a slow phone (the module
 * code of RxDB and Dexie), and a tap during it would wait.
 */
const dataLayerModules = [
  () => import('dexie'),
  () => import('../db/database.ts'),
  () => import('../sync/engine.ts'),
];

/**
 * Start-up, outside React: ask the server once who is signed in, and prepare the local data
 * layer (database and sync, in its own chunk). It opens at once on a device that already holds
 * the catalogue (its screens read it, online or not) and for a signed-in user (their cart and
 * favourites). A guest's first visit shows the server's first page and downloads the catalogue
 * a few seconds after the page has loaded, or as soon as the visitor engages with the page or
 * leaves it: on a slow phone, pulling and indexing every flight must not compete with the first
 * paint and the first taps, but a visitor who only reads the page must still find the catalogue
 * on this device the next time, online or not. The opening runs in short tasks (each part of
 * the code in a task of its own, the database's steps each in theirs). A screen that needs the
 * data layer (cart, favourites, a flight's detail, an action) opens it whenever it is asked.
 */
export function startApp(): LocalDataSource {
  const source = createLocalDataSource(async () => {
    // A device without the catalogue asks for its first flights before it loads the data layer.
    const firstPulls = catalogueSyncedBefore()
      ? {}
      : { flights: requestFirstPull(SYNC_TRANSPORT, 'flights') };
    for (const load of dataLayerModules) {
      await nextTask();
      await load();
    }
    await nextTask();
    const { createLocalData, followSession } = await import('../data/local-data.ts');
    const data = await createLocalData({
      transport: SYNC_TRANSPORT,
      sync: { firstPulls },
      database: { betweenSteps: nextTask },
    });
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
    whenEngagedOrHidden(() => void source.load());
    afterLoad(() => void source.load(), FIRST_VISIT_DOWNLOAD_DELAY_MS);
    onSessionUserChange((user) => user && void source.load());
  }
  return source;
}

/**
 * The app: the local data layer and the router (with the page frame as its root route); the
 * browser's router in the page (mount.tsx), a memory router for the prerendered home page.
 */
export function App({
  source,
  router,
}: {
  source: LocalDataSource;
  router: RouterProviderProps['router'];
}) {
  // Marks the page as live (hydrated or rendered): the prerendered home page looks the same before.
  useEffect(() => document.documentElement.setAttribute('data-app', 'ready'), []);
  return (
    <LocalDataProvider source={source}>
      <RouterProvider router={router} />
    </LocalDataProvider>
  );
}
