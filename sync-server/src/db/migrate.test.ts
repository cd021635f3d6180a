import { createHash, randomBytes } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type postgres from 'postgres';
import { afterAll, expect, inject, test } from 'vitest';
import { createTestDatabase } from '../test/harness.ts';
import { createSql, type Sql } from './client.ts';
import { EditedMigrationError, migrate } from './migrate.ts';

/**
 * The migration runner on real PostgreSQL: it records a checksum of every migration it applies
 * and refuses to start, applying nothing, when an applied migration's file was edited; it
 * re-applies a repeatable file of functions/ when its text changed (decision 033).
 */

const { sql } = await createTestDatabase();

test('an applied migration that was edited stops the start; the same files pass', async () => {
  // The test database is cloned from a migrated template: everything is applied, with checksums.
  expect(await migrate(sql)).toEqual([]);
  const recorded = await sql<{ name: string; checksum: string | null }[]>`
    SELECT name, checksum FROM schema_migrations ORDER BY name`;
  expect(recorded.length).toBeGreaterThan(9);
  for (const row of recorded) expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);

  // Pretend 001 was edited: its recorded checksum no longer matches the file.
  await sql`UPDATE schema_migrations SET checksum = ${'0'.repeat(64)} WHERE name = '001_data_model.sql'`;
  await expect(migrate(sql)).rejects.toThrow(EditedMigrationError);
  await expect(migrate(sql)).rejects.toThrow(/001_data_model\.sql/);

  // A database migrated before checksums existed gets them recorded, and nothing runs again.
  await sql`UPDATE schema_migrations SET checksum = NULL`;
  expect(await migrate(sql)).toEqual([]);
  const [unset] = await sql<{ n: number }[]>`
    SELECT count(*)::int AS n FROM schema_migrations WHERE checksum IS NULL`;
  expect(unset!.n).toBe(0);
});

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations/', import.meta.url));
const FUNCTIONS_DIR = fileURLToPath(new URL('./functions/', import.meta.url));

/**
 * The last versioned migration when the functions moved to functions/ (issue 38): no later one
 * defines a function or a trigger.
 */
const LAST_MIGRATION_WITH_FUNCTIONS = 25;

/**
 * The files of functions/ as they were moved out of the migrations (SHA-256, first 16 digits).
 * While a file is unchanged, what it defines must be exactly what the versioned migrations alone
 * define: moving changed nothing. An edited file is left out of that comparison (its entry may
 * then go).
 */
const AS_MOVED: Record<string, string> = {
  'announce_replication_changes.sql': '50a38514d89ef892',
  'assign_replication_revision.sql': 'dc5e838de177405d',
  'catalog_counts_apply.sql': 'bbb3bd8e97afeae0',
  'catalog_counts_row_update.sql': 'cc0c54d70c070897',
  'catalog_counts_statement.sql': '09fef67214019c3f',
  'catalog_flight_minutes.sql': '96468344eb641f80',
  'catalog_price_band.sql': '3738d23e40534953',
  'checkout_write_order.sql': 'ac7a982cfcc94fad',
  'fill_order_line_departure_date.sql': 'ab53f47e8331054d',
  'lock_partition.sql': '909bd652833af016',
  'lock_partitions.sql': 'e5b760ec1d3a8a0b',
  'notify_access_airline_insert.sql': 'a5db3047c26594e3',
  'notify_access_change.sql': 'f7b7603b1489cc13',
  'notify_replication_change.sql': 'aa418b75c73c600e',
  'replication_watermark.sql': 'a423b1d1dc5b6b1b',
  'sync_push.sql': '5170cc5bde19a16e',
  'touch_lines_of_flights.sql': 'd097c6c04041acf0',
  'touch_orders_of_lines.sql': '347385e6dca72395',
  'touch_sales_of_orders.sql': 'b9194029353764c9',
  'void_tickets_of_order.sql': '95f25bb700ba66b8',
};

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

  // No versioned migration after the move defines one: it would be undone by its file on a new
  // database (files run after the migrations) and not on an old one (the file did not change).
  for (const [file, text] of await sqlFiles(MIGRATIONS_DIR)) {
    if (parseInt(file, 10) <= LAST_MIGRATION_WITH_FUNCTIONS) continue;
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
  'a database of the previous build and a new one end with the same functions; moving them changed nothing',
  { timeout: 120_000 },
  async () => {
    const files = await sqlFiles(FUNCTIONS_DIR);
    const migrations = [...(await sqlFiles(MIGRATIONS_DIR)).keys()];
    const repeatables = [...files.keys()].map((f) => `functions/${f}`);

    // A database migrated by a build before functions/ (versioned migrations only), then by this one.
    expect(await migrate(previousBuild, { functionsDir: null })).toEqual(migrations);
    const versionedOnly = await definitions(previousBuild);
    expect(await migrate(previousBuild)).toEqual(repeatables);
    const upgraded = await definitions(previousBuild);

    // A new database, two instances starting at once: one migrates, the other waits and finds it done.
    const runs = await Promise.all([migrate(fresh), migrate(fresh)]);
    expect(runs.sort((a, b) => b.length - a.length)).toEqual([[...migrations, ...repeatables], []]);
    const created = await definitions(fresh);

    expect(upgraded).toEqual(created);

    // Every file still as it was moved defines what the versioned migrations alone defined.
    const unchanged = [...files].filter(
      ([file, text]) => AS_MOVED[file] === sha256(text).slice(0, 16),
    );
    const keys = unchanged.flatMap(([, text]) => {
      const { functions, triggers } = definedBy(text);
      return [
        ...functions.map((f) => `function ${f}`),
        ...triggers.map((t) => `trigger ${t.name}`),
      ];
    });
    expect(keys.length).toBeGreaterThan(0);
    const pick = (defs: Record<string, string>) =>
      Object.fromEntries(keys.map((k) => [k, defs[k]]));
    expect(pick(versionedOnly)).toEqual(pick(created));
  },
);
