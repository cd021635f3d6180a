import { Link } from 'react-router-dom';
import { uiLabels } from './labels.ts';
import { changeLabels } from './change-labels.ts';
import { WifiOffIcon } from './icons.tsx';
import { useOnline } from './online.ts';

/** The sync states the UI shows (the sync client reports one of these). */
export type SyncStatus = 'syncing' | 'up-to-date' | 'offline' | 'error';

/**
 * "Offline" in the navbar while the browser has no connection; hidden otherwise. `besideSyncStatus`:
 * the sync status next to it says "Offline" too, so on a phone, where the navbar has no room for
 * both, only the sync status shows.
 */
export function OfflineIndicator({ besideSyncStatus = false }: { besideSyncStatus?: boolean }) {
  const online = useOnline();
  if (online) return null;
  return (
    <span
      className={`badge badge-warning gap-1 ${besideSyncStatus ? 'max-sm:hidden' : ''}`}
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

/** On a phone: the same words, but "Offline" for the long "Waiting for a connection". */
const syncPhoneText: Record<SyncStatus, string> = { ...syncText, offline: uiLabels.offline };

const syncDot: Record<SyncStatus, string> = {
  'up-to-date': 'status-success',
  syncing: 'status-info animate-pulse',
  error: 'status-error',
  offline: 'status-warning',
};

export interface SyncStatusBadgeProps {
  status: SyncStatus;
  /** Changes made on this device that the server has not acknowledged yet (null: unknown). */
  unsent?: number | null;
  /** Refused changes and conflicts waiting for the customer (decision 017). */
  attention?: number;
  /** The pending changes page: the status is a link to it. */
  href?: string;
}

/**
 * A dot, a word or two and the count of changes waiting to be sent: whether the local data is in
 * step with the server. The words show on every screen width (shorter on a phone).
 */
export function SyncStatusBadge({
  status,
  unsent = null,
  attention = 0,
  href,
}: SyncStatusBadgeProps) {
  const badge = (
    <span
      className="flex items-center gap-1.5 text-xs whitespace-nowrap"
      role="status"
      data-testid="sync-status"
      data-status={status}
    >
      <span className={`status ${syncDot[status]}`} aria-hidden="true" />
      <span className="sm:hidden" data-testid="sync-status-text-phone">
        {syncPhoneText[status]}
      </span>
      <span className="hidden sm:inline" data-testid="sync-status-text">
        {syncText[status]}
      </span>
      {unsent ? (
        <span
          className="badge badge-xs badge-warning font-medium tabular-nums"
          title={uiLabels.syncUnsentHint(unsent)}
          data-testid="sync-unsent"
          data-count={unsent}
        >
          <span aria-hidden="true">{uiLabels.syncUnsent(unsent)}</span>
          <span className="sr-only">{uiLabels.syncUnsentHint(unsent)}</span>
        </span>
      ) : null}
      {attention > 0 ? (
        <span
          className="badge badge-xs badge-error font-medium tabular-nums"
          data-testid="sync-attention"
          data-count={attention}
        >
          {changeLabels.needsYou(attention)}
        </span>
      ) : null}
    </span>
  );
  if (!href) return badge;
  return (
    <Link
      to={href}
      className="rounded-field px-1 py-1.5 hover:bg-base-200"
      data-testid="pending-changes-link"
    >
      <span className="sr-only">{changeLabels.pageTitle}: </span>
      {badge}
    </Link>
  );
}
