import { useCallback, useRef, useState } from 'react';
import type { TicketJwks, TicketServerStatus } from '@skyport/shared';
import { ApiError } from '../../../api/api-client.ts';
import { fetchTicketStatus } from '../api/tickets-api.ts';
import { verifyTicket, type TicketVerification } from './verify-ticket.ts';

/** What the server says of a ticket that verified on the device (asked only when online). */
export type ServerVerdict =
  | { state: 'checking' }
  | { state: 'answered'; status: TicketServerStatus; voidedAt: number | null }
  | { state: 'offline' }
  | { state: 'failed' };

export interface TicketCheck {
  ticket: string;
  /** The device's own verdict: the signature against the keys it keeps. */
  local: TicketVerification;
  /** Null when the ticket did not verify (the server is not asked). */
  server: ServerVerdict | null;
}

/**
 * The verification flow: the signature first, on the device (works offline), then, for a genuine
 * ticket and only when online, whether the server has voided it. A newer check replaces an older
 * one still under way.
 */
export function useTicketCheck(keys: TicketJwks | null) {
  const [check, setCheck] = useState<TicketCheck | null>(null);
  const latest = useRef(0);

  const verify = useCallback(
    async (ticket: string) => {
      const run = ++latest.current;
      const local = await verifyTicket(ticket, keys);
      if (run !== latest.current) return;
      if (!local.ok) {
        setCheck({ ticket, local, server: null });
        return;
      }
      if (!navigator.onLine) {
        setCheck({ ticket, local, server: { state: 'offline' } });
        return;
      }
      setCheck({ ticket, local, server: { state: 'checking' } });
      let server: ServerVerdict;
      try {
        const answer = await fetchTicketStatus(local.claims.jti);
        server = { state: 'answered', status: answer.status, voidedAt: answer.voidedAt };
      } catch (error) {
        server = { state: error instanceof ApiError && error.isOffline ? 'offline' : 'failed' };
      }
      if (run === latest.current) setCheck({ ticket, local, server });
    },
    [keys],
  );

  const reset = useCallback(() => {
    latest.current += 1;
    setCheck(null);
  }, []);

  return { check, verify, reset };
}
