import { z } from 'zod';
import { IdSchema, WRITABLE_SYNC_COLLECTIONS, text } from '@skyport/shared';

/**
 * The device's journal of its changes' sync states (sync/change-states.ts), stored as an RxDB
 * local document (local-state.ts): device-local, never replicated. Documents are kept as the
 * replication saw them; only their id and tombstone flag are read back as such.
 */

/** A document of a pushed collection as the journal keeps it. */
export const JournalDocSchema = z.looseObject({ id: z.string(), _deleted: z.boolean() });
export type JournalDoc = z.infer<typeof JournalDocSchema>;

const ChangeKey = {
  collection: z.enum(WRITABLE_SYNC_COLLECTIONS),
  id: z.string().max(100),
  /** When it happened, ms since the epoch (this device's clock: shown, never sent). */
  at: z.number().nonnegative(),
};

/** A change the server refused; the device still holds it as it was made (`attempted`). */
export const RefusedChangeSchema = z.object({
  ...ChangeKey,
  reason: text().max(500),
  attempted: JournalDocSchema,
  /** The server's document when it refused (null: it has none). Discarding goes back to it. */
  server: JournalDocSchema.nullable(),
});
export type RefusedChange = z.infer<typeof RefusedChangeSchema>;

/** A change that met another device's change of the same document: the server's was kept. */
export const ConflictChangeSchema = z.object({
  ...ChangeKey,
  mine: JournalDocSchema,
  kept: JournalDocSchema.nullable(),
});
export type ConflictChange = z.infer<typeof ConflictChangeSchema>;

/** A change the server accepted (recent ones only). */
export const AcceptedChangeSchema = z.object({ ...ChangeKey, doc: JournalDocSchema });
export type AcceptedChange = z.infer<typeof AcceptedChangeSchema>;

/**
 * A refused document the device kept as made: the replication believes the server has it, so the
 * next push of that document is sent with the server's real state (`server`) as its assumed
 * master state, and a fix is not mistaken for a conflict.
 */
export const KeptRefusalSchema = z.object({
  collection: ChangeKey.collection,
  id: ChangeKey.id,
  attempted: JournalDocSchema,
  server: JournalDocSchema.nullable(),
});
export type KeptRefusal = z.infer<typeof KeptRefusalSchema>;

export const ChangeJournalSchema = z.object({
  userId: IdSchema,
  refused: z.array(RefusedChangeSchema),
  conflicts: z.array(ConflictChangeSchema),
  accepted: z.array(AcceptedChangeSchema),
  kept: z.array(KeptRefusalSchema),
});
export type ChangeJournal = z.infer<typeof ChangeJournalSchema>;
