/**
 * Constants of the replication protocol (docs/architecture.md §4) that need no schema: the app reads some of
 * them at start-up, before it needs any replication schema (`schemas/replication.ts`).
 */

/**
 * Version of the replication protocol and of the collection documents. A client sends it in
 * `SYNC_VERSION_HEADER`; the server answers any other value with 426 "update required", so an
 * outdated app never writes documents of an older shape. Raise it whenever a document changes.
 */
export const SYNC_PROTOCOL_VERSION = 1;
/** Request header carrying the client's `SYNC_PROTOCOL_VERSION`. */
export const SYNC_VERSION_HEADER = 'x-skyport-sync-version';

/** Documents in one pull answer when the client asks for no particular size. */
export const PULL_DEFAULT_BATCH = 100;
/** Largest pull batch a client may ask for. */
export const PULL_MAX_BATCH = 2000;
/** Most rows in one push; a larger batch is refused whole with 413. */
export const PUSH_MAX_ROWS = 100;

/**
 * Request header of a push (`POST /api/sync/{collection}/push`) asking for the push report: with
 * it (value `1`) the server answers `{ documents, conflicts, rejected }` (`pushReportSchema`), says
 * which rows were conflicts and why it refused a row, and refuses a row of a deleted flight alone
 * instead of the whole push. Without it the answer is the bare array of documents, as clients
 * before issue 17 read it (docs/architecture.md §4.4).
 */
export const PUSH_REPORT_HEADER = 'x-skyport-push-report';
