import { useState, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
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
  forgetAdminLists,
  reloadAdminList,
  useApprovedAirlines,
  useCustomers,
  usePendingAirlines,
  type AdminListKey,
} from '../../features/admin/data/admin-data.ts';
import { useBusinessData } from '../../features/admin/data/business.ts';
import { adminLabels } from '../../features/admin/labels.ts';
import { alertDialog, confirmDialog } from '../../ui/dialogs.tsx';
import { Loader } from '../../ui/loader.tsx';
import { useOnline } from '../../ui/online.ts';
import { showToast } from '../../ui/toast.tsx';
import { ApiError, errorMessage, reportApiError } from '../../api/api-client.ts';
import { onSessionUserChange, useSession } from '../session.ts';

/**
 * The super administrator's screens (spec §2, §4; issue 7): user management (also the admin's
 * home), airline management, pending airline requests and the business overview. Every action
 * goes online and the server checks the role; offline, the buttons are disabled and say why.
 */

// What one administrator saw is not kept for whoever signs in next.
onSessionUserChange((user) => {
  if (user?.role !== 'super_admin') forgetAdminLists();
});

function AdminOnly({ children }: { children: (user: User) => ReactNode }) {
  const session = useSession();
  if (session.status === 'loading') return <Loader />;
  const user = session.user;
  if (user?.role === 'super_admin') return <>{children(user)}</>;
  return (
    <section
      className="mx-auto flex max-w-md flex-col items-center gap-4 py-10 text-center"
      data-testid="admin-only"
    >
      <p className="text-lg">{user ? adminLabels.adminOnly : adminLabels.logInAsAdmin}</p>
      <div className="flex gap-2">
        {user ? null : (
          <Link to="/login" className="btn btn-primary">
            {adminLabels.logIn}
          </Link>
        )}
        <Link to="/" className="btn">
          {adminLabels.backHome}
        </Link>
      </div>
    </section>
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

function reload(...keys: AdminListKey[]) {
  for (const key of keys) void reloadAdminList(key);
}

// User management -------------------------------------------------------------------------------

function Users() {
  const online = useOnline();
  const remote = useCustomers(true);
  const { busy, run } = useBusy();

  const remove = async (user: User) => {
    const confirmed = await confirmDialog({
      title: messages.confirmDeleteTitle,
      text: messages.confirmDeleteText,
      confirmLabel: messages.confirmDeleteButton,
    });
    if (!confirmed) return;
    await run(user.id, async () => {
      try {
        await deleteUser(user.email);
        showToast(messages.deleted);
      } catch (error) {
        await alertFailure(error);
      }
      reload('customers');
    });
  };

  const disable = async (user: User) => {
    const confirmed = await confirmDialog({
      title: messages.confirmDeleteTitle,
      text: adminLabels.confirmDisableText(user.email),
      confirmLabel: adminLabels.confirmDisableButton,
    });
    if (!confirmed) return;
    await run(user.id, async () => {
      try {
        await disableUser(user.uid);
        showToast(adminLabels.userDisabled(user.email));
      } catch (error) {
        await alertFailure(error);
      }
      reload('customers');
    });
  };

  return (
    <UserManagement
      remote={remote}
      online={online}
      busy={busy}
      onDelete={(user) => void remove(user)}
      onDisable={(user) => void disable(user)}
      onRetry={() => reload('customers')}
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
  const online = useOnline();
  const remote = useApprovedAirlines(true);
  const { busy, run } = useBusy();

  const remove = async (user: User) => {
    const airlineId = user.airlineId;
    if (!airlineId) return;
    const confirmed = await confirmDialog({
      title: messages.confirmDeleteTitle,
      text: messages.confirmDeleteText,
      confirmLabel: messages.confirmDeleteButton,
    });
    if (!confirmed) return;
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

  return (
    <AirlineManagement
      remote={remote}
      online={online}
      busy={busy}
      onDelete={(user) => void remove(user)}
      onRetry={() => reload('approvedAirlines')}
    />
  );
}

export function AirlineManagementRoute() {
  return <AdminOnly>{() => <Airlines />}</AdminOnly>;
}

// Pending requests --------------------------------------------------------------------------------

function Pending() {
  const online = useOnline();
  const remote = usePendingAirlines(true);
  const { busy, run } = useBusy();

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

  return (
    <PendingRequests
      remote={remote}
      online={online}
      busy={busy}
      onApprove={(user) => void approve(user)}
      onRetry={() => reload('pendingAirlines')}
    />
  );
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
