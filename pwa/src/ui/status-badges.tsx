import { uiLabels } from './labels.ts';
import { WifiOffIcon } from './icons.tsx';
import { useOnline } from './online.ts';

/** The sync states the UI shows (the sync client reports one of these). */
export type SyncStatus = 'syncing' | 'up-to-date' | 'offline' | 'error';

/** "Offline" in the navbar while the browser has no connection; hidden otherwise. */
export function OfflineIndicator() {
  const online = useOnline();
  if (online) return null;
  return (
    <span
      className="badge badge-warning gap-1"
      role="status"
      title={uiLabels.offlineHint}
      data-testid="offline-indicator"
    >
      <WifiOffIcon className="size-4" />
      {uiLabels.offline}
    </span>
  );
}

const syncText: Record<SyncStatus, string> = {
  syncing: uiLabels.syncSyncing,
  'up-to-date': uiLabels.syncUpToDate,
  offline: uiLabels.syncOffline,
  error: uiLabels.syncError,
};

/** A small dot + text telling whether local data is in step with the server. */
export function SyncStatusBadge({ status }: { status: SyncStatus }) {
  const dot =
    status === 'up-to-date'
      ? 'status-success'
      : status === 'syncing'
        ? 'status-info animate-pulse'
        : status === 'error'
          ? 'status-error'
          : 'status-warning';
  return (
    <span
      className="flex items-center gap-1.5 text-xs"
      role="status"
      data-testid="sync-status"
      data-status={status}
    >
      <span className={`status ${dot}`} aria-hidden="true" />
      <span className="hidden sm:inline">{syncText[status]}</span>
      <span className="sr-only sm:hidden">{syncText[status]}</span>
    </span>
  );
}
