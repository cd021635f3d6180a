import {
  CATALOG_SORTS,
  CatalogQuerySchema,
  departureWindow,
  FlightCatalogPageSchema,
  queryCatalog,
  type Flight,
  type FlightCatalogPage,
} from '@skyport/shared';
import { beforeAll, describe, expect, test } from 'vitest';
import { createTestHarness } from '../../test/harness.ts';
import { insertWireFlights } from '../../test/flights.ts';
import { FLIGHT_MINUTES } from './queries.ts';

/*
 * Departure dates and the fastest order of GET /api/flights (decision 016), on real PostgreSQL:
 * hand-made flights whose answers are written out here, and the same answers checked against the
 * shared rule the PWA's local catalogue follows.
 */

const { sql, app } = await createTestHarness();

const AIRLINES = {
  andes: { id: '20000000-0000-4000-8000-000000000001', name: 'Andes Air' },
  zonda: { id: '20000000-0000-4000-8000-000000000002', name: 'Zonda' },
};

type Airline = (typeof AIRLINES)[keyof typeof AIRLINES];

let sequence = 0;
/** A listed flight; ids follow the order of creation, so ties by id are easy to read. */
function flight(
  departureDate: string,
  overrides: Partial<Flight> & { airline?: Airline; minutes?: number; deleted?: boolean } = {},
): Flight & { deleted: boolean } {
  const n = ++sequence;
  const { airline = AIRLINES.andes, minutes = 120, ...rest } = overrides;
  const departure = 8 * 60;
  const arrival = departure + minutes;
  const arrivalDay = Math.floor(arrival / 1440);
  const hhmm = (m: number) =>
    `${String(Math.floor((m % 1440) / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
  return {
    id: `30000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    airlineId: airline.id,
    airlineName: airline.name,
    origin: 'Argentina',
    destination: 'Chile',
    departureDate,
    departureHour: hhmm(departure),
    arrivalDate: addDaysText(departureDate, arrivalDay),
    arrivalHour: hhmm(arrival),
    durationEstimated: hhmm(minutes),
    priceCents: 50_000,
    tickets: 5,
    logo: '',
    description: '',
    createdAt: Date.UTC(2030, 0, 1) + n,
    deleted: false,
    ...rest,
  };
}

