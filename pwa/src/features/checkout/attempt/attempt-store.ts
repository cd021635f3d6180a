import { z } from 'zod';
import type { Attempt } from './attempt-machine.ts';

/**
 * Where an attempt without a definite answer lives, so that it survives a reload of the payment
 * page, a crash of the tab, the wallet provider's round trip, and is seen by another tab of the
 * same browser: `localStorage`, one entry per signed-in customer. The entry carries the cart it
 * pays (its fingerprint); while it is there, the payment page resumes it (same key, same payment
 * method) whatever the cart shows now, and starts no other. It is removed on a definite answer.
 *
 * Security: it holds the key, the amount, and a payment-method token (`pm_…`), never card data.
 */

export interface AttemptStore {
  load(): Attempt | null;
  save(attempt: Attempt | null): void;
}

const AttemptSchema = z.object({
  key: z.string().min(8).max(255),
  cart: z.string().max(20_000),
  amountCents: z.number().int().positive(),
  method: z.enum(['card', 'wallet']),
  paymentMethodId: z.string().max(255).nullable(),
  receiptEmail: z.string().max(254).nullable(),
  paymentId: z.string().max(64).nullable(),
  holdId: z.string().max(64).nullable().optional(),
  step: z.enum(['start', 'confirm']),
});

const PREFIX = 'skyport.checkout.attempt.v1.';

export function attemptStorageKey(userId: string): string {
  return `${PREFIX}${userId}`;
}

/** The attempt store of `userId` in `storage` (localStorage by default; memory when unusable). */
export function createAttemptStore(userId: string, storage?: Storage): AttemptStore {
  const name = attemptStorageKey(userId);
  let memory: Attempt | null = null;
  const backend = storage ?? safeLocalStorage();
  return {
    load() {
      if (!backend) return memory;
      try {
        const raw = backend.getItem(name);
        if (raw === null) return memory;
        const parsed = AttemptSchema.safeParse(JSON.parse(raw));
        return parsed.success ? parsed.data : null;
      } catch {
        return memory;
      }
    },
    save(attempt) {
      memory = attempt;
      if (!backend) return;
      try {
        if (attempt) backend.setItem(name, JSON.stringify(attempt));
        else backend.removeItem(name);
      } catch {
        // Storage full or refused: the attempt still lives in memory for this page.
      }
    },
  };
}

function safeLocalStorage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

/** Whether `userId` has an attempt waiting for a definite answer on this browser. */
export function hasStoredAttempt(userId: string, storage?: Storage): boolean {
  return createAttemptStore(userId, storage).load() !== null;
}
