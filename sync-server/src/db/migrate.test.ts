import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type postgres from 'postgres';
import { afterAll, expect, inject, test } from 'vitest';
import { createTestDatabase } from '../test/harness.ts';
import { createSql, type Sql } from './client.ts';
import { EditedMigrationError, migrate, PartlyMigratedError } from './migrate.ts';

/**
 * The migration runner on real PostgreSQL: it records a checksum of every migration it applies
 * and refuses to start, applying nothing, when an applied migration's file was edited; it
 * re-applies a repeatable file of functions/ when its text changed (decision 033); a database of
 * the migrations 001 to 025 is taken as having the baseline that squashed them (decision 036).
 */

const { sql } = await createTestDatabase();

test('an applied migration that was edited stops the start; the same files pass', async () => {
  // The test database is cloned from a migrated template: everything is applied, with checksums.
  expect(await migrate(sql)).toEqual([]);
  const recorded = await sql<{ name: string; checksum: string | null }[]>`
    SELECT name, checksum FROM schema_migrations ORDER BY name`;
  expect(recorded.map((row) => row.name)).toEqual([...(await sqlFiles(MIGRATIONS_DIR)).keys()]);
  for (const row of recorded) expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);

  // Pretend the baseline was edited: its recorded checksum no longer matches the file.
  await sql`UPDATE schema_migrations SET checksum = ${'0'.repeat(64)} WHERE name = '000_baseline.sql'`;
  await expect(migrate(sql)).rejects.toThrow(EditedMigrationError);
  await expect(migrate(sql)).rejects.toThrow(/000_baseline\.sql/);

  // A database migrated before checksums existed gets them recorded, and nothing runs again.
  await sql`UPDATE schema_migrations SET checksum = NULL`;
  expect(await migrate(sql)).toEqual([]);
  const [unset] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM schema_migrations WHERE checksum IS NULL`;
  expect(unset!.n).toBe(0);
});

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const FUNCTIONS_DIR = fileURLToPath(new URL('./functions/', import.meta.url));

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const withoutComments = (text: string) => text.replace(/--.*$/gm, '');

/** What a repeatable file defines: its functions and its triggers (`<table>.<trigger>`). */
function definedBy(text: string) {
  const code = withoutComments(text);
  return {
    functions: [...code.matchAll(/CREATE OR REPLACE FUNCTION (\w+)\(/g)].map((m) => m[1]!),
    triggers: [
      ...code.matchAll(
        /CREATE OR REPLACE TRIGGER (\w+)\s[^;]*?\sON (\w+)\s[^;]*?EXECUTE FUNCTION (\w+)\(/g,
      ),
    ].map((m) => ({ name: `${m[2]}.${m[1]}`, calls: m[3]! })),
    notRepeatable: /CREATE\s+(FUNCTION|TRIGGER)/i.test(code),
  };
}

async function sqlFiles(dir: string): Promise<Map<string, string>> {
  const names = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  return new Map(
    await Promise.all(
      names.map(async (n) => [n, await readFile(path.join(dir, n), 'utf8')] as const),
    ),
  );
}

/**
 * Every function of the public schema (none belongs to an extension) and every trigger, as
 * PostgreSQL prints them: `function <name>` and `trigger <table>.<name>` (with its enabled state
 * when not the usual one).
 */
async function definitions(db: Sql | postgres.TransactionSql): Promise<Record<string, string>> {
  const rows = await db<{ key: string; definition: string }[]>`
    SELECT 'function ' || p.proname AS key, pg_get_functiondef(p.oid) AS definition
    FROM pg_proc p
    WHERE p.pronamespace = 'public'::regnamespace
      AND NOT EXISTS (SELECT FROM pg_depend d
                      WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
    UNION ALL
    SELECT 'trigger ' || t.tgrelid::regclass::text || '.' || t.tgname,
           pg_get_triggerdef(t.oid) || CASE WHEN t.tgenabled = 'O' THEN '' ELSE ' -- enabled: ' || t.tgenabled::text END
    FROM pg_trigger t
    WHERE NOT t.tgisinternal
    ORDER BY 1`;
  const byKey = Object.fromEntries(rows.map((r) => [r.key, r.definition]));
  // One function per name: an overload would need a home of its own.
  expect(Object.keys(byKey)).toHaveLength(rows.length);
  return byKey;
}

/** An empty database of this test run (dropped after the file's tests, or with the run). */
async function emptyDatabase(): Promise<Sql> {
  const adminUrl = inject('adminDatabaseUrl');
  const name = `${inject('testRun')}_${randomBytes(6).toString('hex')}`;
  const admin = createSql(adminUrl, { max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const db = createSql(url.toString(), { max: 2 });
  afterAll(async () => {
    await db.end({ timeout: 1 });
    const cleanup = createSql(adminUrl, { max: 1 });
    await cleanup.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await cleanup.end();
  });
  return db;
}

const previousBuild = await emptyDatabase();
const fresh = await emptyDatabase();

test('every SQL function and trigger has one home in functions/, and the database holds what the files say', async () => {
  const files = await sqlFiles(FUNCTIONS_DIR);
  const homes = new Map<string, string>();
  for (const [file, text] of files) {
    const { functions, triggers, notRepeatable } = definedBy(text);
    // One function per file, named after it, idempotent; its triggers call it.
    expect({ file, functions, notRepeatable }).toEqual({
      file,
      functions: [file.replace(/\.sql$/, '')],
      notRepeatable: false,
    });
    for (const trigger of triggers)
      expect({ file, calls: trigger.calls }).toEqual({ file, calls: functions[0] });
    for (const key of [
      ...functions.map((f) => `function ${f}`),
      ...triggers.map((t) => `trigger ${t.name}`),
    ]) {
      expect(homes.get(key), `${key} is defined by ${homes.get(key)} and ${file}`).toBeUndefined();
      homes.set(key, file);
    }
  }

  // Nothing in the database lacks a home, and nothing at home is missing.
  const before = await definitions(sql);
  expect(Object.keys(before).sort()).toEqual([...homes.keys()].sort());

  // Applied once more, the files change nothing: the database holds exactly their definitions.
  await sql
    .begin(async (tx) => {
      for (const text of files.values()) await tx.unsafe(text);
      expect(await definitions(tx)).toEqual(before);
      throw new Error('rolled back');
    })
    .catch((error: Error) => expect(error.message).toBe('rolled back'));

  // No versioned migration defines one: it would be undone by its file on a new database (files
  // run after the migrations) and not on an old one (the file did not change).
  for (const [file, text] of await sqlFiles(MIGRATIONS_DIR)) {
    expect({
      file,
      definesFunctionOrTrigger: /CREATE\s+(OR\s+REPLACE\s+)?(FUNCTION|TRIGGER)/i.test(
        withoutComments(text),
      ),
    }).toEqual({ file, definesFunctionOrTrigger: false });
  }
});

test('a repeatable file is applied again only when its text changed', async () => {
  const files = await sqlFiles(FUNCTIONS_DIR);
  // The template was migrated by this build: every file is recorded, nothing runs again.
  expect(await migrate(sql)).toEqual([]);
  const recorded = await sql<{ name: string; checksum: string }[]>`
    SELECT name, checksum FROM schema_repeatables ORDER BY name`;
  expect(recorded).toEqual([...files].map(([name, text]) => ({ name, checksum: sha256(text) })));
  const start = await definitions(sql);

  const dir = await mkdtemp(path.join(tmpdir(), 'skyport-functions-'));
  try {
    await cp(FUNCTIONS_DIR, dir, { recursive: true });
    const edited = files
      .get('sync_push.sql')!
      .replace('-- First, before any read', '-- (edited) First, before any read');
    expect(edited).not.toBe(files.get('sync_push.sql'));
    await writeFile(path.join(dir, 'sync_push.sql'), edited);
    expect(await migrate(sql, { functionsDir: dir })).toEqual(['functions/sync_push.sql']);
    expect((await definitions(sql))['function sync_push']).toContain('-- (edited) First');
    expect(await migrate(sql, { functionsDir: dir })).toEqual([]);

    // A file that is gone loses its record (the function stays: a versioned migration drops it),
    // so that the file, brought back, runs again.
    await unlink(path.join(dir, 'lock_partitions.sql'));
    expect(await migrate(sql, { functionsDir: dir })).toEqual([]);
    const [gone] = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM schema_repeatables WHERE name = 'lock_partitions.sql'`;
    expect(gone!.n).toBe(0);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }

  // Back to the real files: the edited one and the returned one run again, in name order.
  expect(await migrate(sql)).toEqual(['functions/lock_partitions.sql', 'functions/sync_push.sql']);
  expect(await definitions(sql)).toEqual(start);
});

