/**
 * Late echoes of a device's own pushes (docs/architecture.md §4.6).
 *
 * The change stream sends a written document when its feed wakes, so a device that pushes one
 * document twice in quick succession (two taps on "+") may get the echo of its first push after
 * the answer to its second. RxDB's downstream would take that echo for a newer server state and
 * write it over the device's copy (a cart line 3 → 2 → 3), and a tap in that moment would go out
 * against the older state and come back as a conflict.
 *
 * The server orders the states of one row by its revision (a later write has a larger one) and
 * names them: a push's report gives the revision each accepted row has now, and pulls and stream
 * events of the collections devices push to give each document's revision. A pulled state older
 * than an accepted push of this device is stale by definition: the server has since taken this
 * device's change, whose own echo (or a newer state) follows. It is dropped before RxDB sees it.
 *
 * Kept in memory for as long as the replication runs: after a reload the stream starts again
 * with a pull of the current states, so no echo of an earlier session can arrive late.
 */
export interface EchoOrder {
  /** Records the revisions a push of this device was accepted at (the push report's). */
  accepted(revisions: Readonly<Record<string, number>> | undefined): void;
  /**
   * The pulled documents without those older than an accepted push of this device. `revisions`
   * gives each document's revision, in order (absent from an older server: all are kept).
   */
  newer<D extends { id: string }>(documents: D[], revisions: readonly number[] | undefined): D[];
}

export function createEchoOrder(): EchoOrder {
  /** The largest revision a push of this device was accepted at, by document id. */
  const acceptedAt = new Map<string, number>();
  return {
    accepted(revisions) {
      for (const [id, revision] of Object.entries(revisions ?? {}))
        if (revision > (acceptedAt.get(id) ?? -1)) acceptedAt.set(id, revision);
    },
    newer(documents, revisions) {
      if (acceptedAt.size === 0 || revisions?.length !== documents.length) return documents;
      const kept = documents.filter(
        (doc, index) => revisions[index]! >= (acceptedAt.get(doc.id) ?? 0),
      );
      return kept.length === documents.length ? documents : kept;
    },
  };
}
