import postgres from 'postgres';
import { expect, test } from 'vitest';
import { createTestDatabase } from '../test/harness.ts';

/**
 * patches/postgres@3.4.9.patch (upstream issues #1189, #1210; PR #1218): postgres.js skipped the
 * reservation of a transaction's connection when BEGIN filled that connection's pipeline. Under
 * load that surfaced as UNSAFE_TRANSACTION on about one sync push in a thousand, or as a
 * transaction left open on a connection back in the pool, which would also hold back the
 * replication watermark (docs/architecture.md §4.2). `max_pipeline: 0` makes every BEGIN hit that
 * boundary: unpatched, every `sql.begin` fails.
 */

const { url } = await createTestDatabase();

test('sql.begin reserves its connection even when BEGIN fills the pipeline', async () => {
  // `max_pipeline` is a documented option that postgres.js's types leave out.
  const options = { max: 2, max_pipeline: 0, onnotice: () => {} } as postgres.Options<
    Record<string, never>
  >;
  const sql = postgres(url, options);
  try {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        sql.begin(async (tx) => {
          const [row] = await tx<{ n: number }[]>`SELECT ${i}::int AS n`;
          return row!.n;
        }),
      ),
    );
    expect(results).toEqual([0, 1, 2, 3, 4, 5]);
    const [open] = await sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND state = 'idle in transaction'`;
    expect(open!.n).toBe(0);
  } finally {
    await sql.end({ timeout: 1 });
  }
});
