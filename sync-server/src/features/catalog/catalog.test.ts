import {
  AirlinePageSchema,
  averageRating,
  CATALOG_SORTS,
  CatalogQuerySchema,
  compareCodePoints,
  DEPARTURE_FLEX_DAYS,
  departureWindow,
  isListedFlight,
  searchLevel,
  searchTerms,
  FlightCatalogPageSchema,
  FlightDetailSchema,
  PRICE_BANDS,
  PRICE_BAND_LOW_MAX_CENTS,
  PRICE_BAND_MID_MAX_CENTS,
  queryCatalog,
  ReviewPageSchema,
  type Flight,
} from '@skyport/shared';
import { beforeAll, describe, expect, test, vi } from 'vitest';
import { createRandom, type Random } from '../../db/seed/random.ts';
import { createTestHarness } from '../../test/harness.ts';
import { insertWireFlights, type StoredFlight } from '../../test/flights.ts';
import { createSql } from '../../db/client.ts';
import { CatalogPages, catalogPages } from './pages.ts';
import { averageFromSum, CATALOG_VERSION_SQL, findCatalogVersion, prefixRange } from './queries.ts';

const { sql, url: databaseUrl, app } = await createTestHarness();

/** Flights as inserted, with the database's own `deleted` flag beside the wire fields. */

const AIRLINE_NAMES = ['Aurora Airways', 'andes sky', 'ANDES SKY', 'Zeta', 'Ångström Air'];
const COUNTRIES = [
  'Argentina',
  'Armenia',
  'Aruba',
  'Åland Islands',
  'Bolivia',
  'Brazil',
  'Chile',
  'China',
  "Côte d'Ivoire",
  'Guinea-Bissau',
  'Peru',
];
const EDGE_PRICES = [
  100,
  PRICE_BAND_LOW_MAX_CENTS - 1,
  PRICE_BAND_LOW_MAX_CENTS,
  PRICE_BAND_LOW_MAX_CENTS + 1,
  PRICE_BAND_MID_MAX_CENTS - 1,
  PRICE_BAND_MID_MAX_CENTS,
  PRICE_BAND_MID_MAX_CENTS + 1,
];
const BASE_TIME = Date.UTC(2030, 0, 1);

interface AirlineFixture {
  id: string;
  name: string;
}

async function insertAirlines(random: Random, names: readonly string[]): Promise<AirlineFixture[]> {
  const airlines = names.map((name) => ({
    id: random.uuid(),
    name,
    image: `/logos/${name.length}.svg`,
  }));
  await sql`INSERT INTO airlines ${sql(airlines, 'id', 'name', 'image')}`;
  return airlines;
}

function randomFlight(random: Random, airlines: readonly AirlineFixture[]): StoredFlight {
  const airline = random.pick(airlines);
  const origin = random.pick(COUNTRIES);
  const destination = random.pick(COUNTRIES.filter((c) => c !== origin));
  const day = random.int(1, 28);
  const departureDate = `2031-03-${String(day).padStart(2, '0')}`;
  const arrivalDate = `2031-03-${String(day + random.int(0, 1)).padStart(2, '0')}`;
  return {
    id: random.uuid(),
    airlineId: airline.id,
    airlineName: airline.name,
    origin,
    destination,
    departureDate,
    departureHour: `${String(random.int(0, 23)).padStart(2, '0')}:${random.pick(['00', '15', '30', '45'])}`,
    arrivalDate,
    arrivalHour: `${String(random.int(0, 23)).padStart(2, '0')}:${random.pick(['05', '20', '59'])}`,
    durationEstimated: `${String(random.int(0, 15)).padStart(2, '0')}:${random.pick(['00', '30', '45'])}`,
    priceCents: random.chance(0.3)
      ? random.pick(EDGE_PRICES)
      : random.chance(0.3)
        ? random.pick([50_000, 3_000_000])
        : random.int(100, 6_000_000),
    // Few distinct values, so that every ordering meets ties.
    tickets: random.chance(0.2) ? 0 : random.int(1, 5),
    logo: `/logos/${airline.name.length}.svg`,
    description: random.pick(['', 'Direct flight', 'Con escala — 1 stop']),
    createdAt: BASE_TIME + random.int(0, 40),
    deleted: random.chance(0.1),
  };
}

const insertFlights = (flights: readonly StoredFlight[]) => insertWireFlights(sql, flights);

function toWire({ deleted: _deleted, ...flight }: StoredFlight): Flight {
  return flight;
}

/** What the PWA holds: the flights that are not deleted. */
function visible(flights: readonly StoredFlight[]): Flight[] {
  return flights.filter((f) => !f.deleted).map(toWire);
}

async function getJson(url: string): Promise<{ status: number; body: any }> {
  const response = await app.request(url);
  return { status: response.status, body: await response.json() };
}

/** A search text a person might type: a prefix of a country, any case, maybe padded. */
function randomSearchText(random: Random): string | undefined {
  const roll = random.next();
  if (roll < 0.35) return undefined;
  if (roll < 0.45) return random.pick(['Xanadu', 'Zz', 'q', 'Ar gentina']);
  const country = random.pick(COUNTRIES);
  const prefix = country.slice(0, random.int(1, Math.min(6, country.length)));
  const cased = random.chance(0.5)
    ? prefix.toUpperCase()
    : random.chance(0.5)
      ? prefix.toLowerCase()
      : prefix;
  return random.chance(0.2) ? `  ${cased} ` : cased;
}

