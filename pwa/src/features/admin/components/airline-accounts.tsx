import type { ReactNode } from 'react';
import { messages, specLabels, type User } from '@skyport/shared';
import type { Remote } from '../data/admin-data.ts';
import { adminLabels } from '../labels.ts';
import { AdminList } from './admin-list.tsx';
import { displayName } from './user-management.tsx';

interface AccountsTableProps {
  users: readonly User[];
  caption: string;
  actionHeader: string;
  testId: string;
  /** The action cell of a row. */
  action: (user: User) => ReactNode;
}

/** Email, Name, UID and an action: the shape of both airline tables (spec §2). */
function AccountsTable({ users, caption, actionHeader, testId, action }: AccountsTableProps) {
  return (
    <table className="table table-sm md:table-md" data-testid={testId}>
      <caption className="sr-only">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{specLabels.email}</th>
          <th scope="col">{specLabels.name}</th>
          <th scope="col">{specLabels.uid}</th>
          <th scope="col">{actionHeader}</th>
        </tr>
      </thead>
      <tbody>
        {users.map((user) => (
          <tr key={user.id} data-testid="airline-row" data-email={user.email}>
            <th scope="row" className="min-w-36 font-normal break-all">
              {user.email}
            </th>
            <td className={user.name ? '' : 'italic text-base-content/70'}>
              {displayName({ name: user.name })}
            </td>
            <td className="max-w-20 truncate font-mono text-xs sm:max-w-40" title={user.uid}>
              {user.uid}
            </td>
            <td>{action(user)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export interface AirlineManagementProps {
  remote: Remote<User[]>;
  online: boolean;
  busy: ReadonlySet<string>;
  onDelete: (user: User) => void;
  onRetry: () => void;
}

/** Airline management (spec §2): "All airlines using the website", Delete Airline after confirming. */
export function AirlineManagement({
  remote,
  online,
  busy,
  onDelete,
  onRetry,
}: AirlineManagementProps) {
  return (
    <AdminList
      title={messages.airlinesTableTitle}
      remote={remote}
      isEmpty={(users) => users.length === 0}
      emptyText={messages.noAirlinesManagement}
      online={online}
      onRetry={onRetry}
      testId="airline-management"
    >
      {(users, offlineNoteId) => (
        <AccountsTable
          users={users}
          caption={messages.airlinesTableTitle}
          actionHeader={specLabels.deleteAirline}
          testId="airlines-table"
          action={(user) => (
            <button
              type="button"
              className="btn btn-error btn-xs sm:btn-sm"
              disabled={!online || busy.has(user.id) || !user.airlineId}
              aria-label={adminLabels.deleteAirlineOf(user.name ?? user.email)}
              aria-describedby={offlineNoteId}
              onClick={() => onDelete(user)}
              data-testid="delete-airline"
            >
              {busy.has(user.id) ? (
                <span className="loading loading-spinner loading-xs" aria-hidden="true" />
              ) : null}
              {specLabels.deleteAirline}
            </button>
          )}
        />
      )}
    </AdminList>
  );
}

export interface PendingRequestsProps {
  remote: Remote<User[]>;
  online: boolean;
  busy: ReadonlySet<string>;
  onApprove: (user: User) => void;
  onRetry: () => void;
}

/** Pending requests (spec §2): "Airline Pending Requests", its caption, "Make Admin" accepts. */
export function PendingRequests({
  remote,
  online,
  busy,
  onApprove,
  onRetry,
}: PendingRequestsProps) {
  return (
    <AdminList
      title={messages.pendingRequestsTitle}
      caption={messages.pendingRequestsCaption}
      remote={remote}
      isEmpty={(users) => users.length === 0}
      emptyText={messages.noPendingAirlines}
      online={online}
      onRetry={onRetry}
      testId="pending-requests"
    >
      {(users, offlineNoteId) => (
        <AccountsTable
          users={users}
          caption={messages.pendingRequestsTitle}
          actionHeader={specLabels.acceptRequest}
          testId="pending-table"
          action={(user) => (
            <button
              type="button"
              className="btn btn-primary btn-xs sm:btn-sm"
              disabled={!online || busy.has(user.id)}
              aria-label={adminLabels.makeAdminFor(user.email)}
              aria-describedby={offlineNoteId}
              onClick={() => onApprove(user)}
              data-testid="make-admin"
            >
              {busy.has(user.id) ? (
                <span className="loading loading-spinner loading-xs" aria-hidden="true" />
              ) : null}
              {messages.makeAdmin}
            </button>
          )}
        />
      )}
    </AdminList>
  );
}
