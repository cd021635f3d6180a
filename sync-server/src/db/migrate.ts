// The database's schema at start-up (docs/decisions/033-repeatable-sql-functions.md), in the
// Flyway model of versioned and repeatable migrations:
//
// - `migrations/NNN_*.sql` are versioned: each runs once, in name order, and is recorded with its
//   SHA-256 in `schema_migrations`. An applied file is never edited (the start stops if it was);
//   tables, columns, indexes and data changes go in a new file with the next number.
//   `000_baseline.sql` is the schema migrations 001 to 025 built, squashed into one file
//   (decision 036); on a database that ran them it is recorded without running.
// - `functions/<name>.sql` are repeatable: one file per SQL function, holding its current
//   definition, and for a trigger function its CREATE TRIGGER statements too. Each is idempotent
//   (CREATE OR REPLACE FUNCTION, CREATE OR REPLACE TRIGGER) and re-applied, after the versioned
//   migrations, whenever its SHA-256 differs from the one recorded in `schema_repeatables`; so a
//   change to `sync_push` is a diff of `functions/sync_push.sql` alone. No versioned migration
//   defines a function or a trigger (migrate.test.ts): one that did would be undone by
//   the file on a new database and not on an old one. To retire a function, delete its file and
//   drop it in a versioned migration. Files run in name order with the bodies of functions left
//   unchecked until a call (`check_function_bodies` off, as a restore of pg_dump runs), so a file
//   may call a function of a file that comes after it.
//
// Everything runs in one transaction under one advisory lock, so instances starting at once
// migrate once, and a failing file leaves the database as it was. The production bundle carries
// both folders beside main.js (scripts/build.mjs), where `import.meta.url` finds them.

import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { getConstructionPlans } from 'pg-boss';
import type postgres from 'postgres';
import type { Sql } from './client.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const FUNCTIONS_DIR = fileURLToPath(new URL('./functions/', import.meta.url));

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

/**
 * Migrations 001 to 025 in one file: a database that ran them all has what it creates. One that ran
 * only some was left by a build before 025, long gone; it needs a build of commit 05c9caf or
 * earlier to bring it to 025 first.
 */
const BASELINE = '000_baseline.sql';
const LAST_SQUASHED = 25;

/** A database migrated part of the way through the migrations the baseline squashed. */
export class PartlyMigratedError extends Error {
  constructor(readonly last: string) {
    super(
      `This database stopped at migration ${last}, before 025: migrate it with a build of commit ` +
        '05c9caf or earlier first (000_baseline.sql holds 001 to 025 in one file).',
    );
    this.name = 'PartlyMigratedError';
  }
}

const checksumOf = (text: string) => createHash('sha256').update(text).digest('hex');

/** The `.sql` files of a folder by name, in name order; a folder that does not exist has none. */
async function readSqlFiles(dir: string, required: boolean): Promise<Map<string, string>> {
  let names: string[];
  try {
    names = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  } catch (error) {
    if (!required && (error as NodeJS.ErrnoException).code === 'ENOENT') return new Map();
    throw error;
  }
  return new Map(
    await Promise.all(
      names.map(async (name) => [name, await readFile(path.join(dir, name), 'utf8')] as const),
    ),
  );
}

export interface MigrateOptions {
  /** The versioned migrations' folder; by default `migrations/` beside this module. */
  migrationsDir?: string;
  /**
   * The repeatable files' folder; by default `functions/` beside this module (a folder that does
   * not exist holds none). `null` applies none and leaves `schema_repeatables` alone: what a build
   * before repeatable files did (tests compare the two).
   */
  functionsDir?: string | null;
}

