import { connect } from 'node:net';
import { SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER } from '@skyport/shared';
import { beforeAll, expect, test } from 'vitest';
import type { Actor } from '../test/actors.ts';
import { createTestHarness, type TestInstance } from '../test/harness.ts';
import { openSse, type SseEvent } from '../test/sse.ts';
import {
  insertAirline,
  insertFlights,
  pushedCartLine,
  pushedFavourite,
  pushInit,
  syncHeaders,
} from './test-fixtures.ts';

/**
 * docs/architecture.md §3/§4: several stateless instances on one PostgreSQL; live changes reach every instance
 * through LISTEN/NOTIFY. Two real HTTP servers on two ports, each with its own connection pool
 * (and so its own LISTEN connection), one database.
 */

const { startInstance, actors } = await createTestHarness({ actors: true });
let a: TestInstance;
let b: TestInstance;
let flightIds: string[];
let airlineId: string;

beforeAll(async () => {
  a = await startInstance();
  b = await startInstance();
  airlineId = await insertAirline(a.sql, 'Stream Air');
  flightIds = await insertFlights(a.sql, airlineId, 5);
});

/** The live stream of one collection, as `actor` (a guest without one). */
function openStream(origin: string, collection: string, actor?: Actor) {
  return openSse(`${origin}/api/sync/${collection}/stream`, syncHeaders(actor?.headers() ?? {}));
}

const changesWith = (id: string) => (event: SseEvent) =>
  event.event === 'changes' &&
  (JSON.parse(event.data) as { documents: { id: string }[] }).documents.some(
    (doc) => doc.id === id,
  );

test('a stream starts with a resync, and a flight changed through instance A reaches a client of instance B', async () => {
  const stream = openStream(b.origin, 'flights');
  const { headers } = await stream.response;
  expect(headers.get('content-type')).toMatch(/^text\/event-stream/);
  // The stream writes its own head, with what every answer carries.
  expect(headers.get('cache-control')).toBe('no-store');
  expect(headers.get('x-accel-buffering')).toBe('no');
  expect(headers.get('x-request-id')).toMatch(/\S/);
  expect(headers.get('content-security-policy')).toContain("default-src 'self'");
  expect(headers.get('transfer-encoding')).toBe('chunked');
  await stream.waitFor((event) => event.event === 'resync');
  const changed = flightIds[0]!;
  await a.sql`UPDATE flights SET price_cents = 4242 WHERE id = ${changed}`;
  // Live, on A's notification: B's feed reads only when notified (change-feed.ts), so without it
  // the change would never come. It takes milliseconds; the wait's bound only has to hold on a
  // busy machine.
  const event = await stream.waitFor(changesWith(changed), 10_000);
  const body = JSON.parse(event.data) as {
    documents: { id: string; priceCents: number }[];
    checkpoint: { revision: number; id: string };
  };
  expect(body.documents.find((doc) => doc.id === changed)?.priceCents).toBe(4242);
  // The checkpoint is the feed's (opaque to the stream): it names the last row sent.
  expect(body.checkpoint).toMatchObject({ revision: expect.any(Number), id: changed });
  await stream.close();
});

test("a customer's cart pushed through A streams from B to that customer only", async () => {
  const mine = openStream(b.origin, 'cart', actors.customer);
  const theirs = openStream(b.origin, 'cart', actors.unverifiedCustomer);
  await mine.waitFor((event) => event.event === 'resync');
  await theirs.waitFor((event) => event.event === 'resync');
  const userId = actors.customer.user!.id;
  const flightId = flightIds[1]!;
  // The flight's own summary, so that the server stores the document as it was pushed.
  const doc = pushedCartLine(userId, flightId, 2, {
    airlineId,
    airlineName: 'Stream Air',
    priceCents: 15002,
    logo: '/logos/test.svg',
  });
  const pushed = await fetch(
    `${a.origin}/api/sync/cart/push`,
    pushInit(actors.customer.headers(), { rows: [{ newDocumentState: doc }] }),
  );
  expect(pushed.status).toBe(200);
  const event = await mine.waitFor(changesWith(flightId));
  const data = JSON.parse(event.data) as { documents: unknown[]; revisions?: number[] };
  expect(data.documents).toEqual([doc]);
  // With each document's revision, by which a device drops a late echo of its own push (§4.6).
  const [row] = await b.sql<{ revision: number }[]>`
    SELECT revision::int FROM cart_lines WHERE user_id = ${userId} AND flight_id = ${flightId}`;
  expect(data.revisions).toEqual([row!.revision]);
  // The other customer's stream on the same instance saw nothing of it: a change of their own,
  // committed after the push had reached `mine`, is the first and only one they get (no sleep:
  // anything sent them with the push would be ahead of it on their connection).
  const theirFlight = flightIds[3]!;
  await b.sql`INSERT INTO cart_lines (user_id, flight_id, amount)
    VALUES (${actors.unverifiedCustomer.user!.id}, ${theirFlight}, 1)`;
  await theirs.waitFor(changesWith(theirFlight));
  const theirChanges = theirs.events
    .filter((e) => e.event === 'changes')
    .flatMap((e) => (JSON.parse(e.data) as { documents: { id: string }[] }).documents);
  expect(theirChanges.map((doc) => doc.id)).toEqual([theirFlight]);
  await mine.close();
  await theirs.close();
});

