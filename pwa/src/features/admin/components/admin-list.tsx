import { useId, type ReactNode } from 'react';
import { Loader } from '../../../ui/loader.tsx';
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
  /** The table scrolls sideways on narrow screens (default); the business overview lays out its own. */
  scroll?: boolean;
}

/**
 * The frame of an administrator's list: title, caption, offline note (actions need a
 * connection), loader while the first answer comes, the server's failure with a retry, the
 * spec's empty text, or the table.
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
  scroll = true,
}: AdminListProps<T>) {
  const titleId = useId();
  const offlineId = useId();
  const data = remote.data;
  return (
    <section className="flex flex-col gap-4" aria-labelledby={titleId} data-testid={testId}>
      <div>
        <h1 id={titleId} className="text-2xl font-bold">
          {title}
        </h1>
        {caption ? <p className="text-base-content/80">{caption}</p> : null}
      </div>
      {online ? null : (
        <p
          id={offlineId}
          role="status"
          className="alert alert-warning alert-soft text-sm"
          data-testid="admin-offline"
        >
          {adminLabels.offlineActions}
        </p>
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
        <div
          // A region that scrolls must be reachable by keyboard (and named) to be scrolled.
          className={scroll ? 'overflow-x-auto rounded-box border border-base-300 bg-base-100' : ''}
          role={scroll ? 'region' : undefined}
          aria-labelledby={scroll ? titleId : undefined}
          tabIndex={scroll ? 0 : undefined}
        >
          {children(data, online ? undefined : offlineId)}
        </div>
      )}
    </section>
  );
}
