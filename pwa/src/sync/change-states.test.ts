import { Observable } from 'rxjs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER, messages } from '@skyport/shared';
import { closeLocalData } from '../data/local-data.ts';
import { addFlightToCart, incrementLine } from '../features/cart/data/cart.ts';
import { discardChange } from '../features/pending-changes/data/pending-changes.ts';
import { cuttableNetwork } from '../test/cuttable-network.ts';
import {
  localFlight,
  openTestDevice,
  serverRows,
  until,
  type TestDevice,
} from '../test/test-device.ts';
import type { ChangeStates } from './change-states.ts';
import { startTestServer, type TestServer } from './test-server.ts';

/**
 * The sync state of every change made on a device (change-states.ts, decision 017) against a
 * real server (sync/test-server.ts): waiting → accepted, waiting → refused with the server's
 * reason, discarding a refused change, and a conflict with another device recorded with what was
 * kept.
 */

let server: TestServer;
let phone: TestDevice;
const phoneNetwork = cuttableNetwork();

function changes$(device: TestDevice): Observable<ChangeStates> {
  const tracker = device.engine.changes;
  return new Observable<ChangeStates>((subscriber) => {
    subscriber.next(tracker.getSnapshot());
    return tracker.subscribe(() => subscriber.next(tracker.getSnapshot()));
  });
}

/**
 * Another device of the same customer sets a cart line's amount: a push over HTTP, as its sync
 * client would send it (one test device only: RxDB's free version opens 13 collections at most).
 */
async function setAmountElsewhere(flightId: string, amount: number) {
  const headers = {
    [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION),
    Authorization: `Bearer ${server.actors.customer.token}`,
  };
  const pulled = (await (
    await fetch(`${server.url}/api/sync/cart/pull?limit=1000`, { headers })
  ).json()) as { documents: { id: string }[] };
  const current = pulled.documents.find((doc) => doc.id === flightId)!;
  const response = await fetch(`${server.url}/api/sync/cart/push`, {
    method: 'POST',
    headers: { ...headers, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      rows: [{ newDocumentState: { ...current, amount }, assumedMasterState: current }],
    }),
  });
  expect(response.status).toBe(200);
}

const cartAmount = async (device: TestDevice, flightId: string) =>
  (await device.db.collections.cart.findOne(flightId).exec())?.amount ?? null;

beforeAll(async () => {
  server = await startTestServer({ flights: 7 });
  phone = await openTestDevice(server, 'changes-phone', {
    fetch: phoneNetwork.fetch,
    onlineEvents: phoneNetwork.online$,
  });
  await phone.signIn(server.actors.customer);
});

afterAll(async () => {
  if (phone) await closeLocalData(phone);
  await server?.stop();
});

test('a change made offline waits, with the time it was made, and is accepted once sent', async () => {
  const flightId = server.flightIds[0]!;
  phoneNetwork.setOnline(false);
  const before = Date.now();
  await addFlightToCart(phone, await localFlight(phone.db, flightId));
  const waiting = await until(changes$(phone), (states) =>
    states.waiting.some((change) => change.id === flightId),
  );
  const change = waiting.waiting.find((item) => item.id === flightId)!;
  expect(change).toMatchObject({ collection: 'cart', doc: { amount: 1 } });
  expect(change.since).toBeGreaterThanOrEqual(before);
  expect(change.since).toBeLessThanOrEqual(Date.now());

  phoneNetwork.setOnline(true);
  const sent = await until(
    changes$(phone),
    (states) => states.waiting.length === 0 && states.accepted.some((item) => item.id === flightId),
  );
  expect(sent.accepted.find((item) => item.id === flightId)).toMatchObject({
    collection: 'cart',
    doc: { amount: 1, _deleted: false },
  });
  expect(sent.refused).toEqual([]);
});

test('a cart line of a flight deleted meanwhile is refused with the reason, kept as made, and discarded', async () => {
  const flightId = server.flightIds[1]!;
  phoneNetwork.setOnline(false);
  await addFlightToCart(phone, await localFlight(phone.db, flightId));
  await incrementLine(phone, flightId);
  // The airline deletes the flight while the phone is offline.
  await server.control('POST', `/__test/flights/${flightId}`, { deleted: true });
  phoneNetwork.setOnline(true);

  // (A push that failed offline may be retried with the line as it was then: it is refused too,
  // and the latest state follows.)
  const refused = await until(changes$(phone), (states) =>
    states.refused.some((change) => change.id === flightId && change.attempted.amount === 2),
  );
  expect(refused.refused.find((change) => change.id === flightId)).toMatchObject({
    collection: 'cart',
    reason: 'Flight not found',
    attempted: { amount: 2 },
    server: null,
  });
  // The device still shows the change as made; it is not waiting, and is not sent again.
  await phone.engine.awaitInSync();
  expect(await cartAmount(phone, flightId)).toBe(2);
  // (The list of waiting changes is made again shortly after each push.)
  await until(changes$(phone), (states) => states.waiting.length === 0);
  const rows = await serverRows<{ flight_id: string }>(server, 'cart_lines');
  expect(rows.some((row) => row.flight_id === flightId)).toBe(false);
  // The journal is stored on the device.
  await phone.engine.changes.saved();
  expect((await phone.db.getLocal('change-journal'))?.toJSON().data).toMatchObject({
    refused: [expect.objectContaining({ id: flightId, reason: 'Flight not found' })],
  });

  // Discard: the server has no such line, so the local one goes.
  await discardChange(
    phone,
    refused.refused.find((change) => change.id === flightId)!,
  );
  await until(changes$(phone), (states) => !states.refused.some((c) => c.id === flightId));
  expect(await cartAmount(phone, flightId)).toBeNull();
  await phone.engine.awaitInSync();
  expect(phone.engine.changes.getSnapshot().refused).toEqual([]);
  const after = await serverRows<{ flight_id: string }>(server, 'cart_lines');
  expect(after.some((row) => row.flight_id === flightId)).toBe(false);
});

