import { expect, test } from 'vitest';
import { createTestDatabase } from '../test/harness.ts';
import { EditedMigrationError, migrate } from './migrate.ts';

/**
 * The migration runner on real PostgreSQL: it records a checksum of every migration it applies
 * and refuses to start, applying nothing, when an applied migration's file was edited.
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
