import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, base64url: session tokens and single-use link tokens. */
export function generateToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps instead of a token: its SHA-256 (a dump holds no usable token). */
export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

/** A token we issued: exactly 43 base64url characters. Anything else is refused before any query. */
export function isWellFormedToken(token: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(token);
}

/** A stable key for per-account counters that does not store the address itself. */
export function accountKey(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest('base64url');
}
