import type { PaymentProvider } from './provider.ts';

/**
 * Fault injection for tests: wraps any provider so that a call can be delayed (a provider that
 * does not answer), fail (a provider error) or "crash" the server right before or right after
 * the provider acted. A hook that throws after the provider acted models a process that died
 * between two steps: the provider holds or took the money but the server never recorded it.
 */

export type FaultedCall =
  'authorize' | 'resumeAuthorization' | 'createWalletOrder' | 'capture' | 'release';

export interface FaultHooks {
  /** Runs before the provider is called; throw to fail the call, await to delay it. */
  before?: Partial<Record<FaultedCall, () => unknown>>;
  /** Runs after the provider succeeded; throw to lose its answer (a crash after the call). */
  after?: Partial<Record<FaultedCall, () => unknown>>;
}

/** The error an injected crash throws: nothing in the server catches it specially. */
export class SimulatedCrashError extends Error {
  constructor(where: string) {
    super(`simulated crash ${where}`);
    this.name = 'SimulatedCrashError';
  }
}

/** A hook that throws a SimulatedCrashError the first `times` times it runs. */
export function crashTimes(times: number, where: string): () => void {
  let left = times;
  return () => {
    if (left > 0) {
      left -= 1;
      throw new SimulatedCrashError(where);
    }
  };
}

/** A hook that never settles until `ms` pass (longer than the checkout's provider timeout). */
export function delay(ms: number): () => Promise<void> {
  return () => new Promise((resolve) => setTimeout(resolve, ms).unref());
}

export function withFaults<P extends PaymentProvider>(provider: P, hooks: FaultHooks): P {
  async function run<T>(call: FaultedCall, action: () => Promise<T>): Promise<T> {
    await hooks.before?.[call]?.();
    const result = await action();
    await hooks.after?.[call]?.();
    return result;
  }
  const wrapped: PaymentProvider = {
    name: provider.name,
    methods: provider.methods,
    normalizeCardMethod: (id) => provider.normalizeCardMethod(id),
    authorize: (amount, key, method) =>
      run('authorize', () => provider.authorize(amount, key, method)),
    capture: (id, amount, key) => run('capture', () => provider.capture(id, amount, key)),
    release: (id, key) => run('release', () => provider.release(id, key)),
  };
  if (provider.createWalletOrder) {
    const create = provider.createWalletOrder.bind(provider);
    wrapped.createWalletOrder = (amount, key, urls) =>
      run('createWalletOrder', () => create(amount, key, urls));
  }
  if (provider.resumeAuthorization) {
    const resume = provider.resumeAuthorization.bind(provider);
    wrapped.resumeAuthorization = (id) => run('resumeAuthorization', () => resume(id));
  }
  // Keep the wrapped provider's own extras (the test provider's inspection helpers).
  return Object.assign(Object.create(provider) as P, wrapped);
}
