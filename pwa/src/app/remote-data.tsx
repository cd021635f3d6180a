import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Outlet } from 'react-router-dom';
import { onSessionUserChange } from './session.ts';

/**
 * The app's one QueryClient (TanStack Query, decision 035): the remote lists, which the server
 * alone holds (the administrator's lists), and the airline's catalogue changes, which go online.
 * Replicated data is read from the local database instead (data/provider.tsx).
 *
 * Those screens are online-only and say so offline: a request made offline fails at once with the
 * API client's offline error, which the screens show, instead of waiting paused for the
 * connection (`networkMode: 'always'`), and is not retried (the screen offers a retry; a list is
 * read again when the connection returns). A list is read again whenever its screen opens
 * (nothing is fresh: `staleTime` 0), not when the window regains focus.
 */
const queryClient = new QueryClient({
  defaultOptions: {
    queries: { networkMode: 'always', retry: false, refetchOnWindowFocus: false },
    mutations: { networkMode: 'always', retry: false },
  },
});

// What one user saw is not kept for whoever signs in next: every list is emptied (and read again
// if on screen).
onSessionUserChange(() => void queryClient.resetQueries());

/** Provides the app's QueryClient to `children`. */
export function RemoteDataProvider({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
}

/**
 * The layout route around the screens that use remote data (router.tsx; the super
 * administrator's home is wrapped in slots.tsx): TanStack Query loads with those screens'
 * chunks, not with the home page.
 */
export function RemoteDataLayout() {
  return (
    <RemoteDataProvider>
      <Outlet />
    </RemoteDataProvider>
  );
}
