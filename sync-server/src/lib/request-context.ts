import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written while a request is handled carries (see logger.ts). */
interface RequestContext {
  requestId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `work` (a request's handling) with its id available to every log line written inside. */
export function runWithRequestId<T>(requestId: string, work: () => T): T {
  return storage.run({ requestId }, work);
}

/** The id of the request being handled, if any. */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