test("a refused change fixed on the device is sent again from the server's real state, not as a conflict", async () => {
  const flightId = server.flightIds[4]!;
  await addFlightToCart(phone, await localFlight(phone.db, flightId));
  await phone.engine.awaitInSync();
  phoneNetwork.setOnline(false);
  await incrementLine(phone, flightId); // 2, offline
  await server.control('POST', `/__test/flights/${flightId}`, { deleted: true });
  phoneNetwork.setOnline(true);
  const refused = await until(changes$(phone), (states) =>
    states.refused.some((change) => change.id === flightId && change.attempted.amount === 2),
  );
  // The server still has the line as it was: one ticket, its flight deleted.
  expect(refused.refused.find((change) => change.id === flightId)?.server).toMatchObject({
    amount: 1,
    flightDeleted: true,
  });

  // The airline puts the flight back; the customer changes the line again.
  await server.control('POST', `/__test/flights/${flightId}`, { deleted: false });
  // The device hears of the re-listing first: the server's new line comes down with the
  // customer's refused change still on top, and the refusal now knows the server's new state.
  const relisted = await until(changes$(phone), (states) =>
    states.refused.some((change) => change.id === flightId && !change.server?.flightDeleted),
  );
  expect(relisted.refused.find((change) => change.id === flightId)?.server).toMatchObject({
    amount: 1,
    tickets: 100,
  });
  const line = await until(
    phone.db.collections.cart.findOne(flightId).$,
    (doc) => !doc?.flightDeleted,
  );
  expect(line?.amount).toBe(2);
  expect(line?.tickets).toBe(100);
  await phone.engine.awaitInSync();
  expect((await incrementLine(phone, flightId)).ok).toBe(true); // 3
  const fixed = await until(changes$(phone), (states) =>
    states.accepted.some((change) => change.id === flightId && change.doc.amount === 3),
  );
  expect(fixed.refused.some((change) => change.id === flightId)).toBe(false);
  expect(fixed.conflicts.some((change) => change.id === flightId)).toBe(false);
  const rows = await serverRows<{ flight_id: string; amount: number }>(server, 'cart_lines');
  expect(rows.find((row) => row.flight_id === flightId)?.amount).toBe(3);
});

test('a review draft the server refuses comes back refused with the reason', async () => {
  const flightId = server.flightIds[2]!;
  const { orderId } = await server.control<{ orderId: string }>('POST', '/__test/orders', {
    userId: server.actors.customer.id,
    flightIds: [flightId],
  });
  const id = crypto.randomUUID();
  await phone.db.collections.reviewDrafts.insert({
    id,
    userId: server.actors.customer.id!,
    orderId,
    flightId,
    rating: null,
    name: 'Carla',
    comment: 'No stars given',
    status: 'pending',
    reason: null,
  });
  const refused = await until(changes$(phone), (states) =>
    states.refused.some((change) => change.id === id),
  );
  expect(refused.refused.find((change) => change.id === id)).toMatchObject({
    collection: 'reviewDrafts',
    reason: messages.enterARating,
    attempted: { status: 'pending', comment: 'No stars given' },
    server: { status: 'rejected', reason: messages.enterARating },
  });
  // The draft on the device says so too (the server stored it refused).
  await until(phone.db.collections.reviewDrafts.findOne(id).$, (doc) => doc?.status === 'rejected');

  // Discarding a refused draft removes it, here and on the server.
  await discardChange(
    phone,
    refused.refused.find((change) => change.id === id)!,
  );
  expect(await phone.db.collections.reviewDrafts.findOne(id).exec()).toBeNull();
  await phone.engine.awaitInSync();
  const drafts = await serverRows<{ id: string }>(server, 'review_drafts');
  expect(drafts.some((draft) => draft.id === id)).toBe(true);
  expect(phone.engine.changes.getSnapshot().refused.some((change) => change.id === id)).toBe(false);
});

test('the same cart line changed on two devices: the conflict is recorded with what was kept', async () => {
  const flightId = server.flightIds[5]!;
  await addFlightToCart(phone, await localFlight(phone.db, flightId));
  await phone.engine.awaitInSync();

  phoneNetwork.setOnline(false);
  await incrementLine(phone, flightId); // 2 on the phone, offline
  await setAmountElsewhere(flightId, 3); // 3 on the laptop, sent at once

  phoneNetwork.setOnline(true);
  const states = await until(changes$(phone), (current) =>
    current.conflicts.some((change) => change.id === flightId),
  );
  expect(states.conflicts.find((change) => change.id === flightId)).toMatchObject({
    collection: 'cart',
    mine: { amount: 2 },
    kept: { amount: 3 },
  });
  // The server's version is kept on the phone.
  await until(phone.db.collections.cart.findOne(flightId).$, (doc) => doc?.amount === 3);
  phone.engine.changes.dismissConflict('cart', flightId);
  expect(phone.engine.changes.getSnapshot().conflicts).toEqual([]);
});

test('at logout the journal goes with the personal data', async () => {
  await phone.signIn(null);
  expect(phone.engine.changes.getSnapshot()).toMatchObject({
    waiting: [],
    refused: [],
    conflicts: [],
    accepted: [],
  });
  expect(await phone.db.getLocal('change-journal')).toBeNull();
});
