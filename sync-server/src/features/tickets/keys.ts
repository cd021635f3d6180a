import {
  createCipheriv,
  createDecipheriv,
  createPrivateKey,
  generateKeyPairSync,
  hkdfSync,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { TICKET_ALGORITHM, TicketPublicJwkSchema, type TicketPublicJwk } from '@skyport/shared';

/**
 * Ticket signing keys (migration 013, docs/decisions/014-signed-tickets.md): Ed25519 key pairs,
 * named by their RFC 7638 thumbprint. The private half is stored as an AES-256-GCM envelope under
 * a key derived from `TICKET_KEY_SECRET` (HKDF-SHA-256, the key's id as context and additional
 * data, so an envelope cannot be moved to another key's row); without a secret it is stored as it
 * is, and only the database's own access control protects it.
 */

/** A key as stored: what `INSERT INTO ticket_signing_keys` takes. */
export interface StoredKey {
  kid: string;
  publicJwk: TicketPublicJwk;
  privateKey: string;
  privateKeyEncrypted: boolean;
}

const ENVELOPE_VERSION = 1;

interface Envelope {
  v: number;
  iv: string;
  tag: string;
  data: string;
}

function wrappingKey(secret: string, kid: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'skyport:ticket-signing-keys', kid, 32));
}

function seal(secret: string, kid: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', wrappingKey(secret, kid), iv);
  cipher.setAAD(Buffer.from(kid));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const envelope: Envelope = {
    v: ENVELOPE_VERSION,
    iv: iv.toString('base64url'),
    tag: cipher.getAuthTag().toString('base64url'),
    data: data.toString('base64url'),
  };
  return JSON.stringify(envelope);
}

function open(secret: string, kid: string, sealed: string): string {
  const envelope = JSON.parse(sealed) as Envelope;
  if (envelope.v !== ENVELOPE_VERSION) throw new Error(`ticket key ${kid}: unknown envelope`);
  const decipher = createDecipheriv(
    'aes-256-gcm',
    wrappingKey(secret, kid),
    Buffer.from(envelope.iv, 'base64url'),
  );
  decipher.setAAD(Buffer.from(kid));
  decipher.setAuthTag(Buffer.from(envelope.tag, 'base64url'));
  return Buffer.concat([
    decipher.update(Buffer.from(envelope.data, 'base64url')),
    decipher.final(),
  ]).toString('utf8');
}

/** A new Ed25519 key pair, ready to store (its private half sealed when `secret` is given). */
export async function generateSigningKey(secret: string | undefined): Promise<StoredKey> {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const publicJwk = publicKey.export({ format: 'jwk' }) as JWK;
  const kid = await calculateJwkThumbprint(publicJwk, 'sha256');
  const privateJwk = JSON.stringify(privateKey.export({ format: 'jwk' }));
  return {
    kid,
    publicJwk: TicketPublicJwkSchema.parse({
      ...publicJwk,
      kid,
      alg: TICKET_ALGORITHM,
      use: 'sig',
    }),
    privateKey: secret ? seal(secret, kid, privateJwk) : privateJwk,
    privateKeyEncrypted: Boolean(secret),
  };
}

/** Thrown when a stored private key cannot be opened (no or a wrong `TICKET_KEY_SECRET`). */
export class TicketKeyUnavailableError extends Error {}

/** The private key of a stored row, for signing. */
export function openSigningKey(
  row: { kid: string; private_key: string; private_key_encrypted: boolean },
  secret: string | undefined,
): KeyObject {
  let jwk: string;
  if (row.private_key_encrypted) {
    if (!secret) {
      throw new TicketKeyUnavailableError(
        `ticket signing key ${row.kid} is encrypted and TICKET_KEY_SECRET is not set`,
      );
    }
    try {
      jwk = open(secret, row.kid, row.private_key);
    } catch {
      throw new TicketKeyUnavailableError(
        `ticket signing key ${row.kid} cannot be decrypted with this TICKET_KEY_SECRET`,
      );
    }
  } else {
    jwk = row.private_key;
  }
  return createPrivateKey({ key: JSON.parse(jwk) as JWK & { kty: string }, format: 'jwk' });
}
