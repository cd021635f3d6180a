import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  SYNC_PROTOCOL_VERSION,
  SYNC_VERSION_HEADER,
  type PullResponse,
  type CartDoc,
} from '@skyport/shared';
import { closeLocalData } from '../data/local-data.ts';
import { addFlightToCart, incrementLine } from '../features/cart/data/cart.ts';
import { localFlight, openTestDevice, type TestDevice } from '../test/test-device.ts';
import { startTestServer, type TestServer } from './test-server.ts';

/**
 * A late echo of the device's own push (echo-order.ts, docs/architecture.md §4.6) against a real
 * server (sync/test-server.ts): the state the change stream sent for an earlier push, arriving
 * after the answer to a later one, does not take the device's copy back.
 */

let server: TestServer;
let phone: TestDevice;

beforeAll(async () => {
  server = await startTestServer({ flights: 3 });
  phone = await openTestDevice(server, 'echo-phone');
  await phone.signIn(server.actors.customer);
});

afterAll(async () => {
  if (phone) await closeLocalData(phone);
  await server?.stop();
});

/** The customer's cart as the server sends it now, with each line's revision. */
async function serverCart(): Promise<PullResponse<CartDoc>> {
  const response = await fetch(`${server.url}/api/sync/cart/pull?limit=1000`, {
    headers: {
      [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION),
      Authorization: `Bearer ${server.actors.customer.token}`,
    },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as PullResponse<CartDoc>;
}

/** One line of a pull, as a stream event carrying only it would (revision included or not). */
function eventOf(pull: PullResponse<CartDoc>, flightId: string, withRevision: boolean) {
  const index = pull.documents.findIndex((doc) => doc.id === flightId);
  return {
    documents: [pull.documents[index]!] as never[],
    checkpoint: pull.checkpoint!,
    revisions: withRevision ? [pull.revisions![index]!] : undefined,
  };
}

const localAmount = async (flightId: string) =>
  (await phone.db.collections.cart.findOne(flightId).exec())?.amount ?? null;

/**
 * Two pushes of one line (1 → 2 → 3), each answered; then the stream delivers the state of the
 * first (amount 2) late. Returns that late event's documents and revisions, and the newest pull.
 */
async function twoPushesThenTheFirstEcho(flightId: string) {
  await addFlightToCart(phone, await localFlight(phone.db, flightId));
  await phone.engine.awaitInSync();
  await incrementLine(phone, flightId);
  await phone.engine.awaitInSync();
  const afterFirst = await serverCart();
  await incrementLine(phone, flightId);
  await phone.engine.awaitInSync();
  expect(await localAmount(flightId)).toBe(3);
  return { afterFirst, latest: await serverCart() };
}

test("an echo of the device's earlier push, arriving after a later push was accepted, is dropped", async () => {
  const flightId = server.flightIds[0]!;
  const { afterFirst, latest } = await twoPushesThenTheFirstEcho(flightId);
  const late = { ...eventOf(afterFirst, flightId, true), checkpoint: latest.checkpoint! };
  expect(late.documents).toMatchObject([{ amount: 2 }]);

  phone.engine.replication('cart')!.stream.next(late);
  await phone.engine.awaitInSync();
  expect(await localAmount(flightId)).toBe(3);

  // The next tap goes out against the server's state, not as a conflict.
  await incrementLine(phone, flightId);
  await phone.engine.awaitInSync();
  expect(phone.engine.changes.getSnapshot().conflicts).toEqual([]);
  const line = (await serverCart()).documents.find((doc) => doc.id === flightId);
  expect(line?.amount).toBe(4);
});

test('negative control: the same late state without its revision (an older server) takes the line back', async () => {
  const flightId = server.flightIds[1]!;
  const { afterFirst, latest } = await twoPushesThenTheFirstEcho(flightId);
  const late = { ...eventOf(afterFirst, flightId, false), checkpoint: latest.checkpoint! };

  phone.engine.replication('cart')!.stream.next(late);
  await phone.engine.awaitInSync();
  expect(await localAmount(flightId)).toBe(2);

  // Put the device back on the server's state for what follows.
  phone.engine.replication('cart')!.stream.next(eventOf(latest, flightId, true));
  await phone.engine.awaitInSync();
  expect(await localAmount(flightId)).toBe(3);
});

test('a newer state from another device is still taken', async () => {
  const flightId = server.flightIds[2]!;
  const { latest } = await twoPushesThenTheFirstEcho(flightId);
  const index = latest.documents.findIndex((doc) => doc.id === flightId);
  // Another device set five tickets after this one's pushes: a larger revision.
  const newer = {
    documents: [{ ...latest.documents[index]!, amount: 5 }] as never[],
    checkpoint: latest.checkpoint!,
    revisions: [latest.revisions![index]! + 1],
  };
  phone.engine.replication('cart')!.stream.next(newer);
  await phone.engine.awaitInSync();
  expect(await localAmount(flightId)).toBe(5);
});
