import { Suspense, useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Layout } from '../ui/layout.tsx';
import type { SyncStatus as BadgeStatus } from '../ui/status-badges.tsx';
import type { SyncPhase } from '../sync/status.ts';
import { Loader } from '../ui/loader.tsx';
import { setApiNavigator } from '../api/api-client.ts';
import { useCart } from '../features/cart/data/cart.ts';
import { useSyncStatus } from '../data/provider.tsx';
import { useChangeStates } from '../data/change-states.ts';
import { ThemePreferenceSync } from '../features/preferences/components/theme-preference-sync.tsx';
import { PriceDropWatch } from '../features/favourites/components/price-drop-watch.tsx';
import { roleOf, useCurrentUser } from './session.ts';

const SYNC_BADGE: Record<SyncPhase, BadgeStatus> = {
  syncing: 'syncing',
  upToDate: 'up-to-date',
  offline: 'offline',
  error: 'error',
};

/** Composes the page frame with the session, the cart count and the current route. */
export function RootLayout() {
  const user = useCurrentUser();
  const cart = useCart();
  const sync = useSyncStatus();
  const changes = useChangeStates();
  const navigate = useNavigate();
  const location = useLocation();

  useEffect(() => setApiNavigator((to) => navigate(to)), [navigate]);

  // A new page moves keyboard and screen-reader focus to its main region.
  useEffect(() => {
    document.getElementById('main')?.focus({ preventScroll: true });
    window.scrollTo({ top: 0 });
  }, [location.pathname]);

  return (
    <Layout
      role={roleOf(user)}
      name={user ? [user.name, user.lastName].filter(Boolean).join(' ') : null}
      email={user?.email ?? null}
      avatarUrl={user?.image ?? null}
      cartCount={cart?.count ?? 0}
      syncStatus={user ? SYNC_BADGE[sync.phase] : null}
      unsentChanges={sync.unsent}
      changesNeedingAttention={changes.refused.length + changes.conflicts.length}
    >
      <ThemePreferenceSync />
      <PriceDropWatch />
      <Suspense fallback={<Loader />}>
        <Outlet />
      </Suspense>
    </Layout>
  );
}
