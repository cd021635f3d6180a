import { randomUUID } from 'node:crypto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { firstValueFrom, filter } from 'rxjs';
import { afterEach, expect, test } from 'vitest';
import { flightsByIds$, flightsWhere$ } from './catalogue-reads.ts';
import {
  LISTED_CHANGES,
  openCatalogueReplica,
  type CatalogueFlight,
  type CatalogueReplica,
} from './catalogue-replica.ts';
import { flightDoc } from './test-docs.ts';

/**
 * The screens' live reads of the catalogue's replica (catalogue-reads.ts), on fake-indexeddb:
 * each follows the writes that concern it, a few flights at a time or after a reset.
 */

const opened: CatalogueReplica[] = [];
afterEach(() => {
  for (const replica of opened.splice(0)) replica.close();
});

async function open() {
  const replica = await openCatalogueReplica(`reads-test-${randomUUID()}`, {
    indexedDB,
    IDBKeyRange,
  });
  opened.push(replica);
  return replica;
}

const write = (replica: CatalogueReplica, flights: CatalogueFlight[], deleted: string[] = []) =>
  replica.apply(
    [
      ...flights.map((flight) => ({ ...flight, _deleted: false })),
      ...deleted.map((id) => ({ ...flightDoc({ id }), _deleted: true })),
    ],
    undefined,
  );

test('flights by id: what the replica holds of them, again after each write of one of them', async () => {
  const replica = await open();
  const [a, b, other] = [flightDoc(), flightDoc(), flightDoc()];
  await write(replica, [a, other]);
  const emitted: Map<string, CatalogueFlight>[] = [];
  const subscription = flightsByIds$(replica, [a.id, b.id]).subscribe((found) =>
    emitted.push(found),
  );
  await expect.poll(() => emitted.length, { timeout: 10_000 }).toBe(1);
  expect([...emitted[0]!.keys()]).toEqual([a.id]);

  // Another flight's write is none of its business.
  await write(replica, [{ ...other, priceCents: 1 }]);
  // One of its flights arrives, another is repriced, then deleted.
  await write(replica, [b]);
  await write(replica, [{ ...a, priceCents: 4_200 }]);
  await write(replica, [], [a.id]);
  await expect.poll(() => emitted.length, { timeout: 10_000 }).toBe(4);
  expect(emitted.map((found) => [...found.keys()].sort())).toEqual([
    [a.id],
    [a.id, b.id].sort(),
    [a.id, b.id].sort(),
    [b.id],
  ]);
  expect(emitted[2]!.get(a.id)?.priceCents).toBe(4_200);
  subscription.unsubscribe();
});

test('flights that pass a test: kept up to date by the few changed, read again after a reset', async () => {
  const replica = await open();
  const airline = randomUUID();
  const mine = Array.from({ length: 3 }, () => flightDoc({ airlineId: airline }));
  await write(replica, [...mine, flightDoc()]);
  const own$ = flightsWhere$(replica, (flight) => flight.airlineId === airline);
  const ids = (flights: CatalogueFlight[]) => flights.map((flight) => flight.id);
  const withCount = (count: number) =>
    firstValueFrom(own$.pipe(filter((flights) => flights.length === count)));
  expect(ids(await withCount(3))).toEqual(ids(mine).sort());

  // A flight of the airline leaves it (another airline now), one is deleted, one is added.
  const added = flightDoc({ airlineId: airline });
  const seen = withCount(2);
  await write(replica, [{ ...mine[0]!, airlineId: randomUUID() }, added], [mine[1]!.id]);
  expect(ids(await seen)).toEqual([mine[2]!.id, added.id].sort());

  // Many at once (a reset): read again.
  const many = Array.from({ length: LISTED_CHANGES + 1 }, () => flightDoc({ airlineId: airline }));
  const after = withCount(LISTED_CHANGES + 3);
  await write(replica, many);
  expect(ids(await after)).toEqual([mine[2]!.id, added.id, ...ids(many)].sort());
});
