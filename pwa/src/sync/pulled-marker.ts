import { getHeightOfRevision, type HashFunction, type RxDocumentData } from 'rxdb';

/**
 * RxDB's mark of a pulled document, and what it tells when the replication's own record of the
 * server's state is missing.
 *
 * A pulled document is written in two storage writes: the document, then the replication's record
 * of the server's state (its meta document, the "assumed master state"), then its checkpoint. A
 * page reloaded between them (a browser busy storing the catalogue takes seconds over them) keeps
 * the document without the record (decision 017, "Seen while testing"). RxDB then treats it as a
 * change made on the device: its upstream pushes it with no assumed state, which the server, which
 * has the document, answers as a conflict ("1 needs you"), and the next change of it meets the
 * same fate and is rolled back.
 *
 * The downstream marks each document it writes with `_meta.o`: the replication's identifier
 * hash and the revision height it wrote. A document still at that height has not been changed on
 * the device since: it is the server's state as pulled, the very record that was lost (RxDB's own
 * downstream relies on this mark to re-pull such a document instead of skipping it as a local
 * change; its upstream does not look at it).
 */

/** The hash RxDB's downstream marks its writes with (`identifier`: the protocol state's). */
export function pullMarkOf(hashFunction: HashFunction, identifier: string): Promise<string> {
  return hashFunction(identifier);
}

/** Whether `doc` is, unchanged since, what the replication with this mark pulled. */
export function isPulledAndUnchanged(doc: RxDocumentData<unknown>, pullMark: string): boolean {
  const origin = doc._meta.o;
  return origin?.hash === pullMark && origin._rev === getHeightOfRevision(doc._rev);
}
