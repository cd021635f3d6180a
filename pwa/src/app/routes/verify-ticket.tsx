import { VerifyTicketScreen } from '../../features/tickets/components/verify-ticket-screen.tsx';
import { useTicketKeyRefresh, useTicketKeys } from '../../features/tickets/data/ticket-keys.ts';
import { useTicketCheck } from '../../features/tickets/verify/use-ticket-check.ts';

/** /verify-ticket (issue 17): anyone checks a signed e-ticket, offline with the device's keys. */
export function VerifyTicketRoute() {
  const keys = useTicketKeys();
  const keyRefresh = useTicketKeyRefresh();
  const { check, verify, reset } = useTicketCheck(keys ?? null);
  return (
    <VerifyTicketScreen
      keys={keys}
      keyRefresh={keyRefresh}
      check={check}
      onVerify={verify}
      onEdit={reset}
    />
  );
}
