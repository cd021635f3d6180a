import type { ReactNode } from 'react';
import { specLabels, type User } from '@skyport/shared';
import { ResponsiveTable, type Column, type RowAttributes } from '../../../ui/responsive-table.tsx';
import type { Remote } from '../data/admin-data.ts';
import { AdminList } from './admin-list.tsx';

const BUTTON_TONES = {
  primary: 'btn-primary',
  error: 'btn-error',
  outline: 'btn-outline',
} as const;

export interface RowButtonProps {
  tone: keyof typeof BUTTON_TONES;
  label: string;
  /** The button's accessible name: the action and whom it is for. */
  name: string;
  disabled: boolean;
  /** Waiting for the server: a spinner before the label. */
  busy?: boolean;
  /** The offline note that explains why the button is disabled. */
  describedBy: string | undefined;
  onClick: () => void;
  testId: string;
}

/** An action on one account of a list (Delete, Disable, Make Admin, Delete Airline). */
export function RowButton({
  tone,
  label,
  name,
  disabled,
  busy = false,
  describedBy,
  onClick,
  testId,
}: RowButtonProps) {
  return (
    <button
      type="button"
      className={`btn ${BUTTON_TONES[tone]} btn-xs sm:btn-sm`}
      disabled={disabled}
      aria-label={name}
      aria-describedby={describedBy}
      onClick={onClick}
      data-testid={testId}
    >
      {busy ? <span className="loading loading-spinner loading-xs" aria-hidden="true" /> : null}
      {label}
    </button>
  );
}

export interface AccountsListProps {
  title: string;
  caption?: string;
  emptyText: string;
  testId: string;
  tableTestId: string;
  /** The header of the last column. */
  actionHeader: string;
  remote: Remote<User[]>;
  online: boolean;
  onRetry: () => void;
  rowProps: (user: User) => RowAttributes;
  /** The Name column: a user's whole name, an airline's name. */
  nameOf: (user: User) => string;
  /** The action cell of a row, given the id of the note that explains disabled actions. */
  action: (user: User, offlineNoteId: string | undefined) => ReactNode;
}

/**
 * A list of accounts with Email, Name, UID and an action column: the shape of the users' and both
 * airline screens (spec §2). On a phone each account is a card headed by its email.
 */
export function AccountsList({
  tableTestId,
  actionHeader,
  rowProps,
  nameOf,
  action,
  ...list
}: AccountsListProps) {
  return (
    <AdminList {...list} isEmpty={(users) => users.length === 0}>
      {(users, offlineNoteId) => {
        const columns: readonly Column<User>[] = [
          {
            key: 'email',
            header: specLabels.email,
            kind: 'title',
            rowHeader: true,
            className: 'min-w-36 break-all',
            cell: (user) => user.email,
          },
          {
            key: 'name',
            header: specLabels.name,
            cell: (user) =>
              user.name ? (
                nameOf(user)
              ) : (
                <span className="italic text-base-content/70">{nameOf(user)}</span>
              ),
          },
          {
            key: 'uid',
            header: specLabels.uid,
            cell: (user) => (
              <span
                className="block max-w-40 truncate font-mono text-xs md:max-w-20 lg:max-w-40"
                title={user.uid}
              >
                {user.uid}
              </span>
            ),
          },
          {
            key: 'action',
            header: actionHeader,
            kind: 'actions',
            cell: (user) => action(user, offlineNoteId),
          },
        ];
        return (
          <ResponsiveTable
            columns={columns}
            rows={users}
            rowKey={(user) => user.id}
            caption={list.title}
            framed
            testId={tableTestId}
            rowProps={rowProps}
          />
        );
      }}
    </AdminList>
  );
}
