import { RouterProvider } from 'react-router-dom';
import { createLocalData, followSession, type LocalData } from '../data/local-data.ts';
import { LocalDataProvider } from '../data/provider.tsx';
import { router } from './router.tsx';
import { loadSession, onSessionUserChange } from './session.ts';

/**
 * Start-up, outside React: open the local database and start syncing, follow the session (login
 * starts the customer's replication, logout stops it and clears personal data), and ask the
 * server once who is signed in. Screens read all of it from stores and live queries.
 */
export async function startApp(): Promise<LocalData> {
  const data = await createLocalData();
  followSession(data, onSessionUserChange);
  void loadSession();
  return data;
}

/** The app: the local data layer and the router (with the page frame as its root route). */
export function App({ data }: { data: LocalData }) {
  return (
    <LocalDataProvider value={data}>
      <RouterProvider router={router} />
    </LocalDataProvider>
  );
}
