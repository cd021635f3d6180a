import crypto, { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, base64url: session tokens and single-use link tokens. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * `crypto.hash`, the one-shot digest (Node 20.12+; read from the module object, since a named
 * import of an export an older Node lacks fails to load), costs a fraction of a `createHash`
 * object; every signed-in request hashes its token (features/identity/session-cache.ts).
 */
const hash = crypto.hash as typeof crypto.hash | undefined;

function sha256(token: string, encoding: 'buffer'): Buffer;
function sha256(token: string, encoding: 'base64'): string;
function sha256(token: string, encoding: 'buffer' | 'base64'): Buffer | string {
  if (hash) return hash('sha256', token, encoding);
  const digest = createHash('sha256').update(token, 'utf8');
  return encoding === 'buffer' ? digest.digest() : digest.digest(encoding);
}

/** What the database keeps instead of a token: its SHA-256 (a dump holds no usable token). */
export function hashToken(token: string): Buffer {
  return sha256(token, 'buffer');
}

/** `hashToken(token)` in base64, made directly: a key for maps of sessions. */
export function hashTokenBase64(token: string): string {
  return sha256(token, 'base64');
}

/** A token we issued: exactly 43 base64url characters. Anything else is refused before any query. */
export function isWellFormedToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** A stable key for per-account counters that does not store the address itself. */
export function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest('base64url');
}
