import { useState, type ReactNode } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  CATALOG_PAGE_SIZE,
  flightFormFromFlight,
  messages,
  specLabels,
  type Flight,
  type FlightForm,
  type RegisterAirlineInput,
  type User,
} from '@skyport/shared';
import { registerAirline } from '../../features/airline/api/airline-api.ts';
import { AirlineOnly } from '../../features/airline/components/airline-gate.tsx';
import { AirlineProfilePage } from '../../features/airline/components/airline-header.tsx';
import { CatalogTable } from '../../features/airline/components/catalog-table.tsx';
import {
  EMPTY_FLIGHT_FORM,
  FlightFormModal,
  valuesFromFlightForm,
  type FlightFormValues,
} from '../../features/airline/components/flight-form-modal.tsx';
import { PendingApproval } from '../../features/airline/components/pending-approval.tsx';
import { RegisterAirlineScreen } from '../../features/airline/components/register-airline-screen.tsx';
import { SalesPanel, SalesScreen } from '../../features/airline/components/sales-screen.tsx';
import { useOwnFlightChanges, useOwnFlights } from '../../features/airline/data/own-flights.ts';
import { useSales } from '../../features/airline/data/sales.ts';
import { airlineLabels } from '../../features/airline/labels.ts';
import { alertDialog, confirmDialog } from '../../ui/dialogs.tsx';
import { Loader } from '../../ui/loader.tsx';
import { useOnline } from '../../ui/online.ts';
import { showToast } from '../../ui/toast.tsx';
import { ApiError, errorMessage, reportApiError } from '../../api/api-client.ts';
import { useSession } from '../session.ts';

/**
 * The airline screens (spec §2, §4, §5; issue 7): Add your Airline, Catalog (/catalog and
 * /catalogProfile), Sales (/sales) and Manage Airline (/airlineProfile). A pending airline sees
 * the waiting screen on all of them; catalogue changes always go online.
 */

type Gate =
  | { kind: 'loading' }
  | { kind: 'guest' }
  | { kind: 'other' }
  | { kind: 'pending'; user: User }
  | { kind: 'approved'; user: User; airlineId: string };

function useAirlineGate(): Gate {
  const session = useSession();
  if (session.status === 'loading') return { kind: 'loading' };
  const user = session.user;
  if (!user) return { kind: 'guest' };
  if (user.role !== 'airline') return { kind: 'other' };
  if (user.airlineStatus === 'approved' && user.airlineId)
    return { kind: 'approved', user, airlineId: user.airlineId };
  return { kind: 'pending', user };
}

/** Renders `approved` for an approved airline, and the right stand-in for everybody else. */
function AirlineScreen({ approved }: { approved: (user: User, airlineId: string) => ReactNode }) {
  const gate = useAirlineGate();
  switch (gate.kind) {
    case 'loading':
      return <Loader />;
    case 'guest':
      return <AirlineOnly guest />;
    case 'other':
      return <AirlineOnly guest={false} />;
    case 'pending':
      return <PendingApproval email={gate.user.email} />;
    case 'approved':
      return <>{approved(gate.user, gate.airlineId)}</>;
  }
}

// Add your Airline ------------------------------------------------------------------------------

export function RegisterAirlineRoute() {
  const online = useOnline();
  const [registered, setRegistered] = useState<string | null>(null);
  if (registered) return <PendingApproval email={registered} justRegistered />;
  const register = async (input: RegisterAirlineInput) => {
    try {
      const answer = await registerAirline(input);
      await alertDialog({ title: answer.message || messages.airlineRegistered, tone: 'success' });
      setRegistered(input.email);
    } catch (error) {
      await alertDialog({
        title: messages.oops,
        text: errorMessage(error, messages.somethingWentWrong),
      });
    }
  };
  return <RegisterAirlineScreen onRegister={register} online={online} />;
}

// Catalog -----------------------------------------------------------------------------------------

interface ModalState {
  open: boolean;
  /** A new key per opening: the form starts from `initial` each time. */
  key: number;
  mode: 'add' | 'edit';
  /** The flight being edited, as it was when the form opened. */
  editing: Flight | null;
  initial: FlightFormValues;
  serverError: { message: string; fields: Record<string, string> } | null;
}

const CLOSED: ModalState = {
  open: false,
  key: 0,
  mode: 'add',
  editing: null,
  initial: EMPTY_FLIGHT_FORM,
  serverError: null,
};

/** The server's field messages (`details: [{ path: "flight.origin", message }]`) by field. */
function serverFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError) || !Array.isArray(error.details)) return {};
  const fields: Record<string, string> = {};
  for (const issue of error.details as unknown[]) {
    if (!issue || typeof issue !== 'object') continue;
    const { path, message } = issue as { path?: unknown; message?: unknown };
    if (typeof path !== 'string' || typeof message !== 'string') continue;
    const field = path.split('.').pop();
    if (field) fields[field] ??= message;
  }
  return fields;
}

