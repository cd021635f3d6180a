import type { RxStorage } from 'rxdb';

/**
 * A storage whose instances are each created in a task of their own: `betweenSteps` (the app
 * passes `nextTask`, ui/idle.ts) is awaited before and after every `createStorageInstance`.
 *
 * RxDB's `createRxDatabase` creates the internal store, constructs the database (which writes
 * its storage token) and creates the local documents' store in one chain of promises, with
 * nothing in it that waits for a new task: one task of 90-290 ms on a phone four times slower
 * than a laptop (CPU profiles of the first visit, docs/benchmarks.md §3). Each Dexie store
 * costs a share of it (a Dexie database, its schema parsed, RxDB's multi-instance channel), so
 * the chain is cut at each one; a collection's store is cut from its collection's set-up too.
 */
export function withSteppedCreation<Internals, Options>(
  storage: RxStorage<Internals, Options>,
  betweenSteps: () => Promise<void>,
): RxStorage<Internals, Options> {
  return {
    name: storage.name,
    rxdbVersion: storage.rxdbVersion,
    async createStorageInstance(params) {
      await betweenSteps();
      const instance = await storage.createStorageInstance(params);
      await betweenSteps();
      return instance;
    },
  };
}
