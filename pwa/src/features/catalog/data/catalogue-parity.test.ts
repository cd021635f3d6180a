import { filter, firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, expect, test } from 'vitest';
import {
  CATALOG_SORTS,
  CatalogQuerySchema,
  DEPARTURE_FLEX_DAYS,
  FlightCatalogPageSchema,
  addDays,
  departureWindow,
  type CatalogQueryInput,
  type Flight,
  type FlightCatalogPage,
} from '@skyport/shared';
import { closeLocalData } from '../../../data/local-data.ts';
import { startTestServer, type TestServer } from '../../../sync/test-server.ts';
import { openTestDevice, type TestDevice } from '../../../test/test-device.ts';
import { catalogIndex$, catalogPage$ } from './catalogue.ts';

/**
 * Parity of the two catalogues (decision 016): the same flights on a real server (PostgreSQL,
 * `GET /api/flights`) and replicated to a device (its replica on fake-indexeddb, the in-memory index of
 * catalogue-index.ts) give the same pages, flight for flight and in the same order, for departure
 * ranges, flexible dates, the fastest order and their combinations with every other filter and
 * sort. The server's catalogue is a synthetic one of 1,500 flights over a year, 20 airlines.
 */

let server: TestServer;
let device: TestDevice;
let flights: Flight[];

beforeAll(async () => {
  server = await startTestServer({ flights: 1500 });
  device = await openTestDevice(server, 'catalogue-parity');
  await device.engine.awaitInSync();
  flights = await device.catalogue.page(undefined, 1_000_000);
  // The index has every replicated flight (the first emission may be of an earlier load).
  await firstValueFrom(
    catalogIndex$(device.catalogue).pipe(
      filter((index) => index.listed.length === flights.filter((f) => f.tickets > 0).length),
    ),
  );
});

afterAll(async () => {
  if (device) await closeLocalData(device);
  await server?.stop();
});

async function serverPage(input: CatalogQueryInput): Promise<FlightCatalogPage> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(input)) params.set(key, String(value));
  const response = await fetch(`${server.url}/api/flights?${params}`);
  expect(response.status, String(params)).toBe(200);
  return FlightCatalogPageSchema.parse(await response.json());
}

async function localPage(input: CatalogQueryInput): Promise<FlightCatalogPage> {
  return firstValueFrom(catalogPage$(device.catalogue, CatalogQuerySchema.parse(input)));
}

/** The two answers, compared: ids in order, then every other field of the page. */
async function expectSamePages(input: CatalogQueryInput): Promise<FlightCatalogPage> {
  const [remote, local] = await Promise.all([serverPage(input), localPage(input)]);
  const label = JSON.stringify(input);
  const ids = (page: FlightCatalogPage) => page.items.map((flight) => flight.id);
  expect(ids(local), label).toEqual(ids(remote));
  const { items: _remoteItems, ...remoteRest } = remote;
  const { items: _localItems, ...localRest } = local;
  expect(localRest, label).toEqual(remoteRest);
  return remote;
}

/** The departure date most flights share, and one airline and origin of that day. */
function busiestDay() {
  const byDay = new Map<string, Flight[]>();
  for (const flight of flights.filter((f) => f.tickets > 0)) {
    byDay.set(flight.departureDate, [...(byDay.get(flight.departureDate) ?? []), flight]);
  }
  const [date, ofDay] = [...byDay].sort((a, b) => b[1].length - a[1].length)[0]!;
  return { date, airlineId: ofDay[0]!.airlineId, origin: ofDay[0]!.origin };
}

test('the catalogue on the device is the server’s', () => {
  expect(flights.length).toBe(1500);
});

test('exact, ±1 and ±3 days, in every order, give the same pages and days as the server', async () => {
  const { date } = busiestDay();
  let nonEmpty = 0;
  for (const flex of DEPARTURE_FLEX_DAYS) {
    for (const sort of CATALOG_SORTS) {
      for (const page of [1, 2]) {
        const answer = await expectSamePages({ ...departureWindow(date, flex), sort, page });
        if (answer.items.length > 0) nonEmpty++;
        // The days add up to the total, on both sides alike.
        const days = answer.departureDays ?? [];
        expect(days.reduce((sum, day) => sum + day.flights, 0)).toBe(answer.total);
      }
    }
  }
  expect(nonEmpty).toBeGreaterThan(30);
});

test('a range combined with the airline, the band and a search, in several orders', async () => {
  const { date, airlineId, origin } = busiestDay();
  const week = departureWindow(date, 3);
  const combinations: CatalogQueryInput[] = [
    { ...week, airlineId, sort: 'fastest' },
    { ...week, airlineId, band: 'low', sort: 'price_asc' },
    { ...week, band: 'mid', sort: 'airline_desc', pageSize: 10, page: 2 },
    { ...week, band: 'high', sort: 'stock_asc' },
    { ...week, origin: origin.slice(0, 2), sort: 'price_desc' },
    { ...week, origin: origin.slice(0, 1), destination: 'a', sort: 'fastest', pageSize: 60 },
    { ...week, origin: 'Xanadu', sort: 'initial' },
    { ...departureWindow(date, 1), airlineId, origin: origin.slice(0, 3), sort: 'airline_asc' },
    { departureFrom: date, departureTo: addDays(date, 30), sort: 'fastest', pageSize: 25, page: 3 },
    { departureFrom: addDays(date, -30), departureTo: date, sort: 'price_desc', band: 'low' },
    { ...week, sort: 'initial', pageSize: 7, page: 40 },
  ];
  for (const query of combinations) await expectSamePages(query);
  const search = await expectSamePages({ ...week, origin: origin.slice(0, 2) });
  expect(search.total).toBeGreaterThan(0);
});

test('the fastest order without dates, on the first and a deep page', async () => {
  for (const query of [
    { sort: 'fastest' as const },
    { sort: 'fastest' as const, page: 30, pageSize: 20 },
    { sort: 'fastest' as const, band: 'mid' as const, page: 4 },
  ]) {
    const answer = await expectSamePages(query);
    expect(answer.items.length).toBeGreaterThan(0);
  }
});
