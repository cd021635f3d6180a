import { z } from 'zod';
import { messages } from '../messages.ts';
import { text } from './text.ts';
import { DateStringSchema, HourSchema, IdSchema } from './common.ts';

/**
 * Signed e-tickets (issue 17; docs/decisions/014-signed-tickets.md, docs/api/tickets.md): every
 * line of a confirmed order carries a compact JWS signed with Ed25519 (`alg: EdDSA`) that anyone
 * can check offline against the public keys of `GET /api/tickets/jwks.json`. The server builds the
 * claims with these schemas and the PWA parses a verified ticket's payload with them.
 */

/** The `iss` of every ticket. */
export const TICKET_ISSUER = 'skyport';
/** The protected header's `typ`: a Skyport ticket, not any other JWT signed with the same keys. */
export const TICKET_TYPE = 'skyport-ticket+jwt';
/** The only signature algorithm tickets use (Ed25519). */
export const TICKET_ALGORITHM = 'EdDSA';
/** Longest ticket accepted anywhere (a real one is about 700 characters). */
export const TICKET_MAX_LENGTH = 4000;
/** Longest passenger name a ticket carries (a longer customer name is cut). */
export const TICKET_NAME_MAX_LENGTH = 200;

const COMPACT_JWS = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** A compact JWS: three base64url parts joined by dots (as stored and replicated). */
export const TicketTokenSchema = text()
  .max(TICKET_MAX_LENGTH, messages.ticketTooLong)
  .regex(COMPACT_JWS, messages.ticketMalformed);

/** A ticket as a person pastes it: surrounding white space is dropped first. */
export const PastedTicketSchema = text()
  .trim()
  .min(1, messages.ticketMissing)
  .max(TICKET_MAX_LENGTH, messages.ticketTooLong)
  .regex(COMPACT_JWS, messages.ticketMalformed);

/**
 * A ticket's claims. Besides the registered `iss`, `jti` (the ticket's id, what its status is
 * asked by), `iat` and `exp` (the day after the flight lands, UTC): the order, the flight, its
 * airline, route, departure date and hour, the seats and the passenger (the buyer's name).
 */
export const TicketClaimsSchema = z.object({
  iss: z.literal(TICKET_ISSUER),
  jti: IdSchema,
  iat: z.number().int().nonnegative(),
  exp: z.number().int().nonnegative(),
  order: IdSchema,
  flight: IdSchema,
  airline: text().max(200),
  from: text().max(200),
  to: text().max(200),
  date: DateStringSchema,
  time: HourSchema,
  seats: z.number().int().min(1),
  name: text().max(TICKET_NAME_MAX_LENGTH),
});
export type TicketClaims = z.infer<typeof TicketClaimsSchema>;

/** One public key of the ticket key set: an Ed25519 key as a JWK (RFC 8037). */
export const TicketPublicJwkSchema = z.object({
  kty: z.literal('OKP'),
  crv: z.literal('Ed25519'),
  x: text().regex(/^[A-Za-z0-9_-]{43}$/),
  kid: text().min(1).max(100),
  alg: z.literal(TICKET_ALGORITHM),
  use: z.literal('sig'),
});
export type TicketPublicJwk = z.infer<typeof TicketPublicJwkSchema>;

/** `GET /api/tickets/jwks.json`: the current key and the retired keys whose tickets may still be valid. */
export const TicketJwksSchema = z.object({
  keys: z.array(TicketPublicJwkSchema).max(100),
});
export type TicketJwks = z.infer<typeof TicketJwksSchema>;

/** `POST /api/tickets/verify` body. */
export const VerifyTicketBodySchema = z.object({ ticket: PastedTicketSchema });

/** `GET /api/tickets/status?jti=` query. */
export const TicketStatusQuerySchema = z.object({ jti: IdSchema }).strict();

/**
 * What the server says of a ticket: `valid` (signed by us, not void), `void` (its order was
 * cancelled), `unknown` (no ticket with that id was issued), or, for `POST /verify` only,
 * `invalid` (the signature does not check out) and `expired`.
 */
export const TicketServerStatusSchema = z.enum(['valid', 'void', 'unknown', 'invalid', 'expired']);
export type TicketServerStatus = z.infer<typeof TicketServerStatusSchema>;

export const TicketStatusResponseSchema = z.object({
  jti: IdSchema.nullable(),
  status: TicketServerStatusSchema,
  /** When the ticket was voided (ms since the epoch), for `void`. */
  voidedAt: z.number().int().nullable(),
});
export type TicketStatusResponse = z.infer<typeof TicketStatusResponseSchema>;
