/// <reference types="node" />
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { SYNC_COLLECTION_INFO } from '@skyport/shared';
import { COLLECTION_VERSIONS, LOCAL_COLLECTIONS, LOCAL_LAYOUT, MIGRATIONS } from './layout.ts';
import { allRxSchemas } from './schemas.ts';

/**
 * The local layout cannot change unnoticed: the schemas the app builds (from the shared zod
 * schemas, db/schemas.ts) are recorded per layout in db/layouts/, and a collection whose schema
 * differs from the previous layout's must have a higher version (and, if the device writes to
 * it, a migration to it). Otherwise every device that stored the collection before would fail
 * to open its database (RxDB refuses a changed schema under the same version).
 *
 * After a change: bump the changed collections' versions and LOCAL_LAYOUT in db/layout.ts, add
 * the migrations, then record the new layout with
 *   RECORD_LAYOUT=1 npx vitest run src/db/layout.test.ts && prettier --write src/db/layouts
 * (and keep the previous layout's file: db/layout-upgrade.test.ts opens a database in it).
 */

type Schemas = Record<string, Record<string, unknown> & { version: number }>;

const layoutFile = (layout: number) => new URL(`./layouts/layout-${layout}.json`, import.meta.url);

function recorded(layout: number): Schemas {
  return JSON.parse(readFileSync(layoutFile(layout), 'utf8')) as Schemas;
}

function withoutVersion(schema: Record<string, unknown>) {
  const { version: _version, ...rest } = schema;
  return rest;
}

test("the recorded current layout is the app's: a change to the schemas is a new layout", () => {
  const current = allRxSchemas() as unknown as Schemas;
  if (process.env.RECORD_LAYOUT)
    writeFileSync(layoutFile(LOCAL_LAYOUT), `${JSON.stringify(current, null, 2)}\n`);
  expect(
    existsSync(layoutFile(LOCAL_LAYOUT)),
    `db/layouts/layout-${LOCAL_LAYOUT}.json is missing: record it (see this test's comment)`,
  ).toBe(true);
  const saved = recorded(LOCAL_LAYOUT);
  for (const collection of LOCAL_COLLECTIONS) {
    expect(
      current[collection],
      `the ${collection} schema is not layout ${LOCAL_LAYOUT}'s: bump its version and LOCAL_LAYOUT in db/layout.ts, then record the layout (see this test's comment)`,
    ).toEqual(saved[collection]);
  }
});

test('a collection changed since the previous layout has a higher version', () => {
  const previous = recorded(LOCAL_LAYOUT - 1);
  const current = recorded(LOCAL_LAYOUT);
  // The flights left the database in layout 6 (db/catalogue-replica.ts): no other collection.
  expect(Object.keys(current).sort()).toEqual([...LOCAL_COLLECTIONS].sort());
  for (const collection of LOCAL_COLLECTIONS) {
    const before = previous[collection]!;
    const now = current[collection]!;
    expect(now.version).toBe(COLLECTION_VERSIONS[collection]);
    expect(now.version).toBeGreaterThanOrEqual(before.version);
    const changed = JSON.stringify(withoutVersion(before)) !== JSON.stringify(withoutVersion(now));
    if (changed)
      expect(now.version, `${collection} changed: it needs a new version`).toBeGreaterThan(
        before.version,
      );
  }
});

test("every version of the device's own collections has a migration; the replicas need none", () => {
  for (const collection of LOCAL_COLLECTIONS) {
    const own = (MIGRATIONS as Record<string, Record<number, unknown>>)[collection];
    if (SYNC_COLLECTION_INFO[collection].partition === 'public') {
      expect(own, `${collection} is a replica: dropped, not migrated`).toBeUndefined();
      continue;
    }
    for (let version = 1; version <= COLLECTION_VERSIONS[collection]; version++)
      expect(typeof own?.[version], `${collection}: migration to version ${version}`).toBe(
        'function',
      );
  }
});
