/// <reference types="node" />
import { randomUUID } from 'node:crypto';
import { firstValueFrom, take, toArray } from 'rxjs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { SaleDoc, SaleFlight } from '@skyport/shared';
import { IDBKeyRange, indexedDB } from 'fake-indexeddb';
import { openCatalogueReplica, type CatalogueReplica } from '../../../db/catalogue-replica.ts';
import { flightDoc } from '../../../db/test-docs.ts';
import { withFlights } from './sales.ts';

/**
 * A sale card's flight comes from the sale itself, as sold (issue 16): offline, and whatever the
 * catalogue on the device now says of the flight or whether it still has it. Only a sale stored
 * before sales carried their flight falls back on the device's catalogue. Its replica on
 * fake-indexeddb.
 */

let catalogue: CatalogueReplica;

beforeAll(async () => {
  catalogue = await openCatalogueReplica(`sale-flights-${randomUUID()}`, {
    indexedDB,
    IDBKeyRange,
  });
});

afterAll(() => {
  catalogue?.close();
});

const AIRLINE = randomUUID();

function saleDoc(idFlight: string, flight?: SaleFlight): SaleDoc {
  return {
    id: randomUUID(),
    airlineId: AIRLINE,
    idFlight,
    priceCents: 120_00,
    amount: 2,
    createdAt: Date.UTC(2027, 0, 10),
    ...(flight ? { flight } : {}),
  };
}

const asSold: SaleFlight = {
  origin: 'Iceland',
  destination: 'Mongolia',
  departureDate: '2027-02-06',
  departureHour: '08:15',
};

test("a sale shows its flight as sold, not the catalogue's later version, with no lookup to wait for", async () => {
  // The flight was moved since: the device's catalogue has the new route and date.
  const edited = flightDoc({
    airlineId: AIRLINE,
    origin: 'Chile',
    destination: 'Peru',
    departureDate: '2027-05-01',
  });
  await catalogue.apply([{ ...edited, _deleted: false }], undefined);
  const gone = randomUUID();
  const sales = [saleDoc(edited.id, asSold), saleDoc(gone, { ...asSold, origin: 'Norway' })];

  const emitted = await firstValueFrom(withFlights(catalogue, sales).pipe(take(1), toArray()));
  expect(emitted).toHaveLength(1);
  expect(emitted[0]!.map((sale) => [sale.idFlight, sale.flight])).toEqual([
    [edited.id, asSold],
    [gone, { ...asSold, origin: 'Norway' }],
  ]);
});

test("a sale stored without its flight shows the catalogue's, or only its id when the device has none", async () => {
  const listed = flightDoc({ airlineId: AIRLINE, origin: 'Japan', destination: 'Kenya' });
  await catalogue.apply([{ ...listed, _deleted: false }], undefined);
  const unknown = randomUUID();
  const sales = [saleDoc(listed.id), saleDoc(unknown), saleDoc(listed.id, asSold)];

  const states = withFlights(catalogue, sales).pipe(take(2));
  const [looking, found] = await firstValueFrom(states.pipe(toArray()));
  // First while the catalogue is asked (the sales do not wait for it), then with its answer.
  expect(looking!.map((sale) => sale.flight)).toEqual([undefined, undefined, asSold]);
  expect(found!.map((sale) => sale.flight)).toEqual([
    {
      origin: 'Japan',
      destination: 'Kenya',
      departureDate: listed.departureDate,
      departureHour: listed.departureHour,
    },
    null,
    asSold,
  ]);
});
