import type { SnapshotFromWorker, SnapshotTarget, SnapshotToWorker } from './snapshot-protocol.ts';
import { SnapshotError, asOpened, writeSnapshot } from './snapshot-writer.ts';

/**
 * The snapshot worker (sync/snapshot.ts starts it; sync/snapshot-writer.ts does the work): gets
 * where to download the snapshot from and where the replica is at once (it downloads it itself,
 * off the page's main thread, and writes it as it comes when the replica is empty); otherwise it
 * waits for the page's go-ahead (where to write) once its replication has started and found no
 * checkpoint. Answers with what was written.
 */

/** The worker's global scope (typed by hand: the app is type-checked with the DOM library). */
const scope = globalThis as unknown as {
  postMessage(message: SnapshotFromWorker): void;
  onmessage: ((event: MessageEvent<SnapshotToWorker>) => void) | null;
};

/** A promise settled from outside. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/**
 * Claims the right to write a new replica at once, for one worker of the browser at a time
 * (Web Locks): the worker of a second tab opened meanwhile finds the replica written, or waits
 * for its page. Granted where the browser has no Web Locks.
 */
function claim(name: string): Promise<(() => void) | null> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks;
  if (!locks) return Promise.resolve(() => undefined);
  return new Promise((resolve, reject) => {
    locks
      .request(name, { ifAvailable: true }, (lock) => {
        if (!lock) return resolve(null);
        // Held until released: the promise the lock waits for.
        return new Promise<void>((release) => resolve(() => release()));
      })
      .catch(reject);
  });
}

const body = deferred<ReadableStream<Uint8Array>>();
const confirmed = deferred<SnapshotTarget & { context: string }>();
const pageOpen = deferred<void>();

async function fetchBody(url: string, headers: Record<string, string>) {
  const response = await fetch(url, { headers, credentials: 'same-origin' });
  if (!response.ok || !response.body)
    throw new SnapshotError(`snapshot: ${response.status} ${response.statusText}`, response.status);
  return response.body;
}

scope.onmessage = (event) => {
  const message = event.data;
  if (message.type === 'start') {
    const early = message.early && asOpened(message.early);
    void writeSnapshot({
      bulkSize: message.bulkSize,
      body: body.promise,
      confirmed: confirmed.promise,
      early,
      claim:
        early && (() => claim(`skyport-snapshot:${early.databaseName}:${early.collectionName}`)),
      onWaiting: () => scope.postMessage({ type: 'waiting' }),
      pageOpen: pageOpen.promise,
    }).then((answer) => scope.postMessage(answer));
  } else if (message.type === 'fetch')
    fetchBody(message.url, message.headers).then(body.resolve, body.reject);
  else if (message.type === 'open') pageOpen.resolve();
  else if (message.type === 'write')
    confirmed.resolve({ ...message.target, context: message.context });
};
