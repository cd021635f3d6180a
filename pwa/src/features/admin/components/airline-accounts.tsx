import { messages, specLabels, type User } from '@skyport/shared';
import type { Remote } from '../data/admin-data.ts';
import { adminLabels } from '../labels.ts';
import {
  AccountsList,
  RowButton,
  type AccountsListProps,
  type RowButtonProps,
} from './accounts-list.tsx';
import { displayName } from './user-management.tsx';

/** What both airline lists get from their route. */
interface AirlineListProps {
  remote: Remote<User[]>;
  online: boolean;
  /** Ids of airlines with an action waiting for the server. */
  busy: ReadonlySet<string>;
  onRetry: () => void;
}

/** The words of each airline list (spec §2) and the button of its rows. */
type AirlineListKind = Pick<
  AccountsListProps,
  'title' | 'caption' | 'emptyText' | 'testId' | 'tableTestId' | 'actionHeader'
> & {
  button: (user: User) => Pick<RowButtonProps, 'tone' | 'label' | 'name' | 'testId'> & {
    /** Besides being offline or waiting for the server. */
    unavailable?: boolean;
    onClick: () => void;
  };
};

/** Airlines by their owner's email and the airline's name, with one action each. */
function AirlineList({ kind, busy, ...list }: AirlineListProps & { kind: AirlineListKind }) {
  const { button, ...words } = kind;
  return (
    <AccountsList
      {...list}
      {...words}
      rowProps={(user) => ({ 'data-testid': 'airline-row', 'data-email': user.email })}
      nameOf={(user) => displayName({ name: user.name })}
      action={(user, offlineNoteId) => {
        const { unavailable = false, ...props } = button(user);
        return (
          <RowButton
            {...props}
            disabled={!list.online || busy.has(user.id) || unavailable}
            busy={busy.has(user.id)}
            describedBy={offlineNoteId}
          />
        );
      }}
    />
  );
}

/** Airline management (spec §2): "All airlines using the website", Delete Airline after confirming. */
export function AirlineManagement({
  onDelete,
  ...list
}: AirlineListProps & { onDelete: (user: User) => void }) {
  return (
    <AirlineList
      {...list}
      kind={{
        title: messages.airlinesTableTitle,
        emptyText: messages.noAirlinesManagement,
        testId: 'airline-management',
        tableTestId: 'airlines-table',
        actionHeader: specLabels.deleteAirline,
        button: (user) => ({
          tone: 'error',
          label: specLabels.deleteAirline,
          name: adminLabels.deleteAirlineOf(user.name ?? user.email),
          testId: 'delete-airline',
          unavailable: !user.airlineId,
          onClick: () => onDelete(user),
        }),
      }}
    />
  );
}

/** Pending requests (spec §2): "Airline Pending Requests", its caption, "Make Admin" accepts. */
export function PendingRequests({
  onApprove,
  ...list
}: AirlineListProps & { onApprove: (user: User) => void }) {
  return (
    <AirlineList
      {...list}
      kind={{
        title: messages.pendingRequestsTitle,
        caption: messages.pendingRequestsCaption,
        emptyText: messages.noPendingAirlines,
        testId: 'pending-requests',
        tableTestId: 'pending-table',
        actionHeader: specLabels.acceptRequest,
        button: (user) => ({
          tone: 'primary',
          label: messages.makeAdmin,
          name: adminLabels.makeAdminFor(user.email),
          testId: 'make-admin',
          onClick: () => onApprove(user),
        }),
      }}
    />
  );
}