test("a favourite pushed from one device through A reaches the customer's other device on B", async () => {
  const otherDevice = openStream(b.origin, 'favourites', actors.customer);
  await otherDevice.waitFor((event) => event.event === 'resync');
  const flightId = flightIds[2]!;
  const pushed = await fetch(
    `${a.origin}/api/sync/favourites/push`,
    pushInit(actors.customer.headers(), {
      rows: [{ newDocumentState: pushedFavourite(actors.customer.user!.id, flightId) }],
    }),
  );
  expect(pushed.status).toBe(200);
  // B's feed reads only when notified (change-feed.ts): the push's row trigger notified at its
  // commit (docs/decisions/032-one-plain-write-path.md).
  await otherDevice.waitFor(changesWith(flightId));
  await otherDevice.close();
});

test('a bulk change streams in batches that together carry every row, oldest first', async () => {
  const stream = openStream(a.origin, 'flights');
  await stream.waitFor((event) => event.event === 'resync');
  const ids = await insertFlights(b.sql, airlineId, 1200);
  await stream.waitFor(changesWith(ids.at(-1)!), 10_000);
  const received = stream.events
    .filter((event) => event.event === 'changes')
    .flatMap((event) =>
      (JSON.parse(event.data) as { documents: { id: string }[] }).documents.map((doc) => doc.id),
    );
  expect(received).toEqual(ids);
  // The public catalogue's events carry no revisions (only devices' own collections need them).
  for (const event of stream.events.filter((e) => e.event === 'changes'))
    expect(JSON.parse(event.data)).not.toHaveProperty('revisions');
  await stream.close();
});

test('streams are authorised and versioned like pulls', async () => {
  expect((await openStream(a.origin, 'cart').response).status).toBe(401);
  expect((await openStream(a.origin, 'sales', actors.customer).response).status).toBe(403);
  const outdated = await fetch(`${a.origin}/api/sync/flights/stream`, {
    headers: { 'x-skyport-sync-version': '0' },
  });
  expect(outdated.status).toBe(426);
  await outdated.body?.cancel();
});

test('a closed stream stops being fed; a client reconnecting gets a resync again', async () => {
  const first = openStream(b.origin, 'favourites', actors.customer);
  await first.waitFor((event) => event.event === 'resync');
  await first.close();
  const second = openStream(b.origin, 'favourites', actors.customer);
  await second.waitFor((event) => event.event === 'resync');
  await second.close();
});

test('one connection carries several collections, each event naming its collection', async () => {
  const controller = new AbortController();
  const response = await fetch(`${b.origin}/api/sync/stream?collections=flights,cart`, {
    headers: syncHeaders(actors.customer.headers()),
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  const readUntil = async (needle: string) => {
    while (!text.includes(needle)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ended before ${needle}`);
      text += decoder.decode(value, { stream: true });
    }
  };
  await readUntil('event: resync');
  await a.sql`UPDATE flights SET price_cents = 4343 WHERE id = ${flightIds[2]!}`;
  await readUntil('"collection":"flights"');
  expect(text).toContain(flightIds[2]!);
  controller.abort();

  const guest = await fetch(`${b.origin}/api/sync/stream?collections=flights,cart`, {
    headers: syncHeaders(),
  });
  expect(guest.status).toBe(401);
  const unknown = await fetch(`${b.origin}/api/sync/stream?collections=flights,tickets`, {
    headers: syncHeaders(),
  });
  expect(unknown.status).toBe(400);
});

test('an HTTP/1.0 client gets the stream unchunked, to the end of the connection', async () => {
  const origin = new URL(a.origin);
  const socket = connect({ host: origin.hostname, port: Number(origin.port) });
  let text = '';
  socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  socket.write(
    `GET /api/sync/flights/stream HTTP/1.0\r\nHost: ${origin.host}\r\n` +
      `${SYNC_VERSION_HEADER}: ${SYNC_PROTOCOL_VERSION}\r\n\r\n`,
  );
  await expect.poll(() => text, { timeout: 10_000 }).toContain('event: resync');
  const changed = flightIds[4]!;
  await a.sql`UPDATE flights SET price_cents = price_cents + 1 WHERE id = ${changed}`;
  await expect.poll(() => text, { timeout: 10_000 }).toContain(changed);
  socket.destroy();
  const [head, body] = text.split('\r\n\r\n', 2);
  expect(head).not.toMatch(/transfer-encoding/i);
  expect(body).toMatch(/^event: resync\ndata: \{\}\n\nevent: changes\ndata: \{/);
  expect(body).toContain(changed);
});
