import { PendingChangesScreen } from '../../features/pending-changes/components/pending-changes-screen.tsx';
import { usePendingChangeActions } from '../../features/pending-changes/data/pending-changes.ts';
import type { RefusedChange } from '../../sync/change-states.ts';
import { useChangeStates } from '../../data/change-states.ts';
import { useLocalData, useSyncStatus } from '../../data/provider.tsx';
import { changeLabels } from '../../ui/change-labels.ts';
import { Loader } from '../../ui/loader.tsx';
import { showToast } from '../../ui/toast.tsx';
import { reportApiError } from '../../api/api-client.ts';
import { useSession } from '../session.ts';
import { LoginRoute } from './auth.tsx';

/** Where each kind of refused change is fixed (the theme has no screen: discard it). */
function fixPath(change: RefusedChange): string | null {
  switch (change.collection) {
    case 'cart':
      return '/cart';
    case 'favourites':
      return '/favs';
    case 'reviewDrafts':
      return `/purchases?review=${encodeURIComponent(change.id)}`;
    case 'preferences':
      return null;
  }
}

/** /changes: the pending changes of this device (decision 017), for a signed-in customer. */
export function PendingChangesRoute() {
  useLocalData();
  const session = useSession();
  const states = useChangeStates();
  const sync = useSyncStatus();
  const actions = usePendingChangeActions();
  if (session.status === 'loading') return <Loader />;
  if (!session.user) return <LoginRoute />;
  return (
    <PendingChangesScreen
      states={states}
      offline={sync.phase === 'offline'}
      fixPath={fixPath}
      onDiscard={(change) =>
        void actions.discard(change).then(
          () => showToast(changeLabels.discarded, 'info'),
          (error: unknown) => reportApiError(error),
        )
      }
      onDismiss={actions.dismiss}
    />
  );
}
