import { createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet } from 'jose';
import {
  PastedTicketSchema,
  TICKET_ALGORITHM,
  TICKET_ISSUER,
  TICKET_TYPE,
  TicketClaimsSchema,
  type TicketClaims,
  type TicketJwks,
} from '@skyport/shared';

/**
 * Checks a ticket on this device alone (issue 17; docs/decisions/014-signed-tickets.md): its
 * Ed25519 signature against the key set the device keeps (`GET /api/tickets/jwks.json`, kept in
 * an RxDB local document), its issuer, type and expiry, and the shape of its claims. No network:
 * whether the server has voided it is asked separately when online (api/tickets-api.ts).
 *
 * jose runs on the browser's WebCrypto, which verifies Ed25519 in current browsers; where it
 * cannot (an older browser) the answer is `unsupported`, never a wrong "valid".
 */

export type TicketProblem =
  /** Not three base64url parts, or not a ticket once decoded. */
  | 'malformed'
  /** Signed with a key this device does not have (a newer key, or not ours). */
  | 'unknown-key'
  /** The signature does not match the content: altered, or forged. */
  | 'bad-signature'
  /** The flight is over: the ticket's expiry has passed. */
  | 'expired'
  /** This browser cannot check Ed25519 signatures. */
  | 'unsupported'
  /** The device has no keys yet: it must be online once. */
  | 'no-keys';

export type TicketVerification =
  { ok: true; claims: TicketClaims; kid: string } | { ok: false; problem: TicketProblem };

/**
 * Verifies `ticket` against `jwks`, as of `now` (the device's clock; tests pass their own).
 * Never throws: every failure is a `problem`.
 */
export async function verifyTicket(
  ticket: string,
  jwks: TicketJwks | null,
  now: Date = new Date(),
): Promise<TicketVerification> {
  const parsed = PastedTicketSchema.safeParse(ticket);
  if (!parsed.success) return { ok: false, problem: 'malformed' };
  if (!jwks || jwks.keys.length === 0) return { ok: false, problem: 'no-keys' };
  try {
    const { payload, protectedHeader } = await jwtVerify(
      parsed.data,
      createLocalJWKSet(jwks as JSONWebKeySet),
      {
        algorithms: [TICKET_ALGORITHM],
        issuer: TICKET_ISSUER,
        typ: TICKET_TYPE,
        currentDate: now,
      },
    );
    const claims = TicketClaimsSchema.safeParse(payload);
    if (!claims.success) return { ok: false, problem: 'malformed' };
    return { ok: true, claims: claims.data, kid: protectedHeader.kid ?? '' };
  } catch (error) {
    return { ok: false, problem: problemOf(error) };
  }
}

function problemOf(error: unknown): TicketProblem {
  if (error instanceof errors.JWTExpired) return 'expired';
  if (error instanceof errors.JWKSNoMatchingKey) return 'unknown-key';
  if (error instanceof errors.JWSSignatureVerificationFailed) return 'bad-signature';
  if (error instanceof errors.JOSENotSupported) return 'unsupported';
  // WebCrypto without Ed25519 refuses to import the key.
  if (error instanceof DOMException && error.name === 'NotSupportedError') return 'unsupported';
  // Anything else (a header that is not JSON, a wrong issuer or type, a bad claim): not a ticket.
  return 'malformed';
}
