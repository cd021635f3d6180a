import { messages, specLabels, type User } from '@skyport/shared';
import type { Remote } from '../data/admin-data.ts';
import { adminLabels } from '../labels.ts';
import { AdminList } from './admin-list.tsx';

export interface UserManagementProps {
  remote: Remote<User[]>;
  online: boolean;
  /** Ids of users with an action waiting for the server. */
  busy: ReadonlySet<string>;
  onDelete: (user: User) => void;
  onDisable: (user: User) => void;
  onRetry: () => void;
}

/** A user's name, or "(empty)" when there is none (spec §2). */
export function displayName(user: { name: string | null; lastName?: string | null }): string {
  const name = [user.name, user.lastName].filter((part) => part && part.trim()).join(' ');
  return name || messages.emptyName;
}

/**
 * User management (spec §2): "All active users using the website" with Email, Name, UID and
 * Delete. A disabled user's buttons are disabled (it cannot be deleted or disabled again).
 */
export function UserManagement({
  remote,
  online,
  busy,
  onDelete,
  onDisable,
  onRetry,
}: UserManagementProps) {
  return (
    <AdminList
      title={messages.usersTableTitle}
      remote={remote}
      isEmpty={(users) => users.length === 0}
      emptyText={messages.noUsers}
      online={online}
      onRetry={onRetry}
      testId="user-management"
    >
      {(users, offlineNoteId) => (
        <table className="table table-sm md:table-md" data-testid="users-table">
          <caption className="sr-only">{messages.usersTableTitle}</caption>
          <thead>
            <tr>
              <th scope="col">{specLabels.email}</th>
              <th scope="col">{specLabels.name}</th>
              <th scope="col">{specLabels.uid}</th>
              <th scope="col">{specLabels.delete}</th>
            </tr>
          </thead>
          <tbody>
            {users.map((user) => {
              const waiting = busy.has(user.id);
              const blocked = user.disabled || waiting || !online;
              return (
                <tr
                  key={user.id}
                  data-testid="user-row"
                  data-email={user.email}
                  data-disabled={user.disabled || undefined}
                >
                  <th scope="row" className="min-w-36 font-normal break-all">
                    {user.email}
                  </th>
                  <td className={user.name ? '' : 'italic text-base-content/70'}>
                    {displayName(user)}
                  </td>
                  <td className="max-w-20 truncate font-mono text-xs sm:max-w-40" title={user.uid}>
                    {user.uid}
                  </td>
                  <td>
                    <div className="flex flex-wrap gap-2">
                      <button
                        type="button"
                        className="btn btn-outline btn-xs sm:btn-sm"
                        disabled={blocked}
                        aria-label={
                          user.disabled
                            ? adminLabels.userIsDisabled(user.email)
                            : adminLabels.disableUser(user.email)
                        }
                        aria-describedby={offlineNoteId}
                        onClick={() => onDisable(user)}
                        data-testid="disable-user"
                      >
                        {user.disabled ? adminLabels.disabled : adminLabels.disable}
                      </button>
                      <button
                        type="button"
                        className="btn btn-error btn-xs sm:btn-sm"
                        disabled={blocked}
                        aria-label={adminLabels.deleteUser(user.email)}
                        aria-describedby={offlineNoteId}
                        onClick={() => onDelete(user)}
                        data-testid="delete-user"
                      >
                        {waiting ? (
                          <span className="loading loading-spinner loading-xs" aria-hidden="true" />
                        ) : null}
                        {specLabels.delete}
                      </button>
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </AdminList>
  );
}
