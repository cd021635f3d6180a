/**
 * The super administrator's home (spec §2 Home: user management instead of the flights), loaded
 * lazily from the administrator's route module (routes/admin.tsx) so that the home page's chunk
 * carries none of it. The root layout wraps the outlet in Suspense.
 */
import { lazy } from 'react';

export const SuperAdminHome = lazy(() =>
  import('./admin.tsx').then((module) => ({ default: module.SuperAdminHomeRoute })),
);
