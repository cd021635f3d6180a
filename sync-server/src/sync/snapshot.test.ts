import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { beforeAll, expect, test } from 'vitest';
import { type Actor } from '../test/actors.ts';
import { createTestHarness } from '../test/harness.ts';
import { createSnapshotStore, snapshotRoutes, SNAPSHOT_CONTENT_TYPE } from './snapshot.ts';
import { insertAirline, insertFlights, pullUrl, syncHeaders } from './test-fixtures.ts';

const { sql, app, actors } = await createTestHarness({ actors: true });
let airlineId: string;
let flightIds: string[];

type Doc = { id: string; _deleted: boolean } & Record<string, unknown>;
type Checkpoint = Record<string, unknown> | null;
interface PullBody {
  documents: Doc[];
  checkpoint: Checkpoint;
}

/** Every document of a public collection through the ordinary pulls. */
async function pullAll(collection: string, from: Checkpoint = null, limit = 7) {
  const documents: Doc[] = [];
  let checkpoint = from;
  for (;;) {
    const response = await app.request(pullUrl(collection, { ...checkpoint, limit }), {
      headers: syncHeaders(),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as PullBody;
    documents.push(...body.documents);
    checkpoint = body.checkpoint;
    if (body.documents.length < limit) return { documents, checkpoint };
  }
}

/** A snapshot answer's lines: header, documents, trailer. */
async function readSnapshot(response: Response) {
  const raw = Buffer.from(await response.arrayBuffer());
  const encoding = response.headers.get('content-encoding');
  const text = (
    encoding === 'br' ? brotliDecompressSync(raw) : encoding === 'gzip' ? gunzipSync(raw) : raw
  ).toString('utf8');
  expect(text.endsWith('\n')).toBe(true);
  const lines = text
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const header = lines[0]!;
  const trailer = lines.at(-1) as { checkpoint: Checkpoint; count: number };
  return { header, documents: lines.slice(1, -1) as Doc[], trailer, text };
}

function snapshot(collection: string, headers: Record<string, string> = {}, actor?: Actor) {
  return app.request(`/api/sync/${collection}/snapshot`, {
    headers: { ...syncHeaders(actor?.headers() ?? {}), 'Accept-Encoding': 'br, gzip', ...headers },
  });
}

beforeAll(async () => {
  airlineId = await insertAirline(sql);
  flightIds = await insertFlights(sql, airlineId, 40);
});

test('a snapshot holds exactly the documents the pulls send, and the checkpoint they end at', async () => {
  const response = await snapshot('flights');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe(SNAPSHOT_CONTENT_TYPE);
  // Brotli is made after the first answer.
  expect(response.headers.get('content-encoding')).toBe('gzip');
  expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
  expect(response.headers.get('etag')).toMatch(/^W\/".+"$/);
  expect(response.headers.get('vary')).toMatch(/Accept-Encoding/);
  const { header, documents, trailer } = await readSnapshot(response);
  const pulled = await pullAll('flights');
  expect(header).toEqual({ collection: 'flights', protocol: expect.any(Number) });
  expect(documents).toEqual(pulled.documents);
  expect(documents.map((doc) => doc.id)).toEqual(expect.arrayContaining(flightIds));
  expect(trailer).toEqual({ checkpoint: pulled.checkpoint, count: pulled.documents.length });
});

test('gzip, brotli and no encoding carry the same body; a revalidation gets 304', async () => {
  await expect
    .poll(
      async () =>
        (await snapshot('flights', { 'Accept-Encoding': 'br' })).headers.get('content-encoding'),
      { timeout: 10_000 },
    )
    .toBe('br');
  const br = await snapshot('flights', { 'Accept-Encoding': 'br' });
  const gzip = await snapshot('flights', { 'Accept-Encoding': 'gzip, deflate' });
  const identity = await snapshot('flights', { 'Accept-Encoding': 'identity' });
  expect(gzip.headers.get('content-encoding')).toBe('gzip');
  expect(identity.headers.get('content-encoding')).toBeNull();
  const texts = await Promise.all(
    [br, gzip, identity].map(async (r) => (await readSnapshot(r)).text),
  );
  expect(new Set(texts).size).toBe(1);
  const etag = br.headers.get('etag')!;
  expect(gzip.headers.get('etag')).toBe(etag);
  const again = await snapshot('flights', { 'If-None-Match': etag });
  expect(again.status).toBe(304);
  expect(again.headers.get('etag')).toBe(etag);
  expect(await again.text()).toBe('');
});

test('the pulls from the snapshot checkpoint bring what changed after it', async () => {
  const { trailer } = await readSnapshot(await snapshot('flights'));
  const [repriced, deleted] = flightIds;
  await sql`UPDATE flights SET price_cents = 424200 WHERE id = ${repriced!}`;
  await sql`UPDATE flights SET deleted = true WHERE id = ${deleted!}`;
  const tail = await pullAll('flights', trailer.checkpoint, 100);
  expect(tail.documents.map((doc) => [doc.id, doc.priceCents, doc._deleted])).toEqual([
    [repriced, 424200, false],
    [deleted, expect.any(Number), true],
  ]);
  // The instance keeps its snapshot while the collection has moved on by only two documents.
  const kept = await readSnapshot(await snapshot('flights'));
  expect(kept.trailer).toEqual(trailer);
});

test('a kept snapshot is rebuilt once the collection has moved on by the tail limit', async () => {
  const store = createSnapshotStore(sql, {
    maxTail: 3,
    recheckMs: 0,
    minRebuildMs: 0,
    pageSize: 4,
  });
  const routes = snapshotRoutes({ sql, snapshots: store });
  const get = () =>
    routes.request('/sync/flights/snapshot', {
      headers: { ...syncHeaders(), 'Accept-Encoding': 'gzip' },
    });
  const first = await readSnapshot(await get());
  // Built page by page (4 documents a query), the same documents as the pulls.
  expect(first.documents).toEqual((await pullAll('flights')).documents);
  await sql`UPDATE flights SET tickets = tickets + 1 WHERE id = ANY(${flightIds.slice(10, 12)})`;
  // Two documents behind: still the kept snapshot.
  expect((await readSnapshot(await get())).trailer).toEqual(first.trailer);
  await sql`UPDATE flights SET tickets = tickets + 1 WHERE id = ANY(${flightIds.slice(12, 15)})`;
  // Five behind: this answer is the kept one, and a new one is built meanwhile.
  expect((await readSnapshot(await get())).trailer).toEqual(first.trailer);
  let rebuilt = first;
  await expect
    .poll(async () => (rebuilt = await readSnapshot(await get())).text, { timeout: 10_000 })
    .not.toBe(first.text);
  const pulled = await pullAll('flights');
  expect(rebuilt.documents).toEqual(pulled.documents);
  expect(rebuilt.trailer).toEqual({
    checkpoint: pulled.checkpoint,
    count: pulled.documents.length,
  });
});

test('an empty collection has a snapshot without documents and without a checkpoint', async () => {
  expect((await pullAll('reviews')).documents).toEqual([]);
  const { header, documents, trailer } = await readSnapshot(await snapshot('reviews'));
  expect(header).toMatchObject({ collection: 'reviews' });
  expect(documents).toEqual([]);
  expect(trailer).toEqual({ checkpoint: null, count: 0 });
});

test('only public collections have snapshots, and only for the current protocol', async () => {
  expect((await snapshot('favourites', {}, actors.customer)).status).toBe(404);
  expect((await snapshot('sales', {}, actors.airline)).status).toBe(404);
  expect((await snapshot('nope')).status).toBe(404);
  const outdated = await app.request('/api/sync/flights/snapshot', {
    headers: { 'x-skyport-sync-version': '0' },
  });
  expect(outdated.status).toBe(426);
  expect((await app.request('/api/sync/flights/snapshot')).status).toBe(426);
});
