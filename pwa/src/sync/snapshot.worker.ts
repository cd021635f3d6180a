import { openCatalogueReplica, type CatalogueReplica } from '../db/catalogue-replica.ts';
import type { SnapshotFromWorker, SnapshotToWorker } from './snapshot-protocol.ts';
import { SnapshotError, writeSnapshot } from './snapshot-writer.ts';

/**
 * The snapshot worker (sync/snapshot.ts starts it; sync/snapshot-writer.ts does the work): gets
 * where to download the snapshot from at once (it downloads it itself, off the page's main
 * thread), and the replica to write it into once the page's replication leads and has emptied
 * it. Answers with what was written.
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

const body = deferred<ReadableStream<Uint8Array>>();
const target = deferred<CatalogueReplica>();
let opened: CatalogueReplica | undefined;

async function fetchBody(url: string, headers: Record<string, string>) {
  const response = await fetch(url, { headers, credentials: 'same-origin' });
  if (!response.ok || !response.body)
    throw new SnapshotError(`snapshot: ${response.status} ${response.statusText}`, response.status);
  return response.body;
}

scope.onmessage = (event) => {
  const message = event.data;
  if (message.type === 'start') {
    void writeSnapshot({
      bulkSize: message.bulkSize,
      body: body.promise,
      target: target.promise,
    }).then((answer) => {
      // Closed before the answer: the page may delete or reopen the replica at once.
      opened?.close();
      scope.postMessage(answer);
    });
  } else if (message.type === 'fetch')
    fetchBody(message.url, message.headers).then(body.resolve, body.reject);
  else if (message.type === 'write')
    openCatalogueReplica(message.replica).then((replica) => {
      opened = replica;
      target.resolve(replica);
    }, target.reject);
};