/**
 * Applies the versioned SQL files of `migrations/` that this database has not seen, in name order,
 * each recorded with its SHA-256, then the repeatable files of `functions/` whose SHA-256 is not
 * the one recorded for them, in name order; all in one transaction. An advisory lock lets several
 * instances start at once. Returns what it applied: versioned file names, then `functions/<file>`.
 *
 * An applied migration is never run again, so an edit to its file would silently not reach any
 * database that already has it, while new databases would get the edited version: the two would
 * differ with nothing said. So the start is refused (`EditedMigrationError`, nothing applied) when
 * an applied file's checksum changed. Rows applied before checksums were recorded get the current
 * file's checksum the first time.
 *
 * A repeatable file is re-applied whenever its text differs from the last one applied, whichever
 * build applied that: an instance of the previous build that starts during a rolling deploy puts
 * its definitions back until the next instance of the new build starts (decision 033). The record
 * of a file that is gone is dropped, so that the file, brought back, is applied again.
 */
export async function migrate(sql: Sql, options: MigrateOptions = {}): Promise<string[]> {
  const texts = await readSqlFiles(options.migrationsDir ?? MIGRATIONS_DIR, true);
  const functionsDir = options.functionsDir === undefined ? FUNCTIONS_DIR : options.functionsDir;
  const functions = functionsDir === null ? null : await readSqlFiles(functionsDir, false);
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
    const squashed = [...done.keys()].filter((name) => parseInt(name, 10) <= LAST_SQUASHED).sort();
    // (A folder without the baseline is an older build's, as the bench builds: it has 001–025.)
    if (texts.has(BASELINE) && !done.has(BASELINE) && squashed.length > 0) {
      const last = squashed.at(-1)!;
      if (parseInt(last, 10) !== LAST_SQUASHED) throw new PartlyMigratedError(last);
      const checksum = checksumOf(texts.get(BASELINE)!);
      await tx`INSERT INTO schema_migrations (name, checksum) VALUES (${BASELINE}, ${checksum})`;
      done.set(BASELINE, checksum);
    }
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
    if (functions) applied.push(...(await applyRepeatables(tx, functions)));
  });
  await installJobQueue(sql);
  return applied;
}

/**
 * The job queue's tables (pg-boss, schema `pgboss`, lib/job-queue.ts), installed on a database
 * that has none, so that a test template carries them; pg-boss upgrades them itself when it starts.
 * Its script is a transaction of its own under its own advisory lock: an instance that loses the
 * race finds the schema there after its failure and goes on.
 */
async function installJobQueue(sql: Sql): Promise<boolean> {
  const installed = async () =>
    (await sql<{ ok: boolean }[]>`SELECT to_regclass('pgboss.version') IS NOT NULL AS ok`)[0]!.ok;
  if (await installed()) return false;
  const connection = await sql.reserve();
  try {
    await connection.unsafe(getConstructionPlans('pgboss'));
    return true;
  } catch (error) {
    await connection.unsafe('ROLLBACK');
    if (await installed()) return false;
    throw error;
  } finally {
    connection.release();
  }
}

/** The repeatable files whose text is not the one last applied, applied and recorded. */
async function applyRepeatables(
  tx: postgres.TransactionSql,
  files: Map<string, string>,
): Promise<string[]> {
  await tx`CREATE TABLE IF NOT EXISTS schema_repeatables (
    name text PRIMARY KEY, checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`;
  const recorded = new Map(
    (
      await tx<{ name: string; checksum: string }[]>`SELECT name, checksum FROM schema_repeatables`
    ).map((r) => [r.name, r.checksum]),
  );
  const applied: string[] = [];
  await tx`SET LOCAL check_function_bodies = off`;
  for (const [file, text] of files) {
    const checksum = checksumOf(text);
    if (recorded.get(file) === checksum) continue;
    await tx.unsafe(text);
    await tx`INSERT INTO schema_repeatables (name, checksum) VALUES (${file}, ${checksum})
      ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = now()`;
    applied.push(`functions/${file}`);
  }
  await tx`DELETE FROM schema_repeatables WHERE name <> ALL (${[...files.keys()]}::text[])`;
  return applied;
}
