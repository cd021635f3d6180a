import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id at OWASP's minimum recommendation (m = 19 MiB, t = 2, p = 1).
 * The PHC string keeps the parameters, so they can be raised later without breaking old hashes.
 */
const ARGON2ID = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2ID);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
