import { Suspense, useEffect } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router-dom';
import { Layout } from '../ui/layout.tsx';
import type { SyncStatus as BadgeStatus } from '../ui/status-badges.tsx';
import type { SyncPhase, SyncStatus } from '../sync/status.ts';
import { Loader } from '../ui/loader.tsx';
import { setApiNavigator } from '../api/api-client.ts';
import { useCart } from '../features/cart/data/cart.ts';
import { useSyncStatusPart } from '../data/provider.tsx';
import { shallowEqual } from '../lib/equal.ts';
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

// The frame shows the sync phase to a signed-in user only: a guest's frame ignores its changes.
interface FrameSync {
  phase: BadgeStatus | null;
  unsent: number | null;
}
const badgeOfUser = ({ phase, unsent }: SyncStatus): FrameSync => ({
  phase: SYNC_BADGE[phase],
  unsent,
});
const badgeOfGuest = ({ unsent }: SyncStatus): FrameSync => ({ phase: null, unsent });

/** Composes the page frame with the session, the cart count and the current route. */
export function RootLayout() {
  const user = useCurrentUser();
  const cart = useCart();
  const sync = useSyncStatusPart(user ? badgeOfUser : badgeOfGuest, shallowEqual);
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
      syncStatus={sync.phase}
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
