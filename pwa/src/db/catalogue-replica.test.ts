import { randomUUID } from 'node:crypto';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { firstValueFrom, take, toArray } from 'rxjs';
import { afterEach, expect, test } from 'vitest';
import {
  LISTED_CHANGES,
  openCatalogueReplica,
  type CatalogueChange,
  type CatalogueReplica,
  type PulledFlight,
} from './catalogue-replica.ts';
import { flightDoc } from './test-docs.ts';

/**
 * The catalogue's replica outside RxDB (catalogue-replica.ts), on fake-indexeddb: what it holds
 * after writes of pulled flights, that a write and its checkpoint are one, and what its readers
 * in this tab and in others are told.
 */

const opened: CatalogueReplica[] = [];
afterEach(() => {
  for (const replica of opened.splice(0)) replica.close();
});

async function open(name = `replica-test-${randomUUID()}`) {
  const replica = await openCatalogueReplica(name, { indexedDB, IDBKeyRange });
  opened.push(replica);
  return replica;
}

const pulled = (fields: Partial<PulledFlight> = {}): PulledFlight => ({
  ...flightDoc(),
  _deleted: false,
  ...fields,
});
const at = (revision: number) => ({ tx: 1, revision, id: `x${revision}` });

test('holds the pulled flights, without the deleted ones, and the checkpoint they reach', async () => {
  const replica = await open();
  expect(await replica.checkpoint()).toBeNull();
  const flights = ['c', 'a', 'e', 'b', 'd'].map((id) => pulled({ id }));
  await replica.apply(flights, at(5));
  await replica.apply(
    [
      { ...flights[0]!, _deleted: true },
      { ...flights[1]!, tickets: 0 },
    ],
    at(7),
  );

  expect(await replica.checkpoint()).toEqual(at(7));
  expect(await replica.count()).toBe(4);
  const { _deleted: _, ...stored } = { ...flights[1]!, tickets: 0 };
  expect((await replica.get(['a', 'c', 'zz'])).get('a')).toEqual(stored);
  expect([...(await replica.get(['a', 'c', 'zz'])).keys()]).toEqual(['a']);
  // Pages by id: after an id, at most `limit`.
  expect((await replica.page(undefined, 2)).map((f) => f.id)).toEqual(['a', 'b']);
  expect((await replica.page('b', 10)).map((f) => f.id)).toEqual(['d', 'e']);
  // Stored as the server sent them, without the deleted flag.
  expect(Object.keys((await replica.page(undefined, 1))[0]!)).not.toContain('_deleted');
});

test('a write that fails leaves nothing of itself, checkpoint included', async () => {
  const replica = await open();
  await replica.apply([pulled({ id: 'a' })], at(1));
  const broken = { ...pulled({ id: 'b' }), id: undefined } as unknown as PulledFlight;
  await expect(replica.apply([pulled({ id: 'c' }), broken], at(2))).rejects.toThrow();
  expect(await replica.checkpoint()).toEqual(at(1));
  expect((await replica.page(undefined, 10)).map((f) => f.id)).toEqual(['a']);
});

test('a write that leaves the checkpoint out keeps it; clear empties flights and checkpoint', async () => {
  const replica = await open();
  await replica.apply([pulled({ id: 'a' })], at(3));
  await replica.apply([pulled({ id: 'b' })], undefined);
  expect(await replica.checkpoint()).toEqual(at(3));
  await replica.clear();
  expect(await replica.count()).toBe(0);
  expect(await replica.checkpoint()).toBeNull();
});

test('readers here and in other tabs hear each write: a few flights as they are, or read again', async () => {
  const name = `replica-test-${randomUUID()}`;
  const writer = await open(name);
  const otherTab = await open(name);
  const here = firstValueFrom(writer.changes$.pipe(take(4), toArray()));
  const there = firstValueFrom(otherTab.changes$.pipe(take(4), toArray()));

  const flight = pulled({ id: 'a', priceCents: 12_300 });
  await writer.apply([flight, pulled({ id: 'b', _deleted: true })], at(1));
  // A snapshot's bulks are not announced one by one; it announces once, at its end.
  await writer.apply(
    Array.from({ length: 5 }, () => pulled({ id: randomUUID() })),
    undefined,
    { announce: false },
  );
  await writer.apply(
    Array.from({ length: LISTED_CHANGES + 1 }, () => pulled({ id: randomUUID() })),
    at(2),
  );
  writer.announceReset();
  await writer.clear();

  const { _deleted: _, ...stored } = flight;
  const expected: CatalogueChange[] = [
    {
      flights: [
        { id: 'a', flight: stored },
        { id: 'b', flight: null },
      ],
    },
    'reset',
    'reset',
    'reset',
  ];
  expect(await here).toEqual(expected);
  expect(await there).toEqual(expected);
  // The other tab reads what the writer wrote.
  expect(await otherTab.count()).toBe(0);
});
