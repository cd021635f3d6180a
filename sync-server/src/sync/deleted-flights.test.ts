import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { FLIGHT_NOT_FOUND } from '../features/cart/queries.ts';
import { insertUser, type Actor } from '../test/actors.ts';
import { createTestHarness } from '../test/harness.ts';
import {
  insertFlights,
  pullUrl,
  pushedCartLine,
  pushedFavourite,
  pushInit,
  syncHeaders,
  type SyncTestDoc,
} from './test-fixtures.ts';

/**
 * Deleted flights everywhere (issue 14): a flight's deletion, by its airline or with its airline,
 * gives the cart lines and favourites naming it a new revision whose document says the flight is
 * gone; a push that keeps or adds a favourite or cart line of a deleted (or unknown) flight is
 * refused as `PUT /api/cart` refuses it, and writes nothing; removing one is still allowed.
 */

const { sql, app, actors } = await createTestHarness({ actors: true });

type Doc = SyncTestDoc;
interface Checkpoint {
  revision: number;
  id: string;
}

function push(collection: 'cart' | 'favourites', rows: unknown[], actor: Actor) {
  return app.request(`/api/sync/${collection}/push`, pushInit(actor.headers(), { rows }));
}

async function pull(
  collection: 'cart' | 'favourites',
  actor: Actor,
  after?: Checkpoint | null,
): Promise<{ documents: Doc[]; checkpoint: Checkpoint | null }> {
  const response = await app.request(pullUrl(collection, { limit: 1000, ...after }), {
    headers: syncHeaders(actor.headers()),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { documents: Doc[]; checkpoint: Checkpoint | null };
}

const cartDoc = (actor: Actor, flightId: string, amount: number, extra: Partial<Doc> = {}) =>
  pushedCartLine(actor.user!.id, flightId, amount, extra);
const favouriteDoc = (actor: Actor, flightId: string) => pushedFavourite(actor.user!.id, flightId);

/** Puts `flightIds` in the actor's cart (amount 2) and favourites through sync pushes. */
async function saveLinesAndFavourites(actor: Actor, flightIds: readonly string[]) {
  const cart = await push(
    'cart',
    flightIds.map((id) => ({ newDocumentState: cartDoc(actor, id, 2) })),
    actor,
  );
  expect(cart.status).toBe(200);
  const favourites = await push(
    'favourites',
    flightIds.map((id) => ({ newDocumentState: favouriteDoc(actor, id) })),
    actor,
  );
  expect(favourites.status).toBe(200);
}

/** Everything of the buying path and the customers' synced rows, to prove nothing was written. */
async function snapshotRows() {
  return sql`
    SELECT 'cart' AS t, user_id, flight_id, amount, deleted, revision FROM cart_lines
    UNION ALL
    SELECT 'favourite', user_id, flight_id, NULL, deleted, revision FROM favourites
    ORDER BY 1, 2, 3`;
}

/** What a pull after `before` brings of the actor's cart and favourites, by flight id. */
async function changesSince(
  actor: Actor,
  before: { cart: Checkpoint | null; favourites: Checkpoint | null },
) {
  const cart = await pull('cart', actor, before.cart);
  const favourites = await pull('favourites', actor, before.favourites);
  return {
    cart: new Map(cart.documents.map((doc) => [doc.id, doc])),
    favourites: new Map(favourites.documents.map((doc) => [doc.id, doc])),
  };
}

async function checkpoints(actor: Actor) {
  return {
    cart: (await pull('cart', actor)).checkpoint,
    favourites: (await pull('favourites', actor)).checkpoint,
  };
}

/**
 * The deletion's effect on two customers who hold the flight, and the refusals that follow; the
 * same whichever way the flight was deleted.
 */
async function expectDeletionReplicated(
  gone: string,
  kept: string,
  deleteFlight: () => Response | Promise<Response>,
) {
  const customers = [actors.customer, actors.unverifiedCustomer];
  for (const actor of customers) await saveLinesAndFavourites(actor, [gone, kept]);
  const before = await Promise.all(customers.map((actor) => checkpoints(actor)));
  const [revisionBefore] = await sql<{ max: number }[]>`
    SELECT greatest((SELECT max(revision) FROM cart_lines), (SELECT max(revision) FROM favourites))::int8 AS max`;

  expect((await deleteFlight()).status).toBe(200);

  // New revisions for every live line and favourite of the flight, none for the other flight's.
  const touched = await sql<{ t: string; flight_id: string; revision: number }[]>`
    SELECT 'cart' AS t, flight_id, revision FROM cart_lines WHERE revision > ${revisionBefore!.max}
    UNION ALL
    SELECT 'favourite', flight_id, revision FROM favourites WHERE revision > ${revisionBefore!.max}`;
  expect(touched.map((row) => `${row.t}:${row.flight_id}`).sort()).toEqual(
    ['cart', 'cart', 'favourite', 'favourite'].map((t) => `${t}:${gone}`),
  );

  for (const [index, actor] of customers.entries()) {
    const changes = await changesSince(actor, before[index]!);
    // Only the deleted flight's line and favourite come again, still there, flagged gone.
    expect([...changes.cart.keys()]).toEqual([gone]);
    expect(changes.cart.get(gone)).toMatchObject({
      flightId: gone,
      amount: 2,
      tickets: 0,
      flightDeleted: true,
      _deleted: false,
    });
    expect([...changes.favourites.keys()]).toEqual([gone]);
    expect(changes.favourites.get(gone)).toMatchObject({
      flightId: gone,
      flightDeleted: true,
      _deleted: false,
    });
    // A listed flight's documents do not carry the field at all (as before it existed).
    const all = await pull('cart', actor);
    const live = all.documents.find((doc) => doc.id === kept);
    expect(live).toBeDefined();
    expect(live).not.toHaveProperty('flightDeleted');
    const liveFavourite = (await pull('favourites', actor)).documents.find(
      (doc) => doc.id === kept,
    );
    expect(liveFavourite).not.toHaveProperty('flightDeleted');
  }

  // A push that keeps, changes or adds a line or favourite of the deleted flight is refused like
  // `PUT /api/cart` (404 "Flight not found"), whole: the valid row beside it is not written.
  const customer = actors.customer;
  const other = actors.unverifiedCustomer;
  const [storedLine] = (await pull('cart', customer)).documents.filter((doc) => doc.id === gone);
  const refusedPushes: ['cart' | 'favourites', unknown[], Actor][] = [
    [
      'cart',
      [
        { newDocumentState: cartDoc(customer, kept, 1) },
        { newDocumentState: { ...storedLine, amount: 3 }, assumedMasterState: storedLine },
      ],
      customer,
    ],
    ['cart', [{ newDocumentState: cartDoc(customer, gone, 1) }], customer],
    ['favourites', [{ newDocumentState: favouriteDoc(customer, gone) }], customer],
  ];
  const rest = await app.request('/api/cart', {
    method: 'PUT',
    headers: { ...customer.headers(), 'Content-Type': 'application/json' },
    body: JSON.stringify({ lines: [{ flightId: gone, amount: 1 }] }),
  });
  const restBody = (await rest.json()) as Record<string, unknown>;
  expect(rest.status).toBe(404);
  expect(restBody).toMatchObject({ code: 'not_found', message: FLIGHT_NOT_FOUND });
  for (const [collection, rows, actor] of refusedPushes) {
    const rowsBefore = await snapshotRows();
    const response = await push(collection, rows, actor);
    expect(response.status).toBe(rest.status);
    expect(await response.json()).toMatchObject({
      code: restBody.code,
      message: restBody.message,
      details: { flightIds: [gone] },
    });
    expect(await snapshotRows()).toEqual(rowsBefore);
  }

  // Removing them is how a customer drops them: allowed, and replicated as tombstones.
  const storedFavourite = (await pull('favourites', other)).documents.find(
    (doc) => doc.id === gone,
  )!;
  const removals = [
    await push(
      'cart',
      [{ newDocumentState: { ...storedLine, _deleted: true }, assumedMasterState: storedLine }],
      customer,
    ),
    await push(
      'favourites',
      [
        {
          newDocumentState: { ...storedFavourite, _deleted: true },
          assumedMasterState: storedFavourite,
        },
      ],
      other,
    ),
  ];
  for (const response of removals) {
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([]);
  }
  expect(
    await sql`SELECT 1 FROM cart_lines WHERE user_id = ${customer.user!.id} AND flight_id = ${gone} AND deleted`,
  ).toHaveLength(1);
  expect(
    await sql`SELECT 1 FROM favourites WHERE user_id = ${other.user!.id} AND flight_id = ${gone} AND deleted`,
  ).toHaveLength(1);
}

describe('a deleted flight in carts and favourites', () => {
  test("the airline's DELETE", async () => {
    const [gone, kept] = await insertFlights(sql, actors.airline.airlineId!, 2);
    await expectDeletionReplicated(gone!, kept!, () =>
      app.request('/api/flights/delete', {
        method: 'POST',
        headers: { ...actors.airline.headers(), 'Content-Type': 'application/json' },
        body: JSON.stringify({ flightIds: [gone] }),
      }),
    );
  });

  test("the administrator's delete of the airline (its flights are tombstoned)", async () => {
    const owner = await insertUser(sql, { role: 'airline', airlineStatus: 'approved' });
    const [gone] = await insertFlights(sql, owner.airlineId!, 1);
    const [kept] = await insertFlights(sql, actors.otherAirline.airlineId!, 1);
    await expectDeletionReplicated(gone!, kept!, () =>
      app.request(`/api/airlines/delete/${owner.airlineId}`, {
        method: 'DELETE',
        headers: actors.superAdmin.headers(),
      }),
    );
  });

  test('an unknown flight is refused the same way, and nothing is written', async () => {
    const unknown = randomUUID();
    for (const [collection, doc] of [
      ['cart', cartDoc(actors.customer, unknown, 1)],
      ['favourites', favouriteDoc(actors.customer, unknown)],
      ['cart', cartDoc(actors.customer, unknown, 1, { _deleted: true })],
    ] as const) {
      const rowsBefore = await snapshotRows();
      const response = await push(collection, [{ newDocumentState: doc }], actors.customer);
      expect(response.status).toBe(404);
      expect(await response.json()).toMatchObject({
        code: 'not_found',
        message: FLIGHT_NOT_FOUND,
        details: { flightIds: [unknown] },
      });
      expect(await snapshotRows()).toEqual(rowsBefore);
    }
  });

  test('a line whose flight is listed again loses the flag', async () => {
    const [flight] = await insertFlights(sql, actors.airline.airlineId!, 1);
    await saveLinesAndFavourites(actors.customer, [flight!]);
    await sql`UPDATE flights SET deleted = true WHERE id = ${flight!}`;
    const deleted = await checkpoints(actors.customer);
    await sql`UPDATE flights SET deleted = false WHERE id = ${flight!}`;
    const changes = await changesSince(actors.customer, deleted);
    expect(changes.cart.get(flight!)).toMatchObject({ tickets: 100, amount: 2 });
    expect(changes.cart.get(flight!)).not.toHaveProperty('flightDeleted');
    expect(changes.favourites.get(flight!)).not.toHaveProperty('flightDeleted');
  });
});