function CatalogManager({
  airlineId,
  headingLevel = 1,
}: {
  airlineId: string;
  headingLevel?: 1 | 2;
}) {
  const online = useOnline();
  const view = useOwnFlights(airlineId);
  const { saveOwnFlight, deleteOwnFlights } = useOwnFlightChanges();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [modal, setModal] = useState<ModalState>(CLOSED);
  const setPage = (next: number) =>
    setParams(
      (current) => {
        const updated = new URLSearchParams(current);
        if (next > 1) updated.set('page', String(next));
        else updated.delete('page');
        return updated;
      },
      { replace: false },
    );

  const openAdd = () =>
    setModal((current) => ({
      open: true,
      key: current.key + 1,
      mode: 'add',
      editing: null,
      initial: EMPTY_FLIGHT_FORM,
      serverError: null,
    }));
  const openEdit = (flight: Flight) =>
    setModal((current) => ({
      open: true,
      key: current.key + 1,
      mode: 'edit',
      editing: flight,
      initial: valuesFromFlightForm(flightFormFromFlight(flight)),
      serverError: null,
    }));
  const close = () => setModal((current) => ({ ...current, open: false }));

  const submit = async (form: FlightForm, values: FlightFormValues) => {
    const { editing, mode } = modal;
    // Optimistic: the dialog closes and the row shows at once, marked as saving.
    close();
    if (mode === 'add') setPage(Math.floor(view.rows.length / CATALOG_PAGE_SIZE) + 1);
    const result = await saveOwnFlight(form, airlineId, editing);
    if (result.ok) {
      showToast(mode === 'add' ? airlineLabels.created : airlineLabels.saved);
      return;
    }
    if (
      result.error instanceof ApiError &&
      (result.error.isOffline || result.error.status === 401)
    ) {
      reportApiError(result.error);
    }
    // The server refused: the form opens again with what was typed and the server's reasons.
    setModal((current) => ({
      open: true,
      key: current.key + 1,
      mode,
      editing,
      initial: values,
      serverError: { message: errorMessage(result.error), fields: serverFieldErrors(result.error) },
    }));
  };

  const remove = async (ids: string[]) => {
    if (ids.length === 0) {
      await alertDialog({ title: messages.chooseAFlight, tone: 'warning' });
      return;
    }
    const confirmed = await confirmDialog({
      title: messages.confirmDeleteTitle,
      text: `${messages.confirmDeleteText} ${airlineLabels.confirmDeleteFlights(ids.length)}`,
      confirmLabel: messages.confirmDeleteButton,
    });
    if (!confirmed) return;
    const result = await deleteOwnFlights(ids);
    if (result.ok) showToast(messages.deleted);
    else reportApiError(result.error);
  };

  return (
    <>
      <CatalogTable
        rows={view.rows}
        loading={view.loading}
        page={page}
        onPageChange={setPage}
        online={online}
        onAdd={openAdd}
        onEdit={openEdit}
        onDelete={(ids) => void remove(ids)}
        headingLevel={headingLevel}
      />
      <FlightFormModal
        key={modal.key}
        open={modal.open}
        mode={modal.mode}
        initial={modal.initial}
        serverError={modal.serverError}
        online={online}
        onSubmit={(form, values) => void submit(form, values)}
        onClose={close}
      />
    </>
  );
}

export function CatalogRoute() {
  return (
    <AirlineScreen approved={(_user, airlineId) => <CatalogManager airlineId={airlineId} />} />
  );
}

/** /catalogProfile: the airline's profile card with its catalogue under it. */
export function CatalogProfileRoute() {
  return (
    <AirlineScreen
      approved={(user, airlineId) => (
        <AirlineProfilePage title={specLabels.catalog} user={user} link="sales">
          <CatalogManager airlineId={airlineId} headingLevel={2} />
        </AirlineProfilePage>
      )}
    />
  );
}

// Sales -------------------------------------------------------------------------------------------

function Sales({ airlineId }: { airlineId: string }) {
  return <SalesScreen view={useSales(airlineId)} online={useOnline()} />;
}

export function SalesRoute() {
  return <AirlineScreen approved={(_user, airlineId) => <Sales airlineId={airlineId} />} />;
}

function ManageAirline({ user, airlineId }: { user: User; airlineId: string }) {
  const view = useSales(airlineId);
  const online = useOnline();
  return (
    <AirlineProfilePage title={specLabels.manageAirline} user={user} link="catalog">
      <SalesPanel view={view} online={online} headingLevel={2} />
    </AirlineProfilePage>
  );
}

/** /airlineProfile: Manage Airline, the airline's profile showing its sales (spec §2). */
export function AirlineProfileRoute() {
  return (
    <AirlineScreen
      approved={(user, airlineId) => <ManageAirline user={user} airlineId={airlineId} />}
    />
  );
}

/**
 * A pending airline's home: the waiting screen instead of the flights (issue 7: "a pending
 * airline sees a clear waiting-for-approval screen"). Rendered by the home route via slots.tsx.
 */
export function PendingAirlineHomeRoute() {
  const session = useSession();
  return <PendingApproval email={session.user?.email ?? null} />;
}