function randomQuery(random: Random, airlines: readonly AirlineFixture[]): Record<string, string> {
  const params: Record<string, string | undefined> = {
    origin: randomSearchText(random),
    destination: randomSearchText(random),
    airlineId: random.chance(0.3)
      ? random.chance(0.1)
        ? random.uuid()
        : random.pick(airlines).id[random.chance(0.2) ? 'toUpperCase' : 'toLowerCase']()
      : undefined,
    band: random.chance(0.5) ? random.pick(PRICE_BANDS) : undefined,
    sort: random.chance(0.8) ? random.pick(CATALOG_SORTS) : undefined,
    ...randomDepartureRange(random),
    page: random.chance(0.6)
      ? String(random.chance(0.1) ? random.int(1, 200) : random.int(1, 4))
      : undefined,
    pageSize: random.chance(0.4) ? String(random.pick([1, 2, 6, 7, 25, 60])) : undefined,
  };
  return Object.fromEntries(
    Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/**
 * Departure bounds a traveller's choice gives (a day of the random flights' month, exact, ±1 or ±3
 * days, some reaching into the months around it), or a longer range; mostly none.
 */
function randomDepartureRange(random: Random): { departureFrom?: string; departureTo?: string } {
  if (random.chance(0.65)) return {};
  const day = `2031-03-${String(random.int(1, 28)).padStart(2, '0')}`;
  if (random.chance(0.2)) return { departureFrom: '2031-02-27', departureTo: day };
  return departureWindow(day, random.pick(DEPARTURE_FLEX_DAYS));
}

/** How often each kind of answer came up, so that the random queries provably reach every branch. */
const seen = { nonEmpty: 0, notFound: 0, both: 0, either: 0, pastTheEnd: 0 };

async function expectSameAsSharedRule(
  flights: readonly StoredFlight[],
  params: Record<string, string>,
) {
  const url = `/api/flights?${new URLSearchParams(params)}`;
  const { status, body } = await getJson(url);
  expect(status, url).toBe(200);
  const query = CatalogQuerySchema.parse(params);
  const expected = queryCatalog(visible(flights), query);
  expect(body, url).toEqual(expected);
  const level = searchLevel(visible(flights).filter(isListedFlight), searchTerms(query));
  if (expected.items.length > 0) seen.nonEmpty++;
  if (expected.total > 0 && expected.items.length === 0) seen.pastTheEnd++;
  if (level === 'notFound') seen.notFound++;
  if (level === 'both' && query.origin && query.destination) seen.both++;
  if (level === 'either') seen.either++;
}

async function expectCountsConsistent() {
  const mismatches = await sql`
    WITH actual AS (
      SELECT airline_id, catalog_price_band(price_cents) AS price_band, count(*)::int AS listed
      FROM flights WHERE tickets > 0 AND NOT deleted GROUP BY 1, 2
    )
    SELECT * FROM actual a FULL JOIN catalog_listing_counts c USING (airline_id, price_band)
    WHERE coalesce(a.listed, 0) <> coalesce(c.listed, 0)`;
  expect(mismatches).toEqual([]);
}

describe('GET /api/flights against the shared rule', () => {
  const random = createRandom(20_240_601);
  let airlines: AirlineFixture[];
  let flights: StoredFlight[];

  beforeAll(async () => {
    airlines = await insertAirlines(random, AIRLINE_NAMES);
    flights = Array.from({ length: 260 }, () => randomFlight(random, airlines));
    await insertFlights(flights);
  });

  test('every ordering, band and airline, on the first pages, matches the shared rule', async () => {
    for (const sort of CATALOG_SORTS) {
      for (const band of PRICE_BANDS) {
        for (const page of ['1', '3']) {
          await expectSameAsSharedRule(flights, { sort, band, page });
          await expectSameAsSharedRule(flights, { sort, band, page, airlineId: airlines[1]!.id });
        }
      }
    }
  });

  test('400 random queries answer exactly what the shared rule answers (items, order, totals)', async () => {
    for (let i = 0; i < 400; i++)
      await expectSameAsSharedRule(flights, randomQuery(random, airlines));
    expect(seen.nonEmpty).toBeGreaterThan(150);
    for (const count of Object.values(seen)) expect(count).toBeGreaterThan(5);
  });

  test('after stock, price, airline and deletion changes the answers still match, counts included', async () => {
    const byId = new Map(flights.map((f) => [f.id, f]));
    for (const flight of random.sample(flights, 90)) {
      const change = random.int(0, 4);
      if (change === 0) flight.tickets = flight.tickets === 0 ? random.int(1, 3) : 0;
      if (change === 1) flight.priceCents = random.pick(EDGE_PRICES);
      if (change === 2) flight.deleted = !flight.deleted;
      if (change === 3) {
        const airline = random.pick(airlines);
        flight.airlineId = airline.id;
        flight.airlineName = airline.name;
      }
      if (change === 4) flight.tickets = Math.max(0, flight.tickets - 1);
    }
    // One statement for all changes (a multi-row update), as a bulk edit would do.
    const changes = flights.map((f) => [
      f.id,
      f.tickets,
      f.priceCents,
      String(f.deleted),
      f.airlineId,
      f.airlineName,
    ]);
    await sql`
      UPDATE flights f SET tickets = v.tickets::int, price_cents = v.price_cents::bigint, deleted = v.deleted::boolean,
                           airline_id = v.airline_id::uuid, airline_name = v.airline_name
      FROM (VALUES ${sql(changes)}) AS v (id, tickets, price_cents, deleted, airline_id, airline_name)
      WHERE f.id = v.id::uuid`;
    // Row-by-row changes and hard deletes too.
    for (const flight of random.sample(flights, 10)) {
      flight.tickets = flight.tickets === 0 ? 4 : 0;
      await sql`UPDATE flights SET tickets = ${flight.tickets} WHERE id = ${flight.id}`;
    }
    const removed = random.sample(flights, 8);
    await sql`DELETE FROM flights WHERE id IN ${sql(removed.map((f) => f.id))}`;
    for (const flight of removed) byId.delete(flight.id);
    const added = Array.from({ length: 30 }, () => randomFlight(random, airlines));
    await insertFlights(added);
    for (const flight of added) byId.set(flight.id, flight);
    flights = [...byId.values()];

    await expectCountsConsistent();
    for (let i = 0; i < 200; i++)
      await expectSameAsSharedRule(flights, randomQuery(random, airlines));
  });

  test('sold-out and deleted flights never appear, whatever the query', async () => {
    const hidden = new Set(flights.filter((f) => f.tickets === 0 || f.deleted).map((f) => f.id));
    expect(hidden.size).toBeGreaterThan(0);
    for (const sort of CATALOG_SORTS) {
      const { body } = await getJson(`/api/flights?sort=${sort}&pageSize=60&page=1`);
      for (let page = 1; page <= body.pageCount; page++) {
        const { body: pageBody } = await getJson(
          `/api/flights?sort=${sort}&pageSize=60&page=${page}`,
        );
        for (const item of pageBody.items) expect(hidden.has(item.id)).toBe(false);
      }
    }
  });
});

describe('GET /api/flights answers', () => {
  let airline: AirlineFixture;
  let flight: StoredFlight;
  let soldOut: StoredFlight;
  let deleted: StoredFlight;

  beforeAll(async () => {
    const random = createRandom(7);
    [airline] = (await insertAirlines(random, ['Wire Format Air'])) as [AirlineFixture];
    flight = {
      ...randomFlight(random, [airline]),
      origin: 'Kiribati',
      destination: 'Tuvalu',
      tickets: 3,
      deleted: false,
    };
    flight.departureHour = '07:05';
    flight.departureDate = '2031-03-02';
    soldOut = {
      ...randomFlight(random, [airline]),
      origin: 'Kiribati',
      destination: 'Nauru',
      tickets: 0,
      deleted: false,
    };
    deleted = {
      ...randomFlight(random, [airline]),
      origin: 'Kiribati',
      destination: 'Fiji',
      tickets: 9,
      deleted: true,
    };
    await insertFlights([flight, soldOut, deleted]);
  });

  test('flights travel in the shared wire format', async () => {
    const { status, body } = await getJson(`/api/flights?origin=kiribati&airlineId=${airline.id}`);
    expect(status).toBe(200);
    const parsed = FlightCatalogPageSchema.parse(body);
    expect(parsed.items).toEqual([toWire(flight)]);
    expect(parsed.items[0]).toMatchObject({ departureHour: '07:05', departureDate: '2031-03-02' });
    expect(parsed).toMatchObject({ total: 1, pageCount: 1, originNotFound: false });
  });

  test('a search that matches nothing says origin not found and lists without it', async () => {
    const { body } = await getJson(`/api/flights?origin=Kiribatis&airlineId=${airline.id}`);
    expect(body.originNotFound).toBe(true);
    expect(body.items.map((f: Flight) => f.id)).toEqual([flight.id]);
  });

  test('a page past the end is empty and still counts', async () => {
    const { status, body } = await getJson(`/api/flights?airlineId=${airline.id}&page=50`);
    expect(status).toBe(200);
    expect(body).toEqual({
      items: [],
      page: 50,
      pageSize: 6,
      total: 1,
      pageCount: 1,
      originNotFound: false,
    });
  });

  test('an unknown airline gives an empty list, not an error', async () => {
    const { status, body } = await getJson(
      '/api/flights?airlineId=00000000-0000-4000-8000-000000000000',
    );
    expect(status).toBe(200);
    expect(body).toMatchObject({ items: [], total: 0, pageCount: 0 });
  });

  test.each([
    ['page=-1', 'page'],
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['page=1.5', 'page'],
    ['page=1&page=2', 'page'],
    ['page=100001', 'page'],
    ['pageSize=100000', 'pageSize'],
    ['pageSize=0', 'pageSize'],
    ['sort=cheapest', 'sort'],
    ['sort=price_asc%3B%20DROP%20TABLE%20flights', 'sort'],
    ['band=1', 'band'],
    ['airlineId=42', 'airlineId'],
    ['airlineId=%27%20OR%20%271%27%3D%271', 'airlineId'],
    ['origin=%27%3B%20DROP%20TABLE%20flights%3B--', 'origin'],
    ['origin=%25', 'origin'],
    ['destination=a_b', 'destination'],
    [`destination=${'a'.repeat(81)}`, 'destination'],
  ])('GET /api/flights?%s is a 400 that names %s', async (search, field) => {
    const { status, body } = await getJson(`/api/flights?${search}`);
    expect(status).toBe(400);
    expect(body.code).toBe('bad_request');
    expect(body.message).toMatch(new RegExp(`^${field}: `));
  });

  test('SQL-looking input leaves the tables alone', async () => {
    await getJson('/api/flights?origin=%27%3B%20DELETE%20FROM%20flights%3B--');
    const [row] = await sql<{ n: number }[]>`SELECT count(*) AS n FROM flights`;
    expect(row!.n).toBeGreaterThan(0);
  });

  test('unknown query parameters are ignored', async () => {
    const { status } = await getJson('/api/flights?utm_source=mail');
    expect(status).toBe(200);
  });

  test('GET /api/flights/:id returns a listed flight', async () => {
    const { status, body } = await getJson(`/api/flights/${flight.id}`);
    expect(status).toBe(200);
    expect(FlightDetailSchema.parse(body)).toEqual({ ...toWire(flight), soldOut: false });
  });

  test('GET /api/flights/:id still returns a sold-out flight, flagged', async () => {
    const { status, body } = await getJson(`/api/flights/${soldOut.id.toUpperCase()}`);
    expect(status).toBe(200);
    expect(body).toEqual({ ...toWire(soldOut), soldOut: true });
  });

  test('GET /api/flights/:id is a 404 for deleted and unknown flights', async () => {
    for (const id of [deleted.id, '00000000-0000-4000-8000-000000000000']) {
      const { status, body } = await getJson(`/api/flights/${id}`);
      expect(status).toBe(404);
      expect(body).toMatchObject({ code: 'not_found', message: 'Flight not found' });
    }
  });

  test('GET /api/flights/:id is a 400 for a malformed id', async () => {
    const { status, body } = await getJson(`/api/flights/${encodeURIComponent("1' OR '1'='1")}`);
    expect(status).toBe(400);
    expect(body.message).toMatch(/^id: /);
  });
});

describe('GET /api/airlines', () => {
  let names: string[];

  beforeAll(async () => {
    const random = createRandom(11);
    const airlines = await insertAirlines(random, [
      'beta Lines',
      'Alpha',
      'Gamma Air',
      'Deleted Air',
    ]);
    await sql`UPDATE airlines SET deleted = true WHERE id = ${airlines[3]!.id}`;
    const rows = await sql<
      { id: string; name: string }[]
    >`SELECT id, name FROM airlines WHERE NOT deleted`;
    const key = (r: { id: string; name: string }) => [r.name.toLowerCase(), r.id] as const;
    names = rows
      .sort((a, b) => compareCodePoints(key(a)[0], key(b)[0]) || (a.id < b.id ? -1 : 1))
      .map((r) => r.name);
  });

  test('lists the airlines that are not deleted, A to Z, in pages', async () => {
    const all = AirlinePageSchema.parse((await getJson('/api/airlines?pageSize=100')).body);
    expect(all.items.map((a) => a.name)).toEqual(names);
    expect(all.items.map((a) => a.name)).not.toContain('Deleted Air');
    expect(all.total).toBe(names.length);
    const second = AirlinePageSchema.parse((await getJson('/api/airlines?pageSize=2&page=2')).body);
    expect(second.items.map((a) => a.name)).toEqual(names.slice(2, 4));
    expect(second.pageCount).toBe(Math.ceil(names.length / 2));
  });

  test('bad paging is a 400', async () => {
    for (const search of ['page=0', 'pageSize=101', 'pageSize=x']) {
      expect((await getJson(`/api/airlines?${search}`)).status).toBe(400);
    }
  });
});

describe('GET /api/comments', () => {
  let airlineA: string;
  let airlineB: string;
  let flightA: string;
  let flightA2: string;

  beforeAll(async () => {
    const random = createRandom(5);
    const [a, b] = (await insertAirlines(random, ['Review Air A', 'Review Air B'])) as [
      AirlineFixture,
      AirlineFixture,
    ];
    airlineA = a.id;
    airlineB = b.id;
    const fa = { ...randomFlight(random, [a]), deleted: false };
    const fa2 = { ...randomFlight(random, [a]), deleted: false };
    const fb = { ...randomFlight(random, [b]), deleted: false };
    await insertFlights([fa, fa2, fb]);
    flightA = fa.id;
    flightA2 = fa2.id;
    const review = (
      flight: string,
      airline: string,
      rating: number,
      minute: number,
      deleted = false,
    ) => ({
      flight_id: flight,
      airline_id: airline,
      rating,
      name: `Reviewer ${minute}`,
      comment: 'Nice flight',
      more_info: sql.json([{ flightName: 'F', origin: 'Chile', destination: 'Peru' }]),
      created_at: new Date(BASE_TIME + minute * 60_000).toISOString(),
      deleted,
    });
    await sql`INSERT INTO reviews ${sql([
      review(flightA, airlineA, 5, 1),
      review(flightA, airlineA, 4, 2),
      review(flightA2, airlineA, 4, 3),
      review(flightA2, airlineA, 4, 4),
      review(flightA2, airlineA, 1, 5, true),
      review(fb.id, airlineB, 2, 6),
    ])}`;
  });

  test('an airline filter lists its reviews newest first with the half-star average', async () => {
    const page = ReviewPageSchema.parse(
      (await getJson(`/api/comments?airlineId=${airlineA}`)).body,
    );
    expect(page.items.map((r) => r.rating)).toEqual([4, 4, 4, 5]);
    expect(page.items[0]).toMatchObject({
      flightId: flightA2,
      airlineId: airlineA,
      name: 'Reviewer 4',
      moreInfo: [{ flightName: 'F', origin: 'Chile', destination: 'Peru' }],
      createdAt: BASE_TIME + 4 * 60_000,
    });
    // (5 + 4 + 4 + 4) / 4 = 4.25 → 4.5, the deleted 1-star review not counted.
    expect(page).toMatchObject({ total: 4, averageRating: 4.5 });
  });

  test('a flight filter narrows to that flight', async () => {
    const page = ReviewPageSchema.parse(
      (await getJson(`/api/comments?flightId=${flightA}&pageSize=1&page=2`)).body,
    );
    expect(page.items.map((r) => r.rating)).toEqual([5]);
    expect(page).toMatchObject({ total: 2, pageCount: 2, averageRating: 4.5 });
  });

  test('without a filter every review is listed and no average is given', async () => {
    const page = ReviewPageSchema.parse((await getJson('/api/comments?pageSize=60')).body);
    expect(page.total).toBe(5);
    expect(page.averageRating).toBeNull();
  });

  test('a filter with no reviews gives a null average', async () => {
    const page = ReviewPageSchema.parse(
      (await getJson(`/api/comments?airlineId=${airlineB}&flightId=${flightA}`)).body,
    );
    expect(page).toMatchObject({ items: [], total: 0, averageRating: null });
  });

  test('a malformed filter is a 400', async () => {
    const { status, body } = await getJson('/api/comments?flightId=abc');
    expect(status).toBe(400);
    expect(body.message).toMatch(/^flightId: /);
  });

  test('the average from a sum equals the shared rule', () => {
    const random = createRandom(3);
    for (let i = 0; i < 500; i++) {
      const ratings = Array.from({ length: random.int(1, 12) }, () => random.int(1, 5));
      const sum = ratings.reduce((a, b) => a + b, 0);
      expect(averageFromSum(sum, ratings.length)).toBe(averageRating(ratings));
    }
    expect(averageFromSum(0, 0)).toBe(averageRating([]));
  });
});

test('prefix ranges bound exactly the strings that start with the prefix', () => {
  expect(prefixRange('ar')).toEqual({ from: 'ar', to: 'as' });
  expect(prefixRange('côte d')).toEqual({ from: 'côte d', to: 'côte e' });
  expect(prefixRange('å')).toEqual({ from: 'å', to: 'æ' });
  expect(prefixRange('a\u{D7FF}')).toEqual({ from: 'a\u{D7FF}', to: 'a\u{E000}' });
  expect(prefixRange('\u{10FFFF}').to).toBeUndefined();
});

/** Every flight in the database, as the shared rule sees it (wire fields and `deleted`). */
async function storedFlights(): Promise<StoredFlight[]> {
  return sql<StoredFlight[]>`
    SELECT id, airline_id AS "airlineId", airline_name AS "airlineName", origin, destination,
           to_char(departure_date, 'YYYY-MM-DD') AS "departureDate",
           to_char(departure_hour, 'HH24:MI') AS "departureHour",
           to_char(arrival_date, 'YYYY-MM-DD') AS "arrivalDate",
           to_char(arrival_hour, 'HH24:MI') AS "arrivalHour",
           duration_estimated AS "durationEstimated", price_cents AS "priceCents", tickets, logo,
           description, (extract(epoch FROM created_at) * 1000)::int8 AS "createdAt", deleted
    FROM flights`;
}

/** What the shared rule lists for these parameters over the whole database. */
async function expectedPage(params: Record<string, string>) {
  return queryCatalog(visible(await storedFlights()), CatalogQuerySchema.parse(params));
}

/** Every maintained count equals a count(*) over the flights it counts (db/functions/catalog_counts_apply.sql). */
async function expectAllCountsExact() {
  const mismatches = await sql`
    WITH listed AS (
      SELECT airline_id AS a, lower(origin) COLLATE "C" AS o, lower(destination) COLLATE "C" AS d,
             catalog_price_band(price_cents) AS b
      FROM flights WHERE tickets > 0 AND NOT deleted
    ), actual AS (
      SELECT 'place' AS t, a, o, d, count(*) FILTER (WHERE b = 'low')::int AS low,
             count(*) FILTER (WHERE b = 'mid')::int AS mid, count(*) FILTER (WHERE b = 'high')::int AS high
      FROM listed GROUP BY GROUPING SETS ((o), (d), (o, d), (a, o), (a, d), (a, o, d))
      UNION ALL
      SELECT 'airline', a, NULL, NULL, count(*) FILTER (WHERE b = 'low')::int,
             count(*) FILTER (WHERE b = 'mid')::int, count(*) FILTER (WHERE b = 'high')::int
      FROM listed GROUP BY a
    ), kept AS (
      SELECT 'place' AS t, airline_id AS a, origin_key AS o, destination_key AS d, low, mid, high
      FROM catalog_place_counts
      UNION ALL
      SELECT 'airline', airline_id, NULL, NULL, low, mid, high FROM catalog_airline_counts
    )
    (SELECT 'missing' AS problem, * FROM actual EXCEPT SELECT 'missing', * FROM kept)
    UNION ALL
    (SELECT 'wrong', * FROM kept WHERE (low, mid, high) <> (0, 0, 0)
     EXCEPT SELECT 'wrong', * FROM actual)`;
  expect(mismatches).toEqual([]);
}

/** A catalogue answer's body, checked against the shared schema. */
async function pageOf(response: Response) {
  return FlightCatalogPageSchema.parse(await response.json());
}

/** Links of an answer's `Link` header by relation. */
function linksOf(response: Response): Record<string, string> {
  const links: Record<string, string> = {};
  for (const match of (response.headers.get('link') ?? '').matchAll(/<([^>]+)>;\s*rel="(\w+)"/g))
    links[match[2]!] = match[1]!;
  return links;
}

describe('GET /api/flights: deep pages, cursors, counts and caching', () => {
  const random = createRandom(20_261_126);
  let big: AirlineFixture;
  let small: AirlineFixture;

  beforeAll(async () => {
    [big, small] = (await insertAirlines(random, ['Deep Air', 'Shallow Air'])) as [
      AirlineFixture,
      AirlineFixture,
    ];
    // One airline with enough listed flights for deep pages of its own, one with few.
    const flights = [
      ...Array.from({ length: 420 }, () => randomFlight(random, [big])),
      ...Array.from({ length: 25 }, () => randomFlight(random, [small])),
    ];
    await insertFlights(flights);
  });

  test('deep pages (walked from either end, then by remembered boundary) equal OFFSET pages', async () => {
    const all = visible(await storedFlights());
    for (const sort of CATALOG_SORTS) {
      const filters: Record<string, string>[] = [
        {},
        { band: 'mid' },
        { airlineId: big.id },
        { airlineId: small.id },
        { departureFrom: '2031-03-04', departureTo: '2031-03-20' },
      ];
      for (const filter of filters) {
        for (const pageSize of [1, 7]) {
          const total = queryCatalog(all, CatalogQuerySchema.parse({ ...filter, pageSize })).total;
          const pageCount = Math.ceil(total / pageSize);
          const pages = new Set([
            Math.ceil(120 / pageSize) + 1,
            Math.floor(pageCount / 2) + 1,
            pageCount - 1,
            pageCount,
            pageCount + 1,
          ]);
          for (const page of pages) {
            if (page < 1) continue;
            const params = { ...filter, sort, page: String(page), pageSize: String(pageSize) };
            const url = `/api/flights?${new URLSearchParams(params)}`;
            const expected = queryCatalog(all, CatalogQuerySchema.parse(params));
            // Twice: the first walks, the second reads from the remembered boundary.
            expect((await getJson(url)).body, url).toEqual(expected);
            expect((await getJson(url)).body, url).toEqual(expected);
          }
        }
      }
    }
  });

  test('deep pages read again from their remembered boundary equal OFFSET pages', async () => {
    // Without the answers the HTTP route remembers: the second find() of a deep page reads it
    // from its boundary, and its neighbours from theirs.
    const pages = new CatalogPages(sql);
    const all = visible(await storedFlights());
    for (const params of [
      { sort: 'initial', pageSize: '1', page: '200' },
      { sort: 'price_desc', band: 'mid', pageSize: '1', page: '130' },
      { sort: 'stock_asc', airlineId: big.id, pageSize: '3', page: '60' },
    ]) {
      const query = CatalogQuerySchema.parse(params);
      for (const page of [query.page, query.page, query.page + 1, query.page - 1]) {
        const expected = queryCatalog(all, { ...query, page });
        expect(JSON.parse((await pages.find({ ...query, page })).body), `${page}`).toEqual(
          expected,
        );
      }
    }
  });

  test('a remembered answer is checked by the version alone and read again after a write', async () => {
    const params = { sort: 'stock_desc', band: 'mid', page: '3' };
    const url = `/api/flights?${new URLSearchParams(params)}`;
    const pages = catalogPages(sql);
    const find = vi.spyOn(pages, 'find');
    const version = vi.spyOn(pages, 'version');
    try {
      const first = await app.request(url);
      const body = await first.text();
      expect(JSON.parse(body)).toEqual(await expectedPage(params));
      const reads = find.mock.calls.length;
      const again = await app.request(url);
      expect(await again.text()).toBe(body);
      expect(again.headers.get('etag')).toBe(first.headers.get('etag'));
      expect(again.headers.get('link')).toBe(first.headers.get('link'));
      // Checked by the version statement, without a page statement.
      expect(find.mock.calls.length).toBe(reads);
      expect(version).toHaveBeenCalled();

      // Any write to a flight (here one this page does not show) makes the answer stale.
      await sql`UPDATE flights SET description = 'Read again' WHERE id = (
        SELECT id FROM flights WHERE tickets > 0 AND NOT deleted AND price_cents < 100 LIMIT 1)`;
      await sql`UPDATE flights SET tickets = tickets + 1 WHERE id = (
        SELECT id FROM flights WHERE tickets > 0 AND NOT deleted
          AND price_cents > ${PRICE_BAND_LOW_MAX_CENTS} AND price_cents < ${PRICE_BAND_MID_MAX_CENTS}
        ORDER BY tickets DESC, id LIMIT 1 OFFSET 13)`;
      const changed = await app.request(url);
      expect(changed.headers.get('etag')).not.toBe(first.headers.get('etag'));
      expect(await changed.json()).toEqual(await expectedPage(params));
      expect(find.mock.calls.length).toBe(reads + 1);

      // Requests that arrive together after a write share the page statement of the version they
      // read. (Equal catalogues can read as two versions while the oldest running transaction of
      // the server, any database's, moves past the write: then a second statement.)
      await sql`UPDATE flights SET tickets = tickets + 1 WHERE id = (
        SELECT id FROM flights WHERE tickets > 0 AND NOT deleted
          AND price_cents > ${PRICE_BAND_LOW_MAX_CENTS} AND price_cents < ${PRICE_BAND_MID_MAX_CENTS}
        ORDER BY tickets DESC, id LIMIT 1 OFFSET 14)`;
      const expected = await expectedPage(params);
      const together = await Promise.all(Array.from({ length: 8 }, () => app.request(url)));
      for (const response of together) expect(await response.json()).toEqual(expected);
      expect(find.mock.calls.length - (reads + 1)).toBeGreaterThanOrEqual(1);
      expect(find.mock.calls.length - (reads + 1)).toBeLessThanOrEqual(3);
    } finally {
      find.mockRestore();
      version.mockRestore();
    }
  });

  test('the version statement is prepared once per connection, not planned every time', async () => {
    const one = createSql(databaseUrl, { max: 1 });
    try {
      const a = await findCatalogVersion(one);
      const b = await findCatalogVersion(one);
      expect(b).toEqual(a);
      // postgres.js sends a statement without parameters as a simple query unless told not to.
      const [{ prepared }] = (await one`
        SELECT count(*)::int AS prepared FROM pg_prepared_statements
        WHERE statement = ${CATALOG_VERSION_SQL}`) as unknown as [{ prepared: number }];
      expect(prepared).toBe(1);
    } finally {
      await one.end({ timeout: 1 });
    }
  });

  /** A handle on the test database that counts the version statements sent through it. */
  function countingVersionStatements(): { sql: typeof sql; sent: () => number } {
    let sent = 0;
    const counting = new Proxy(sql, {
      get(target, property, receiver) {
        if (property !== 'unsafe') return Reflect.get(target, property, receiver) as unknown;
        return (text: string, ...rest: unknown[]) => {
          if (text === CATALOG_VERSION_SQL) sent++;
          return (target.unsafe as (...args: unknown[]) => unknown)(text, ...rest);
        };
      },
    });
    return { sql: counting, sent: () => sent };
  }

  test('requests that ask for the version together share one version statement', async () => {
    const counting = countingVersionStatements();
    const pages = new CatalogPages(counting.sql);
    const versions = await Promise.all(Array.from({ length: 8 }, () => pages.version()));
    expect(new Set(versions).size).toBe(1);
    expect(versions[0]).toBe((await findCatalogVersion(sql)).version);
    expect(counting.sent()).toBe(1);

    // Remembered answers checked together: one version statement for all of them.
    const query = CatalogQuerySchema.parse({ sort: 'price_desc', page: '2' });
    const first = await pages.answer('q', query, undefined);
    const sentBefore = counting.sent();
    const again = await Promise.all(
      Array.from({ length: 8 }, () => pages.answer('q', query, undefined)),
    );
    for (const answer of again) expect(answer).toBe(first);
    expect(counting.sent() - sentBefore).toBe(1);
  });

  test('a version asked for after a write committed reflects it (no version is reused by time)', async () => {
    const pages = new CatalogPages(sql);
    const before = await pages.version();
    await sql`UPDATE flights SET description = 'After the first version' WHERE id = (
      SELECT id FROM flights WHERE tickets > 0 AND NOT deleted ORDER BY id LIMIT 1)`;
    const after = await pages.version();
    expect(after).not.toBe(before);
    expect(after).toBe((await findCatalogVersion(sql)).version);
  });

  test('a remembered boundary is not used once the catalogue has changed', async () => {
    const params = { sort: 'price_asc', pageSize: '1', page: '150' };
    const url = `/api/flights?${new URLSearchParams(params)}`;
    expect((await getJson(url)).body).toEqual(await expectedPage(params));
    expect((await getJson(url)).body).toEqual(await expectedPage(params));
    // Sell out the cheapest listed flight: every later page moves up by one.
    await sql`UPDATE flights SET tickets = 0 WHERE id = (
      SELECT id FROM flights WHERE tickets > 0 AND NOT deleted ORDER BY price_cents, id LIMIT 1)`;
    const after = await expectedPage(params);
    expect((await getJson(url)).body).toEqual(after);
    expect((await getJson(url)).body).toEqual(after);
  });

  test('following the next links lists every flight once, in order; prev links go back', async () => {
    const cases: Record<string, string>[] = [
      { sort: 'initial', pageSize: '7' },
      { sort: 'price_desc', band: 'low', pageSize: '9' },
      { sort: 'airline_desc', pageSize: '11' },
      { sort: 'stock_desc', airlineId: big.id, pageSize: '13' },
      { sort: 'stock_asc', airlineId: small.id, pageSize: '4' },
      { sort: 'airline_asc', airlineId: big.id, pageSize: '30' },
      { sort: 'price_asc', origin: 'ar', pageSize: '5' },
      { sort: 'stock_desc', origin: 'c', destination: 'b', pageSize: '3' },
      { sort: 'initial', origin: 'peru', destination: 'Xanadu', pageSize: '6' },
      { sort: 'fastest', pageSize: '8' },
      { sort: 'fastest', departureFrom: '2031-03-07', departureTo: '2031-03-13', pageSize: '3' },
      {
        sort: 'price_desc',
        departureFrom: '2031-03-05',
        departureTo: '2031-03-11',
        airlineId: big.id,
        pageSize: '4',
      },
      {
        sort: 'airline_asc',
        origin: 'ar',
        departureFrom: '2031-03-10',
        departureTo: '2031-03-31',
        pageSize: '2',
      },
    ];
    for (const params of cases) {
      const expected = await expectedPage({ ...params, pageSize: '60', page: '1' });
      const all = queryCatalog(
        visible(await storedFlights()),
        CatalogQuerySchema.parse({ ...params, pageSize: '1' }),
      );
      const seen: string[] = [];
      const pages: string[] = [];
      let url: string | undefined = `/api/flights?${new URLSearchParams(params)}`;
      while (url) {
        const response = await app.request(url);
        expect(response.status, url).toBe(200);
        const body = await pageOf(response);
        pages.push(url);
        seen.push(...body.items.map((f: Flight) => f.id));
        expect(body.total).toBe(all.total);
        url = linksOf(response).next;
        expect(pages.length).toBeLessThan(400);
      }
      const ordered = queryCatalog(
        visible(await storedFlights()),
        CatalogQuerySchema.parse({ ...params, pageSize: '60', page: '1' }),
      );
      expect(seen.slice(0, 60)).toEqual(ordered.items.map((f) => f.id));
      expect(seen).toHaveLength(all.total);
      expect(new Set(seen).size).toBe(all.total);
      expect(expected.total).toBe(all.total);
      // And back: each prev link gives the page before, as the page number would.
      const last = await app.request(pages.at(-1)!);
      let prev = linksOf(last).prev;
      let page = pages.length - 1;
      while (prev) {
        const response = await app.request(prev);
        const body = await pageOf(response);
        const byNumber = (await getJson(pages[page - 1]!)).body;
        expect(body.items, prev).toEqual(byNumber.items);
        expect(body.page).toBe(page);
        prev = linksOf(response).prev;
        page--;
      }
      expect(page).toBe(0);
    }
  });

  test('a cursor keeps its place when flights are added before it', async () => {
    const first = await app.request('/api/flights?sort=price_asc&pageSize=5');
    const firstIds = (await pageOf(first)).items.map((f) => f.id);
    const next = linksOf(first).next!;
    // A new cheapest flight (the lowest price, the lowest id) shifts page numbers by one, not
    // the cursor's place.
    const cheapest = {
      ...randomFlight(random, [small]),
      id: '00000000-0000-4000-8000-000000000001',
      priceCents: 100,
      tickets: 3,
      deleted: false,
    };
    await insertFlights([cheapest]);
    const ordered = (await expectedPage({ sort: 'price_asc', pageSize: '60' })).items.map(
      (f) => f.id,
    );
    expect(ordered.slice(0, 6)).toEqual([cheapest.id, ...firstIds]);
    const byCursor = await pageOf(await app.request(next));
    expect(byCursor.items.map((f) => f.id)).toEqual(ordered.slice(6, 11));
    expect(byCursor.page).toBe(2);
    // By number, page 2 now starts with the former last flight of page 1.
    const byNumber = await expectedPage({ sort: 'price_asc', pageSize: '5', page: '2' });
    expect(byNumber.items[0]!.id).toBe(firstIds[4]);
  });

  test.each([
    ['after=abc', 'after: Not a cursor of this list'],
    [`after=${Buffer.from('[1,2]').toString('base64url')}`, 'after: Not a cursor of this list'],
    [
      `sort=price_asc&after=${Buffer.from(JSON.stringify(['price_asc', 'x', '00000000-0000-4000-8000-000000000000'])).toString('base64url')}`,
      'after: Not a cursor of this list',
    ],
    [
      `sort=stock_asc&before=${Buffer.from(JSON.stringify(['price_asc', 5, '00000000-0000-4000-8000-000000000000'])).toString('base64url')}`,
      'before: The cursor is of another order',
    ],
    [`after=${'a'.repeat(2000)}`, 'after: Not a cursor of this list'],
    ['after=x&before=y', 'before: Give after or before, not both'],
  ])('GET /api/flights?%s is a 400', async (search, message) => {
    const { status, body } = await getJson(`/api/flights?${search}`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ code: 'bad_request', message });
  });

  test('the counts equal count(*) after inserts, sales, sell-outs, edits and deletes', async () => {
    await expectAllCountsExact();
    const listed = await sql<{ id: string }[]>`
      SELECT id FROM flights WHERE tickets > 1 AND NOT deleted ORDER BY id LIMIT 40`;
    // Sales that leave tickets, sell-outs, restocks, moves between places, airlines and bands,
    // deletion and undeletion, one row at a time and in bulk, and hard deletes.
    await sql`UPDATE flights SET tickets = tickets - 1 WHERE id IN ${sql(listed.slice(0, 10).map((f) => f.id))}`;
    await sql`UPDATE flights SET tickets = 0 WHERE id IN ${sql(listed.slice(10, 15).map((f) => f.id))}`;
    await sql`UPDATE flights SET tickets = 5 WHERE id IN ${sql(listed.slice(12, 14).map((f) => f.id))}`;
    await sql`UPDATE flights SET origin = 'Chile', destination = 'Peru' WHERE id = ${listed[15]!.id}`;
    await sql`UPDATE flights SET destination = 'CHILE' WHERE id = ${listed[16]!.id} AND origin <> 'CHILE'`;
    await sql`UPDATE flights SET airline_id = ${small.id}, airline_name = ${small.name} WHERE id = ${listed[17]!.id}`;
    await sql`UPDATE flights SET price_cents = ${PRICE_BAND_MID_MAX_CENTS} WHERE id IN ${sql(listed.slice(18, 22).map((f) => f.id))}`;
    await sql`UPDATE flights SET price_cents = price_cents + 1 WHERE id = ${listed[22]!.id}`;
    await sql`UPDATE flights SET deleted = true WHERE id IN ${sql(listed.slice(23, 27).map((f) => f.id))}`;
    await sql`UPDATE flights SET deleted = false WHERE id = ${listed[23]!.id}`;
    await sql`DELETE FROM flights WHERE id IN ${sql(listed.slice(27, 30).map((f) => f.id))}`;
    await insertFlights(Array.from({ length: 12 }, () => randomFlight(random, [big, small])));
    await sql.begin(async (tx) => {
      await tx`UPDATE flights SET tickets = 0 WHERE id = ${listed[30]!.id}`;
      await tx`UPDATE flights SET tickets = 2 WHERE id = ${listed[30]!.id}`;
      await tx`UPDATE flights SET airline_id = ${big.id}, airline_name = ${big.name}, tickets = 0 WHERE id = ${listed[31]!.id}`;
    });
    await expectAllCountsExact();
    // And the answers' totals are those counts.
    for (const params of [
      {},
      { band: 'high' },
      { airlineId: small.id, band: 'mid' },
      { origin: 'ch' },
      { origin: 'chile', destination: 'pe', airlineId: big.id },
      { destination: 'b', band: 'low' },
    ] as Record<string, string>[]) {
      expect((await getJson(`/api/flights?${new URLSearchParams(params)}`)).body).toEqual(
        await expectedPage(params),
      );
    }
  });

  test('a sale that leaves tickets touches no counter row', async () => {
    const counterRows = () => sql`
      SELECT xmin::text AS x, ctid::text AS c FROM catalog_place_counts
      UNION ALL SELECT xmin::text, ctid::text FROM catalog_airline_counts ORDER BY 1, 2`;
    const before = await counterRows();
    const [flight] = await sql<{ id: string }[]>`
      SELECT id FROM flights WHERE tickets > 3 AND NOT deleted LIMIT 1`;
    await sql`UPDATE flights SET tickets = tickets - 2, updated_at = now() WHERE id = ${flight!.id}`;
    expect(await counterRows()).toEqual(before);
    // Selling out does change them (the flight leaves the catalogue).
    await sql`UPDATE flights SET tickets = 0 WHERE id = ${flight!.id}`;
    expect(await counterRows()).not.toEqual(before);
    await expectAllCountsExact();
  });

  test('answers carry an ETag of the version and a public Cache-Control; If-None-Match gives 304', async () => {
    const url = '/api/flights?sort=price_desc&band=high&page=2';
    const first = await app.request(url);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/json');
    const etag = first.headers.get('etag')!;
    // Floor, greatest settled position (txid-revision), sum of the unsettled revisions.
    expect(etag).toMatch(/^"c2-\d+\.\d+-\d+\.\d+"$/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=5, stale-while-revalidate=30');
    // The security headers of every answer are still there.
    expect(first.headers.get('x-content-type-options')).toBe('nosniff');
    expect(first.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(first.headers.get('set-cookie')).toBeNull();

    const pages = catalogPages(sql);
    const find = vi.spyOn(pages, 'find');
    try {
      for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
        const revalidated = await app.request(url, { headers: { 'if-none-match': ifNoneMatch } });
        expect(revalidated.status, ifNoneMatch).toBe(304);
        expect(await revalidated.text()).toBe('');
        expect(revalidated.headers.get('etag')).toBe(etag);
        expect(revalidated.headers.get('cache-control')).toBe(
          'public, max-age=5, stale-while-revalidate=30',
        );
        expect(revalidated.headers.get('x-content-type-options')).toBe('nosniff');
      }
      // Answered without the page's statement.
      expect(find).not.toHaveBeenCalled();
      const stale = await app.request(url, { headers: { 'if-none-match': '"c2-1"' } });
      expect(stale.status).toBe(200);
      expect(await stale.json()).toEqual(
        await expectedPage({ sort: 'price_desc', band: 'high', page: '2' }),
      );
    } finally {
      find.mockRestore();
    }

    // Any change to a flight (here one this page does not show) is a new revision.
    await sql`UPDATE flights SET description = 'Changed' WHERE id = (SELECT id FROM flights LIMIT 1)`;
    const changed = await app.request(url, { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    const newTag = changed.headers.get('etag')!;
    expect(newTag).not.toBe(etag);
    // A hard delete draws no revision of its own; it raises the floor instead.
    await sql`DELETE FROM flights WHERE id = (SELECT id FROM flights WHERE tickets > 0 AND NOT deleted ORDER BY price_cents DESC LIMIT 1)`;
    const afterDelete = await app.request(url, { headers: { 'if-none-match': newTag } });
    expect(afterDelete.status).toBe(200);
    expect(afterDelete.headers.get('etag')).not.toBe(newTag);
    // Errors are not cached.
    const bad = await app.request('/api/flights?page=0');
    expect(bad.status).toBe(400);
    expect(bad.headers.get('cache-control')).toBeNull();
    expect(bad.headers.get('etag')).toBeNull();
  });

  test('a write that commits after a later one still changes the version (no stale 304)', async () => {
    const url = '/api/flights?sort=price_asc&page=1';
    const [a, b] = await sql<{ id: string }[]>`
      SELECT id FROM flights WHERE tickets > 0 AND NOT deleted ORDER BY id LIMIT 2`;
    const early = createSql(databaseUrl, { max: 1 });
    try {
      // The early writer draws its revision first and stays open; a later writer commits first.
      let commit!: () => void;
      const committing = new Promise<void>((resolve) => (commit = resolve));
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => (wrote = resolve));
      const open = early.begin(async (tx) => {
        await tx`UPDATE flights SET description = 'Early' WHERE id = ${a!.id}`;
        wrote();
        await committing;
      });
      await written;
      await sql`UPDATE flights SET description = 'Later' WHERE id = ${b!.id}`;
      const before = (await app.request(url)).headers.get('etag')!;
      const [{ drawnFirst }] = (await sql`
        SELECT (SELECT revision FROM flights WHERE id = ${b!.id}) = max(revision) AS "drawnFirst"
        FROM flights`) as [{ drawnFirst: boolean }];
      // max(revision) is the later writer's, and stays so when the early one commits.
      expect(drawnFirst).toBe(true);
      commit();
      await open;
      const after = await app.request(url, { headers: { 'if-none-match': before } });
      expect(after.status).toBe(200);
      expect(after.headers.get('etag')).not.toBe(before);
    } finally {
      await early.end({ timeout: 1 });
    }
  });
});