function addDaysText(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

// The week of 2031-03-10, ±3 days: 03-07 … 03-13, with flights just outside on both sides.
const outsideBefore = flight('2031-03-06', { priceCents: 100 });
const firstDay = flight('2031-03-07', { priceCents: 40_000, minutes: 300 });
const cheapDay = flight('2031-03-09', { priceCents: 9_900, minutes: 95, airline: AIRLINES.zonda });
const cheapDayToo = flight('2031-03-09', { priceCents: 70_000, minutes: 95 });
const chosenDay = flight('2031-03-10', { priceCents: 25_000, minutes: 60, destination: 'Peru' });
const chosenDaySoldOut = flight('2031-03-10', { priceCents: 200, tickets: 0 });
const chosenDayDeleted = flight('2031-03-10', { priceCents: 300, deleted: true });
const nextDay = flight('2031-03-11', { priceCents: 31_000, minutes: 95 });
const overnight = flight('2031-03-12', {
  priceCents: 4_500_000,
  minutes: 23 * 60,
  airline: AIRLINES.zonda,
  origin: 'Brazil',
});
const lastDay = flight('2031-03-13', { priceCents: 12_000, minutes: 1440 + 30 });
const outsideAfter = flight('2031-03-14', { priceCents: 100 });
const later = flight('2031-04-01', { priceCents: 800, minutes: 45, origin: 'Brazil' });

const FLIGHTS = [
  outsideBefore,
  firstDay,
  cheapDay,
  cheapDayToo,
  chosenDay,
  chosenDaySoldOut,
  chosenDayDeleted,
  nextDay,
  overnight,
  lastDay,
  outsideAfter,
  later,
];

beforeAll(async () => {
  await sql`INSERT INTO airlines ${sql(Object.values(AIRLINES), 'id', 'name')}`;
  await insertWireFlights(sql, FLIGHTS);
});

const visible = FLIGHTS.filter((f) => !f.deleted).map(({ deleted: _deleted, ...f }) => f);

async function page(params: Record<string, string>): Promise<FlightCatalogPage> {
  const url = `/api/flights?${new URLSearchParams(params)}`;
  const response = await app.request(url);
  expect(response.status, url).toBe(200);
  const body = FlightCatalogPageSchema.parse(await response.json());
  // Whatever the query, the server lists what the shared rule (the PWA's) lists.
  expect(body, url).toEqual(queryCatalog(visible, CatalogQuerySchema.parse(params)));
  return body;
}

const ids = (flights: readonly { id: string }[]) => flights.map((f) => f.id);
const week = departureWindow('2031-03-10', 3);

describe('departure dates', () => {
  test('both bounds are inclusive; sold-out and deleted flights stay out', async () => {
    const answer = await page({ ...week, pageSize: '60' });
    expect(ids(answer.items)).toEqual(
      ids([firstDay, cheapDay, cheapDayToo, chosenDay, nextDay, overnight, lastDay]),
    );
    expect(answer.total).toBe(7);
  });

  test('exact, ±1 and ±3 days around a chosen date', async () => {
    const exact = await page(departureWindow('2031-03-10', 0));
    expect(ids(exact.items)).toEqual(ids([chosenDay]));
    const oneDay = await page(departureWindow('2031-03-10', 1));
    expect(ids(oneDay.items)).toEqual(ids([cheapDay, cheapDayToo, chosenDay, nextDay]));
    const threeDays = await page({ ...departureWindow('2031-03-10', 3), pageSize: '60' });
    expect(threeDays.total).toBe(7);
  });

  test('a month is the widest range', async () => {
    const march = await page({ departureFrom: '2031-03-01', departureTo: '2031-03-31' });
    expect(march.total).toBe(9);
    expect(march.departureDays).toHaveLength(8);
  });

  test('each day of the range comes with its lowest price and number of flights', async () => {
    const answer = await page({ ...week, pageSize: '2', page: '3' });
    expect(answer.items).toHaveLength(2);
    expect(answer.departureDays).toEqual([
      { date: '2031-03-07', lowestPriceCents: 40_000, flights: 1 },
      { date: '2031-03-09', lowestPriceCents: 9_900, flights: 2 },
      { date: '2031-03-10', lowestPriceCents: 25_000, flights: 1 },
      { date: '2031-03-11', lowestPriceCents: 31_000, flights: 1 },
      { date: '2031-03-12', lowestPriceCents: 4_500_000, flights: 1 },
      { date: '2031-03-13', lowestPriceCents: 12_000, flights: 1 },
    ]);
    // Without a date there are no days at all.
    expect(await page({})).not.toHaveProperty('departureDays');
  });

  test('a range combines with the airline, the band and a search', async () => {
    const zonda = await page({ ...week, airlineId: AIRLINES.zonda.id });
    expect(ids(zonda.items)).toEqual(ids([cheapDay, overnight]));
    expect(zonda.departureDays?.map((d) => d.date)).toEqual(['2031-03-09', '2031-03-12']);
    const low = await page({ ...week, band: 'low', sort: 'price_asc' });
    expect(ids(low.items)).toEqual(
      ids([cheapDay, lastDay, chosenDay, nextDay, firstDay, cheapDayToo]),
    );
    const high = await page({ ...week, band: 'high' });
    expect(ids(high.items)).toEqual(ids([overnight]));
    const peru = await page({ ...week, origin: 'arg', destination: 'per' });
    expect(ids(peru.items)).toEqual(ids([chosenDay]));
    expect(peru.departureDays).toEqual([
      { date: '2031-03-10', lowestPriceCents: 25_000, flights: 1 },
    ]);
    // "Either" level: Brazil matches as an origin, Peru as a destination, no flight both.
    const either = await page({ ...week, origin: 'bra', destination: 'per' });
    expect(ids(either.items)).toEqual(ids([chosenDay, overnight]));
    const brazil = await page({ ...week, origin: 'Brazil', airlineId: AIRLINES.zonda.id });
    expect(ids(brazil.items)).toEqual(ids([overnight]));
  });

  test('a place with no flight on those days is an empty page, never "origin not found"', async () => {
    const answer = await page({ ...departureWindow('2031-03-20', 3), origin: 'brazil' });
    expect(answer).toMatchObject({ items: [], total: 0, originNotFound: false, departureDays: [] });
    // A place no listed flight serves at all still resets the search, the dates kept.
    const unknown = await page({ ...week, origin: 'Xanadu', pageSize: '60' });
    expect(unknown.originNotFound).toBe(true);
    expect(unknown.total).toBe(7);
  });

  test('every order, dated, is the shared rule’s, page after page', async () => {
    for (const sort of CATALOG_SORTS) {
      for (const pageNumber of ['1', '2', '3']) {
        await page({ ...week, sort, pageSize: '3', page: pageNumber });
        await page({ ...week, sort, pageSize: '2', page: pageNumber, band: 'low' });
      }
    }
  });
});

describe('the fastest order', () => {
  test('lists the shortest flight first, ties by id, across days and midnight', async () => {
    const answer = await page({ sort: 'fastest', pageSize: '60' });
    expect(ids(answer.items)).toEqual(
      ids([
        later, // 45 min
        chosenDay, // 60
        cheapDay, // 95, lower id
        cheapDayToo, // 95
        nextDay, // 95
        outsideBefore, // 120
        outsideAfter, // 120
        firstDay, // 300
        overnight, // 23 h
        lastDay, // 24 h 30 over midnight
      ]),
    );
  });

  test('combines with a range and pages with cursors', async () => {
    const first = await app.request(
      `/api/flights?${new URLSearchParams({ ...week, sort: 'fastest', pageSize: '3' })}`,
    );
    const body = FlightCatalogPageSchema.parse(await first.json());
    expect(ids(body.items)).toEqual(ids([chosenDay, cheapDay, cheapDayToo]));
    const next = /<([^>]+)>;\s*rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    expect(next).toContain('departureFrom=2031-03-07');
    expect(next).toContain('departureTo=2031-03-13');
    const second = FlightCatalogPageSchema.parse(await (await app.request(next!)).json());
    expect(ids(second.items)).toEqual(ids([nextDay, firstDay, overnight]));
  });

  test('the database computes the same minutes as the shared rule', async () => {
    const rows = await sql<{ id: string; minutes: number }[]>`
      SELECT f.id, ${sql.unsafe(FLIGHT_MINUTES)} AS minutes FROM flights f ORDER BY f.id`;
    expect(rows.map((r) => r.minutes)).toEqual(
      [...FLIGHTS]
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((f) => {
          const day = (d: string) => Date.parse(`${d}T00:00:00Z`) / 60_000;
          const hour = (h: string) => Number(h.slice(0, 2)) * 60 + Number(h.slice(3));
          return (
            day(f.arrivalDate) + hour(f.arrivalHour) - day(f.departureDate) - hour(f.departureHour)
          );
        }),
    );
  });

  test('page 1 walks the fastest index; a range reads the departure index', async () => {
    const plan = async (text: string) =>
      (await sql.unsafe(`EXPLAIN ${text}`)).map((row) => Object.values(row)[0]).join('\n');
    expect(
      await plan(`SELECT f.id FROM flights f WHERE f.tickets > 0 AND NOT f.deleted
        ORDER BY ${FLIGHT_MINUTES}, f.id LIMIT 6`),
    ).toContain('flights_catalog_fastest_idx');
    await sql`SET enable_seqscan = off`;
    try {
      expect(
        await plan(`SELECT f.id FROM flights f WHERE f.tickets > 0 AND NOT f.deleted
          AND f.departure_date >= '2031-03-07' AND f.departure_date <= '2031-03-13'`),
      ).toContain('flights_catalog_departure_idx');
    } finally {
      await sql`RESET enable_seqscan`;
    }
  });
});

describe('bad dates', () => {
  test.each([
    ['departureFrom=2031-02-30', 'departureFrom: Must be a date (yyyy-mm-dd)'],
    ['departureFrom=2031-3-7', 'departureFrom: Must be a date (yyyy-mm-dd)'],
    ['departureTo=tomorrow', 'departureTo: Must be a date (yyyy-mm-dd)'],
    ['departureTo=2031-03-07T10:00:00Z', 'departureTo: Must be a date (yyyy-mm-dd)'],
    [
      `departureFrom=${encodeURIComponent("2031-03-07'; DELETE FROM flights;--")}`,
      'departureFrom: Must be a date (yyyy-mm-dd)',
    ],
    [
      'departureFrom=2031-03-07&departureFrom=2031-03-08',
      'departureFrom: Must be a date (yyyy-mm-dd)',
    ],
    [
      'departureFrom=2031-03-14&departureTo=2031-03-13',
      'departureTo: Must be on or after departureFrom',
    ],
    ['departureFrom=2031-03-13', 'departureTo: Give it with departureFrom'],
    ['departureTo=2031-03-13&sort=fastest', 'departureFrom: Give it with departureTo'],
    [
      'departureFrom=2031-03-01&departureTo=2031-04-01',
      'departureTo: Must be at most 30 days after departureFrom',
    ],
  ])('GET /api/flights?%s is a 400 in the shape of every error', async (search, message) => {
    const response = await app.request(`/api/flights?${search}`);
    expect(response.status).toBe(400);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ code: 'bad_request', message, requestId: expect.any(String) });
    expect(response.headers.get('etag')).toBeNull();
  });

  test('a bad date changes nothing', async () => {
    const before = await sql`SELECT id, tickets, deleted, revision FROM flights ORDER BY id`;
    await app.request(
      `/api/flights?departureFrom=${encodeURIComponent("x'; DELETE FROM flights;--")}`,
    );
    await app.request('/api/flights?departureFrom=2031-03-14&departureTo=2031-03-13');
    expect(await sql`SELECT id, tickets, deleted, revision FROM flights ORDER BY id`).toEqual(
      before,
    );
  });
});
