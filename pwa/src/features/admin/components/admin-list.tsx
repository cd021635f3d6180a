import { useId, type ReactNode } from 'react';
import { Loader } from '../../../ui/loader.tsx';
import { PageSection, StatusNote } from '../../../ui/page-section.tsx';
import type { Remote } from '../data/admin-data.ts';
import { adminLabels } from '../labels.ts';

export interface AdminListProps<T> {
  title: string;
  /** A line under the title (the pending requests' caption). */
  caption?: string;
  remote: Remote<T>;
  isEmpty: (data: T) => boolean;
  emptyText: string;
  online: boolean;
  onRetry: () => void;
  /** The table, given the data and the id of the text that explains disabled actions. */
  children: (data: T, offlineNoteId: string | undefined) => ReactNode;
  testId: string;
}

/**
 * The frame of an administrator's list: title, caption, offline note (actions need a
 * connection), loader while the first answer comes, the server's failure with a retry, the
 * spec's empty text, or the table (ui/responsive-table.tsx: cards on a phone).
 */
export function AdminList<T>({
  title,
  caption,
  remote,
  isEmpty,
  emptyText,
  online,
  onRetry,
  children,
  testId,
}: AdminListProps<T>) {
  const offlineId = useId();
  const data = remote.data;
  return (
    <PageSection title={title} caption={caption} testId={testId}>
      {online ? null : (
        <StatusNote id={offlineId} testId="admin-offline">
          {adminLabels.offlineActions}
        </StatusNote>
      )}
      {remote.status === 'error' && data === undefined ? (
        <div role="alert" className="alert alert-error alert-soft flex flex-wrap justify-between">
          <span>{online ? adminLabels.loadFailed : adminLabels.needsConnection}</span>
          <button type="button" className="btn btn-sm" onClick={onRetry} disabled={!online}>
            {adminLabels.tryAgain}
          </button>
        </div>
      ) : data === undefined ? (
        <Loader />
      ) : isEmpty(data) ? (
        <p
          className="rounded-box bg-base-200 p-6 text-center text-base-content/80"
          data-testid={`${testId}-empty`}
        >
          {emptyText}
        </p>
      ) : (
        children(data, online ? undefined : offlineId)
      )}
    </PageSection>
  );
}
