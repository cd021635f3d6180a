import {
  TicketJwksSchema,
  TicketStatusResponseSchema,
  type TicketJwks,
  type TicketStatusResponse,
} from '@skyport/shared';
import { apiRequest } from '../../../api/api-client.ts';

/** The public keys tickets verify against (`GET /api/tickets/jwks.json`, docs/api/tickets.md). */
export function fetchTicketKeys(signal?: AbortSignal): Promise<TicketJwks> {
  return apiRequest('/tickets/jwks.json', { schema: TicketJwksSchema, signal });
}

/** Whether the server holds a ticket valid or void (`GET /api/tickets/status`). */
export function fetchTicketStatus(
  jti: string,
  signal?: AbortSignal,
): Promise<TicketStatusResponse> {
  return apiRequest(`/tickets/status?jti=${encodeURIComponent(jti)}`, {
    schema: TicketStatusResponseSchema,
    signal,
  });
}
