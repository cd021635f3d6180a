import { messages, specLabels, type User } from '@skyport/shared';
import type { Remote } from '../data/admin-data.ts';
import { adminLabels } from '../labels.ts';
import { AccountsList, RowButton } from './accounts-list.tsx';

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
    <AccountsList
      title={messages.usersTableTitle}
      emptyText={messages.noUsers}
      testId="user-management"
      tableTestId="users-table"
      actionHeader={specLabels.delete}
      remote={remote}
      online={online}
      onRetry={onRetry}
      rowProps={(user) => ({
        'data-testid': 'user-row',
        'data-email': user.email,
        'data-disabled': user.disabled || undefined,
      })}
      nameOf={displayName}
      action={(user, offlineNoteId) => {
        const waiting = busy.has(user.id);
        const blocked = user.disabled || waiting || !online;
        return (
          <>
            <RowButton
              tone="outline"
              label={user.disabled ? adminLabels.disabled : adminLabels.disable}
              name={
                user.disabled
                  ? adminLabels.userIsDisabled(user.email)
                  : adminLabels.disableUser(user.email)
              }
              disabled={blocked}
              describedBy={offlineNoteId}
              onClick={() => onDisable(user)}
              testId="disable-user"
            />
            <RowButton
              tone="error"
              label={specLabels.delete}
              name={adminLabels.deleteUser(user.email)}
              disabled={blocked}
              busy={waiting}
              describedBy={offlineNoteId}
              onClick={() => onDelete(user)}
              testId="delete-user"
            />
          </>
        );
      }}
    />
  );
}
