/**
 * The super administrator's home (spec §2 Home: user management instead of the flights), loaded
 * lazily from the administrator's route module (routes/admin.tsx) so that the home page's chunk
 * carries none of it (nor TanStack Query, decision 035). The root layout wraps the outlet in
 * Suspense.
 */
import { lazy } from 'react';

export const SuperAdminHome = lazy(async () => {
  // Outside the routes' layout that provides the remote lists' QueryClient: provided here.
  const [{ SuperAdminHomeRoute }, { RemoteDataProvider }] = await Promise.all([
    import('./admin.tsx'),
    import('../remote-data.tsx'),
  ]);
  return {
    default: () => (
      <RemoteDataProvider>
        <SuperAdminHomeRoute />
      </RemoteDataProvider>
    ),
  };
});

/**
 * A pending airline's home: the "waiting for approval" screen instead of the flights, from the
 * airline route module (routes/airline.tsx). For home.tsx: render it when
 * `user.role === 'airline' && user.airlineStatus !== 'approved'`.
 */
export const PendingAirlineHome = lazy(() =>
  import('./airline.tsx').then((module) => ({ default: module.PendingAirlineHomeRoute })),
);
