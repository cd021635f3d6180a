import { useState, type ReactNode } from 'react';
import { messages, type User } from '@skyport/shared';
import {
  approveAirline,
  deleteAirline,
  deleteUser,
  disableUser,
} from '../../features/admin/api/admin-api.ts';
import {
  AirlineManagement,
  PendingRequests,
} from '../../features/admin/components/airline-accounts.tsx';
import { BusinessOverview } from '../../features/admin/components/business-overview.tsx';
import { UserManagement } from '../../features/admin/components/user-management.tsx';
import {
  useApprovedAirlines,
  useCustomers,
  useInvalidateAdminLists,
  usePendingAirlines,
  type AdminListKey,
} from '../../features/admin/data/admin-data.ts';
import { useBusinessData } from '../../features/admin/data/business.ts';
import { adminLabels } from '../../features/admin/labels.ts';
import { alertDialog, confirmDialog } from '../../ui/dialogs.tsx';
import { Loader } from '../../ui/loader.tsx';
import { NoticePage } from '../../ui/notice-page.tsx';
import { useOnline } from '../../ui/online.ts';
import { showToast } from '../../ui/toast.tsx';
import { ApiError, errorMessage, reportApiError } from '../../api/api-client.ts';
import { useSession } from '../session.ts';

/**
 * The super administrator's screens (spec §2, §4; issue 7): user management (also the admin's
 * home), airline management, pending airline requests and the business overview. Every action
 * goes online and the server checks the role; offline, the buttons are disabled and say why.
 */

function AdminOnly({ children }: { children: (user: User) => ReactNode }) {
  const session = useSession();
  if (session.status === 'loading') return <Loader />;
  const user = session.user;
  if (user?.role === 'super_admin') return <>{children(user)}</>;
  return (
    <NoticePage
      testId="admin-only"
      logIn={user ? null : adminLabels.logIn}
      backHome={adminLabels.backHome}
    >
      <p className="text-lg">{user ? adminLabels.adminOnly : adminLabels.logInAsAdmin}</p>
    </NoticePage>
  );
}

/** Ids with an action waiting for the server, and a runner that marks them meanwhile. */
function useBusy() {
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const run = async (id: string, action: () => Promise<void>) => {
    setBusy((current) => new Set(current).add(id));
    try {
      await action();
    } finally {
      setBusy((current) => {
        const next = new Set(current);
        next.delete(id);
        return next;
      });
    }
  };
  return { busy, run };
}

/** Spec §8: a failed user action is an alert; a lost session goes to the login page. */
async function alertFailure(error: unknown) {
  if (error instanceof ApiError && error.status === 401) {
    reportApiError(error);
    return;
  }
  await alertDialog({ title: messages.oops, text: errorMessage(error) });
}

/**
 * What every list screen gets besides its actions (`list`: the list as the server gave it, the
 * connection, the rows waiting for the server, retry), `run` for those actions, and `reload` for
 * the lists an action changed (TanStack Query invalidation: decision 035).
 */
function useAdminList<TRemote>(key: AdminListKey, remote: TRemote) {
  const online = useOnline();
  const { busy, run } = useBusy();
  const invalidate = useInvalidateAdminLists();
  const reload = (...keys: AdminListKey[]) => void invalidate(...keys);
  return { run, reload, list: { remote, online, busy, onRetry: () => reload(key) } };
}

/** The §8 question before a deletion ("Are you sure?"); `text` replaces the default text. */
function confirmDeletion(text: string = messages.confirmDeleteText, confirmLabel?: string) {
  return confirmDialog({
    title: messages.confirmDeleteTitle,
    text,
    confirmLabel: confirmLabel ?? messages.confirmDeleteButton,
  });
}

// User management -------------------------------------------------------------------------------

function Users() {
  const { run, reload, list } = useAdminList('customers', useCustomers());

  /** Asks first, then runs `action` for the row and refreshes the list whatever the outcome. */
  const act = async (user: User, asked: Promise<boolean>, action: () => Promise<void>) => {
    if (!(await asked)) return;
    await run(user.id, async () => {
      try {
        await action();
      } catch (error) {
        await alertFailure(error);
      }
      reload('customers');
    });
  };
  const remove = (user: User) =>
    act(user, confirmDeletion(), async () => {
      await deleteUser(user.email);
      showToast(messages.deleted);
    });
  const disable = (user: User) =>
    act(
      user,
      confirmDeletion(adminLabels.confirmDisableText(user.email), adminLabels.confirmDisableButton),
      async () => {
        await disableUser(user.uid);
        showToast(adminLabels.userDisabled(user.email));
      },
    );

  return (
    <UserManagement
      {...list}
      onDelete={(user) => void remove(user)}
      onDisable={(user) => void disable(user)}
    />
  );
}

export function UserManagementRoute() {
  return <AdminOnly>{() => <Users />}</AdminOnly>;
}

/** The super administrator's home shows user management (spec §2 Home). */
export function SuperAdminHomeRoute() {
  return <UserManagementRoute />;
}

// Airline management ------------------------------------------------------------------------------

function Airlines() {
  const { run, reload, list } = useAdminList('approvedAirlines', useApprovedAirlines());

  const remove = async (user: User) => {
    const airlineId = user.airlineId;
    if (!airlineId || !(await confirmDeletion())) return;
    await run(user.id, async () => {
      try {
        await deleteAirline(airlineId);
        reload('approvedAirlines', 'pendingAirlines');
        await alertDialog({ title: messages.deleted, tone: 'success' });
      } catch (error) {
        reload('approvedAirlines');
        await alertFailure(error);
      }
    });
  };

  return <AirlineManagement {...list} onDelete={(user) => void remove(user)} />;
}

export function AirlineManagementRoute() {
  return <AdminOnly>{() => <Airlines />}</AdminOnly>;
}

// Pending requests --------------------------------------------------------------------------------

function Pending() {
  const { run, reload, list } = useAdminList('pendingAirlines', usePendingAirlines());

  const approve = (user: User) =>
    run(user.id, async () => {
      try {
        await approveAirline(user.email);
        showToast(adminLabels.airlineApproved(user.email));
      } catch (error) {
        await alertFailure(error);
      }
      // The list is then refreshed (spec §4): the approved airline leaves it.
      reload('pendingAirlines', 'approvedAirlines');
    });

  return <PendingRequests {...list} onApprove={(user) => void approve(user)} />;
}

export function AirlinePendingRequestsRoute() {
  return <AdminOnly>{() => <Pending />}</AdminOnly>;
}

// Business ----------------------------------------------------------------------------------------

function Business() {
  return <BusinessOverview remote={useBusinessData()} />;
}

export function BusinessRoute() {
  return <AdminOnly>{() => <Business />}</AdminOnly>;
}
