import { z } from 'zod';
import { PastedTicketSchema, type TicketClaims } from '@skyport/shared';
import { FormField } from '../../../ui/form-field.tsx';
import { SubmitButton } from '../../../ui/form-actions.tsx';
import { formatDate, formatHour, formatTimestamp } from '../../../ui/format.ts';
import { Loader } from '../../../ui/loader.tsx';
import { PageSection } from '../../../ui/page-section.tsx';
import { ticketLabels } from '../../../ui/ticket-labels.ts';
import { useSchemaForm } from '../../../ui/use-schema-form.ts';
import type { StoredTicketKeys } from '../../../db/local-state.ts';
import type { KeyRefresh } from '../data/ticket-keys.ts';
import type { ServerVerdict, TicketCheck } from '../verify/use-ticket-check.ts';
import { canScanQrCodes, QrScanner } from './qr-scanner.tsx';

const VerifyFormSchema = z.object({ ticket: PastedTicketSchema });
type VerifyForm = { ticket: string };

export interface VerifyTicketScreenProps {
  /** The key set on this device: `undefined` while read, `null` when there is none yet. */
  keys: StoredTicketKeys | null | undefined;
  keyRefresh: KeyRefresh;
  check: TicketCheck | null;
  onVerify: (ticket: string) => Promise<void>;
  /** The form's text changed after a check: the old result no longer applies. */
  onEdit: () => void;
}

/**
 * /verify-ticket: paste a ticket (or scan its QR code where the browser can) and see whether
 * Skyport signed it and what it names, on the device alone; online, also whether it was voided.
 */
export function VerifyTicketScreen({
  keys,
  keyRefresh,
  check,
  onVerify,
  onEdit,
}: VerifyTicketScreenProps) {
  const { submit, busy, register, formState, setValue } = useSchemaForm<
    VerifyForm,
    z.output<typeof VerifyFormSchema>
  >(VerifyFormSchema, { defaultValues: { ticket: '' } });
  const verify = submit((values) => onVerify(values.ticket));
  const scanned = (code: string) => {
    setValue('ticket', code, { shouldValidate: true });
    void verify();
  };
  const error = formState.errors.ticket;

  return (
    <PageSection title={ticketLabels.verifyTitle} caption={ticketLabels.verifyCaption}>
      <KeysNote keys={keys} keyRefresh={keyRefresh} />
      <form
        className="card card-border bg-base-100 shadow-sm"
        onSubmit={verify}
        noValidate
        aria-label={ticketLabels.verifyTitle}
        data-testid="verify-ticket-form"
      >
        <div className="card-body gap-4">
          <FormField
            label={ticketLabels.pasteLabel}
            name="ticket"
            hint={ticketLabels.pasteHint}
            error={error}
          >
            {(aria) => (
              <textarea
                rows={5}
                spellCheck={false}
                autoCapitalize="off"
                autoComplete="off"
                className={`textarea w-full font-mono text-xs break-all ${error ? 'textarea-error' : ''}`}
                {...aria}
                {...register('ticket', { onChange: onEdit })}
                data-testid="ticket-input"
              />
            )}
          </FormField>
          <div className="flex flex-wrap items-start gap-3">
            <SubmitButton busy={busy} data-testid="verify-ticket">
              {ticketLabels.verify}
            </SubmitButton>
            {canScanQrCodes() ? <QrScanner onCode={scanned} /> : null}
          </div>
        </div>
      </form>
      {check ? <CheckResult check={check} /> : null}
    </PageSection>
  );
}

function KeysNote({
  keys,
  keyRefresh,
}: {
  keys: StoredTicketKeys | null | undefined;
  keyRefresh: KeyRefresh;
}) {
  if (keys === undefined) return <Loader lines={[ticketLabels.keysLoading]} className="py-4" />;
  if (keys === null || keys.keys.length === 0) {
    return keyRefresh === 'refreshing' ? (
      <Loader lines={[ticketLabels.keysLoading]} className="py-4" />
    ) : (
      <p role="status" className="alert alert-warning alert-soft text-sm" data-testid="ticket-keys">
        {ticketLabels.keysNone}
      </p>
    );
  }
  return (
    <p
      role="status"
      className="text-sm text-base-content/80"
      data-testid="ticket-keys"
      data-keys={keys.keys.length}
    >
      {ticketLabels.keysHeld(keys.keys.length, formatTimestamp(keys.fetchedAt))}
      {keyRefresh === 'failed' ? ` ${ticketLabels.keysRefreshFailed}` : null}
    </p>
  );
}

function CheckResult({ check }: { check: TicketCheck }) {
  const { local, server } = check;
  if (!local.ok) {
    return (
      <section
        role="alert"
        className="alert alert-error flex-col items-start"
        data-testid="ticket-result"
        data-result="invalid"
        data-problem={local.problem}
      >
        <h2 className="font-bold">{ticketLabels.invalidTitle}</h2>
        <p>{ticketLabels.problems[local.problem]}</p>
      </section>
    );
  }
  return (
    <section
      className="card card-border bg-base-100 shadow-sm"
      aria-labelledby="ticket-result-title"
      data-testid="ticket-result"
      data-result="valid"
    >
      <div className="card-body gap-3">
        <div role="status" className="alert alert-success">
          <div>
            <h2 id="ticket-result-title" className="font-bold">
              {ticketLabels.genuine}
            </h2>
            <p className="text-sm">{ticketLabels.genuineText}</p>
          </div>
        </div>
        <TicketDetails claims={local.claims} />
        {server ? <ServerNote verdict={server} /> : null}
      </div>
    </section>
  );
}

function TicketDetails({ claims }: { claims: TicketClaims }) {
  const rows: [string, string, string][] = [
    [ticketLabels.passenger, claims.name, 'ticket-passenger'],
    [ticketLabels.airline, claims.airline, 'ticket-airline'],
    [ticketLabels.route, ticketLabels.routeValue(claims.from, claims.to), 'ticket-route'],
    [
      ticketLabels.departure,
      `${formatDate(claims.date)}, ${formatHour(claims.time)}`,
      'ticket-departure',
    ],
    [ticketLabels.seats, String(claims.seats), 'ticket-seats'],
    [ticketLabels.order, claims.order, 'ticket-order'],
    [ticketLabels.validUntil, formatTimestamp(claims.exp * 1000), 'ticket-valid-until'],
  ];
  return (
    <dl className="grid gap-2 sm:grid-cols-2">
      {rows.map(([label, value, testId]) => (
        <div key={testId}>
          <dt className="text-sm text-base-content/80">{label}</dt>
          <dd className="font-semibold break-all" data-testid={testId}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function ServerNote({ verdict }: { verdict: ServerVerdict }) {
  const [tone, text, status] =
    verdict.state === 'checking'
      ? ['alert-info', ticketLabels.serverChecking, 'checking']
      : verdict.state === 'offline'
        ? ['alert-warning', ticketLabels.serverOffline, 'offline']
        : verdict.state === 'failed'
          ? ['alert-warning', ticketLabels.serverFailed, 'failed']
          : verdict.status === 'valid'
            ? ['alert-success', ticketLabels.serverValid, 'valid']
            : verdict.status === 'void'
              ? ['alert-error', ticketLabels.serverVoid, 'void']
              : ['alert-error', ticketLabels.serverUnknown, verdict.status];
  return (
    <p
      role="status"
      className={`alert alert-soft ${tone} text-sm`}
      data-testid="ticket-server-status"
      data-status={status}
    >
      {verdict.state === 'checking' ? (
        <span className="loading loading-spinner loading-sm" aria-hidden="true" />
      ) : null}
      {text}
    </p>
  );
}
