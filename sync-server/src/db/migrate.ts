import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import type { Sql } from './client.ts';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);

/** An applied migration whose file no longer has the content that was applied. */
export class EditedMigrationError extends Error {
  constructor(readonly files: readonly string[]) {
    super(
      `Applied migrations were edited since they ran: ${files.join(', ')}. ` +
        'A migration that has run is never changed; add a new one instead (and restore these files).',
    );
    this.name = 'EditedMigrationError';
  }
}

const checksumOf = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Applies the versioned SQL files of `migrations/` that this database has not seen, in name order,
 * each recorded with its SHA-256, all in one transaction. An advisory lock lets several instances
 * start at once.
 *
 * An applied migration is never run again, so an edit to its file would silently not reach any
 * database that already has it, while new databases would get the edited version: the two would
 * differ with nothing said. So the start is refused (`EditedMigrationError`, nothing applied) when
 * an applied file's checksum changed. Rows applied before checksums were recorded get the current
 * file's checksum the first time.
 */
export async function migrate(sql: Sql): Promise<string[]> {
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql')).sort();
  const texts = new Map(
    await Promise.all(
      files.map(
        async (file) => [file, await readFile(new URL(file, MIGRATIONS_DIR), 'utf8')] as const,
      ),
    ),
  );
  const applied: string[] = [];
  await sql.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(hashtext('skyport:migrations'))`;
    await tx`CREATE TABLE IF NOT EXISTS schema_migrations (
      name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())`;
    await tx`ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text`;
    const done = new Map(
      (
        await tx<{ name: string; checksum: string | null }[]>`
        SELECT name, checksum FROM schema_migrations`
      ).map((r) => [r.name, r.checksum]),
    );
    const edited = [...done]
      .filter(([name, checksum]) => {
        const text = texts.get(name);
        return checksum !== null && text !== undefined && checksumOf(text) !== checksum;
      })
      .map(([name]) => name);
    if (edited.length > 0) throw new EditedMigrationError(edited);
    for (const [file, text] of texts) {
      const checksum = checksumOf(text);
      if (done.has(file)) {
        if (done.get(file) === null)
          await tx`UPDATE schema_migrations SET checksum = ${checksum} WHERE name = ${file}`;
        continue;
      }
      await tx.unsafe(text);
      await tx`INSERT INTO schema_migrations (name, checksum) VALUES (${file}, ${checksum})`;
      applied.push(file);
    }
  });
  return applied;
}