test(
  'a database that ran migrations 001 to 025 takes the baseline as applied; one that stopped before 025 is refused',
  { timeout: 120_000 },
  async () => {
    const migrations = [...(await sqlFiles(MIGRATIONS_DIR)).keys()];
    const repeatables = [...(await sqlFiles(FUNCTIONS_DIR)).keys()].map((f) => `functions/${f}`);

    // A new database, two instances starting at once: one migrates, the other waits and finds it done.
    const runs = await Promise.all([migrate(fresh), migrate(fresh)]);
    expect(runs.sort((a, b) => b.length - a.length)).toEqual([[...migrations, ...repeatables], []]);
    const created = await definitions(fresh);

    // A database of a build before the baseline: the same schema (checked with pg_dump when the
    // baseline was made, decision 036), its records naming 001 to 025 instead of the baseline.
    expect(await migrate(previousBuild)).toHaveLength(migrations.length + repeatables.length);
    const before = Array.from(
      { length: 25 },
      (_, n) => `${String(n + 1).padStart(3, '0')}_old.sql`,
    );
    await previousBuild`DELETE FROM schema_migrations WHERE name = '000_baseline.sql'`;
    await previousBuild`INSERT INTO schema_migrations (name, checksum)
      SELECT name, ${'0'.repeat(64)} FROM unnest(${before}::text[]) AS name`;

    // Stopped before 025: refused, nothing recorded.
    await previousBuild`DELETE FROM schema_migrations WHERE name = '025_old.sql'`;
    await expect(migrate(previousBuild)).rejects.toThrow(PartlyMigratedError);
    await expect(migrate(previousBuild)).rejects.toThrow(/024_old\.sql/);
    const [baselined] = await previousBuild<{ n: number }[]>`
      SELECT count(*)::int AS n FROM schema_migrations WHERE name = '000_baseline.sql'`;
    expect(baselined!.n).toBe(0);

    // Through 025: the baseline is recorded, not run (it would fail on the existing tables).
    await previousBuild`INSERT INTO schema_migrations (name, checksum) VALUES ('025_old.sql', NULL)`;
    expect(await migrate(previousBuild)).toEqual([]);
    const names = await previousBuild<{ name: string }[]>`
      SELECT name FROM schema_migrations WHERE name = ANY(${migrations}::text[]) ORDER BY name`;
    expect(names.map((row) => row.name)).toEqual(migrations);
    expect(await migrate(previousBuild)).toEqual([]);
    expect(await definitions(previousBuild)).toEqual(created);
  },
);
