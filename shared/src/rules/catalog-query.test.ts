import { expect, test } from 'vitest';
import {
  HOME_PAGE_SIZE,
  PRICE_BAND_LOW_MAX_CENTS,
  PRICE_BAND_MID_MAX_CENTS,
} from '../constants.ts';
import {
  CATALOG_SORTS,
  CatalogQuerySchema,
  type CatalogQueryInput,
} from '../schemas/catalog-query.ts';
import { addDays } from '../dates.ts';
import type { Flight } from '../schemas/flight.ts';
import {
  catalogComparator,
  cheapestDays,
  compareCodePoints,
  daysBetween,
  departureWindow,
  flightMinutes,
  pageCountFor,
  queryCatalog,
  searchLevel,
  searchTerms,
} from './catalog-query.ts';

const AIRLINE_A = '10000000-0000-4000-8000-000000000001';
const AIRLINE_B = '10000000-0000-4000-8000-000000000002';

let nextId = 1;
function flight(overrides: Partial<Flight> = {}): Flight {
  const n = nextId++;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    airlineId: AIRLINE_A,
    airlineName: 'Aerolineas',
    origin: 'Argentina',
    destination: 'Brazil',
    departureDate: '2030-01-10',
    departureHour: '10:00',
    arrivalDate: '2030-01-10',
    arrivalHour: '14:30',
    durationEstimated: '04:30',
    priceCents: 10_000_00,
    tickets: 10,
    logo: '',
    description: '',
    createdAt: 1_000 + n,
    ...overrides,
  };
}

function query(input: CatalogQueryInput = {}) {
  return CatalogQuerySchema.parse(input);
}

const ids = (flights: readonly Flight[]) => flights.map((f) => f.id);

test('an empty catalogue gives an empty first page with no pages', () => {
  expect(queryCatalog([], query())).toEqual({
    items: [],
    page: 1,
    pageSize: HOME_PAGE_SIZE,
    total: 0,
    pageCount: 0,
    originNotFound: false,
  });
});

test('an empty catalogue with a search reports the origin as not found', () => {
  expect(queryCatalog([], query({ origin: 'Arg' })).originNotFound).toBe(true);
});

test('flights without tickets are never listed', () => {
  const sold = flight({ tickets: 0 });
  const open = flight({ tickets: 1 });
  const result = queryCatalog([sold, open], query());
  expect(ids(result.items)).toEqual([open.id]);
  expect(result.total).toBe(1);
});

test('the initial order is creation time, then id', () => {
  const late = flight({ createdAt: 50 });
  const early = flight({ createdAt: 10 });
  const tieB = flight({ id: 'bbbbbbbb-0000-4000-8000-000000000000', createdAt: 30 });
  const tieA = flight({ id: 'aaaaaaaa-0000-4000-8000-000000000000', createdAt: 30 });
  expect(ids(queryCatalog([late, tieB, early, tieA], query()).items)).toEqual([
    early.id,
    tieA.id,
    tieB.id,
    late.id,
  ]);
});

test('every order breaks ties by id ascending, also the descending ones', () => {
  const a = flight({ id: 'aaaaaaaa-0000-4000-8000-000000000000', priceCents: 500, tickets: 5 });
  const b = flight({ id: 'bbbbbbbb-0000-4000-8000-000000000000', priceCents: 500, tickets: 5 });
  const c = flight({ id: 'cccccccc-0000-4000-8000-000000000000', priceCents: 500, tickets: 5 });
  for (const sort of CATALOG_SORTS.filter((name) => name !== 'initial')) {
    expect(ids(queryCatalog([c, a, b], query({ sort })).items), sort).toEqual([a.id, b.id, c.id]);
  }
});

test('price orders go high to low and low to high', () => {
  const cheap = flight({ priceCents: 100 });
  const dear = flight({ priceCents: 900 });
  const middle = flight({ priceCents: 500 });
  expect(ids(queryCatalog([cheap, dear, middle], query({ sort: 'price_desc' })).items)).toEqual([
    dear.id,
    middle.id,
    cheap.id,
  ]);
  expect(ids(queryCatalog([cheap, dear, middle], query({ sort: 'price_asc' })).items)).toEqual([
    cheap.id,
    middle.id,
    dear.id,
  ]);
});

test('airline orders ignore case and compare by code point', () => {
  const zeta = flight({ airlineName: 'Zeta Air' });
  const alpha = flight({ airlineName: 'alpha' });
  const beta = flight({ airlineName: 'Beta' });
  const accent = flight({ airlineName: 'Ångström' });
  expect(
    ids(queryCatalog([zeta, alpha, beta, accent], query({ sort: 'airline_asc' })).items),
  ).toEqual([alpha.id, beta.id, zeta.id, accent.id]);
  expect(
    ids(queryCatalog([zeta, alpha, beta, accent], query({ sort: 'airline_desc' })).items),
  ).toEqual([accent.id, zeta.id, beta.id, alpha.id]);
});

test('availability orders go by tickets left', () => {
  const few = flight({ tickets: 2 });
  const many = flight({ tickets: 200 });
  expect(ids(queryCatalog([few, many], query({ sort: 'stock_desc' })).items)).toEqual([
    many.id,
    few.id,
  ]);
  expect(ids(queryCatalog([many, few], query({ sort: 'stock_asc' })).items)).toEqual([
    few.id,
    many.id,
  ]);
});

test('prices exactly at the band edges fall in low (20.000) and high (40.000)', () => {
  const atLow = flight({ priceCents: PRICE_BAND_LOW_MAX_CENTS });
  const aboveLow = flight({ priceCents: PRICE_BAND_LOW_MAX_CENTS + 1 });
  const belowHigh = flight({ priceCents: PRICE_BAND_MID_MAX_CENTS - 1 });
  const atHigh = flight({ priceCents: PRICE_BAND_MID_MAX_CENTS });
  const all = [atLow, aboveLow, belowHigh, atHigh];
  expect(ids(queryCatalog(all, query({ band: 'low' })).items)).toEqual([atLow.id]);
  expect(ids(queryCatalog(all, query({ band: 'mid' })).items)).toEqual([aboveLow.id, belowHigh.id]);
  expect(ids(queryCatalog(all, query({ band: 'high' })).items)).toEqual([atHigh.id]);
  expect(queryCatalog(all, query({ band: 'all' })).total).toBe(4);
});

test('the airline filter combines with the price band', () => {
  const aLow = flight({ airlineId: AIRLINE_A, priceCents: 100 });
  const aHigh = flight({ airlineId: AIRLINE_A, priceCents: PRICE_BAND_MID_MAX_CENTS });
  const bLow = flight({ airlineId: AIRLINE_B, priceCents: 100 });
  const result = queryCatalog([aLow, aHigh, bLow], query({ airlineId: AIRLINE_A, band: 'low' }));
  expect(ids(result.items)).toEqual([aLow.id]);
});

test('an airline filter in upper case matches the lower-case id', () => {
  const a = flight({ airlineId: AIRLINE_A });
  expect(queryCatalog([a], query({ airlineId: AIRLINE_A.toUpperCase() })).total).toBe(1);
});

test('search matches the start of the country name, ignoring case and surrounding spaces', () => {
  const arg = flight({ origin: 'Argentina', destination: 'Chile' });
  const arm = flight({ origin: 'Armenia', destination: 'Chile' });
  const result = queryCatalog([arg, arm], query({ origin: '  aRG ' }));
  expect(ids(result.items)).toEqual([arg.id]);
  expect(queryCatalog([arg, arm], query({ origin: 'gentina' })).originNotFound).toBe(true);
});

test('accented names match case-insensitively', () => {
  const aland = flight({ origin: 'Åland Islands', destination: 'Chile' });
  expect(queryCatalog([aland], query({ origin: 'åLA' })).total).toBe(1);
});

test('search with both texts lists flights where both match, or else where either matches', () => {
  const both = flight({ origin: 'Argentina', destination: 'Brazil' });
  const onlyOrigin = flight({ origin: 'Argentina', destination: 'Chile' });
  const onlyDestination = flight({ origin: 'Peru', destination: 'Brazil' });
  const neither = flight({ origin: 'Peru', destination: 'Chile' });
  const search = (flights: Flight[]) =>
    queryCatalog(flights, query({ origin: 'arg', destination: 'bra' }));

  const whereBothMatch = search([both, onlyOrigin, onlyDestination]);
  expect(ids(whereBothMatch.items)).toEqual([both.id]);
  expect(whereBothMatch.originNotFound).toBe(false);

  const whereEitherMatches = search([onlyOrigin, onlyDestination, neither]);
  expect(ids(whereEitherMatches.items)).toEqual([onlyOrigin.id, onlyDestination.id]);
  expect(whereEitherMatches.originNotFound).toBe(false);
});

test('a search that matches nothing is dropped and reported as origin not found', () => {
  const a = flight({ origin: 'Peru', destination: 'Chile' });
  const b = flight({ origin: 'Chile', destination: 'Peru' });
  const result = queryCatalog(
    [a, b],
    query({ origin: 'xan', destination: 'yem', sort: 'initial' }),
  );
  expect(result.originNotFound).toBe(true);
  expect(ids(result.items)).toEqual([a.id, b.id]);
  expect(result.total).toBe(2);
});

test('a destination-only search filters by destination', () => {
  const toBrazil = flight({ origin: 'Peru', destination: 'Brazil' });
  const fromBrazil = flight({ origin: 'Brazil', destination: 'Peru' });
  expect(ids(queryCatalog([toBrazil, fromBrazil], query({ destination: 'bra' })).items)).toEqual([
    toBrazil.id,
  ]);
});

test('the search level is decided over every listed flight, before the airline and band filters', () => {
  const bothOfAirlineB = flight({
    airlineId: AIRLINE_B,
    origin: 'Argentina',
    destination: 'Brazil',
  });
  const eitherOfAirlineA = flight({
    airlineId: AIRLINE_A,
    origin: 'Argentina',
    destination: 'Chile',
  });
  const result = queryCatalog(
    [bothOfAirlineB, eitherOfAirlineA],
    query({ origin: 'arg', destination: 'bra', airlineId: AIRLINE_A }),
  );
  // Both texts match a listed flight (of airline B), so the answer is "both" narrowed to airline A: none.
  expect(result.items).toEqual([]);
  expect(result.originNotFound).toBe(false);
});

test('sold-out flights do not count for the search level', () => {
  const soldOutBoth = flight({ origin: 'Argentina', destination: 'Brazil', tickets: 0 });
  const either = flight({ origin: 'Argentina', destination: 'Chile' });
  expect(searchLevel([either], searchTerms({ origin: 'arg', destination: 'bra' }))).toBe('either');
  expect(
    ids(queryCatalog([soldOutBoth, either], query({ origin: 'arg', destination: 'bra' })).items),
  ).toEqual([either.id]);
});

test('blank search texts mean no search', () => {
  expect(searchTerms(query({ origin: '   ', destination: '' }))).toEqual({});
  expect(searchLevel([flight()], searchTerms(query({ origin: ' ' })))).toBe('none');
});

test('pages hold six flights and the last page holds the rest', () => {
  const flights = Array.from({ length: 14 }, (_, i) => flight({ createdAt: i }));
  const first = queryCatalog(flights, query({ page: 1 }));
  const third = queryCatalog(flights, query({ page: 3 }));
  expect(first.items).toHaveLength(6);
  expect(first.pageCount).toBe(3);
  expect(ids(third.items)).toEqual(ids(flights.slice(12)));
  expect(third.total).toBe(14);
});

test('a page past the end is empty but still reports the total', () => {
  const flights = Array.from({ length: 7 }, (_, i) => flight({ createdAt: i }));
  const result = queryCatalog(flights, query({ page: 5 }));
  expect(result.items).toEqual([]);
  expect(result).toMatchObject({ page: 5, total: 7, pageCount: 2 });
});

test('page counts round up', () => {
  expect(pageCountFor(0, 6)).toBe(0);
  expect(pageCountFor(6, 6)).toBe(1);
  expect(pageCountFor(7, 6)).toBe(2);
});

test('the input list is not reordered', () => {
  const b = flight({ createdAt: 2 });
  const a = flight({ createdAt: 1 });
  const input = [b, a];
  queryCatalog(input, query());
  expect(input).toEqual([b, a]);
});

test('code point order puts characters beyond U+FFFF after U+E000–FFFF, unlike UTF-16 order', () => {
  const astral = '\u{1F600}';
  const privateUse = '\uE000';
  expect(astral < privateUse).toBe(true);
  expect(compareCodePoints(astral, privateUse)).toBeGreaterThan(0);
  expect(compareCodePoints('a', 'b')).toBeLessThan(0);
  expect(compareCodePoints('ab', 'a')).toBeGreaterThan(0);
  expect(compareCodePoints('z', 'å')).toBeLessThan(0);
  expect(compareCodePoints('same', 'same')).toBe(0);
});

test('the comparator is a total order for equal keys only on equal ids', () => {
  const a = flight();
  expect(catalogComparator('price_asc')(a, { ...a })).toBe(0);
});

test('the query schema fills the defaults', () => {
  expect(query()).toEqual({ band: 'all', sort: 'initial', page: 1, pageSize: HOME_PAGE_SIZE });
});

test('the query schema coerces URL strings and treats blanks as absent', () => {
  // What Object.fromEntries(new URLSearchParams('origin=%20arg%20&destination=&…')) gives.
  const params = {
    origin: ' arg ',
    destination: '',
    band: 'mid',
    sort: 'price_desc',
    page: '2',
    pageSize: '12',
  };
  expect(CatalogQuerySchema.parse(params)).toEqual({
    origin: 'arg',
    band: 'mid',
    sort: 'price_desc',
    page: 2,
    pageSize: 12,
  });
});

test.each([
  [{ page: '-1' }, 'page'],
  [{ page: '0' }, 'page'],
  [{ page: '1.5' }, 'page'],
  [{ page: 'abc' }, 'page'],
  [{ page: '999999999999' }, 'page'],
  [{ pageSize: '1000' }, 'pageSize'],
  [{ sort: 'random' }, 'sort'],
  [{ sort: 'price_desc; DROP TABLE flights' }, 'sort'],
  [{ band: 'cheap' }, 'band'],
  [{ airlineId: 'not-a-uuid' }, 'airlineId'],
  [{ airlineId: "1' OR '1'='1" }, 'airlineId'],
  [{ origin: "Robert'); DROP TABLE flights;--" }, 'origin'],
  [{ origin: "' OR 1=1 --" }, 'origin'],
  [{ destination: '100%' }, 'destination'],
  [{ destination: 'a'.repeat(81) }, 'destination'],
  [{ origin: ['a', 'b'] }, 'origin'],
  [{ page: ['1', '2'] }, 'page'],
])('the query schema refuses %j', (input, field) => {
  const result = CatalogQuerySchema.safeParse(input);
  expect(result.success).toBe(false);
  expect(result.error?.issues[0]?.path).toEqual([field]);
});

test('the query schema accepts every country-name character', () => {
  for (const name of [
    "Côte d'Ivoire",
    'Bonaire, Sint Eustatius and Saba',
    'Cocos (Keeling) Islands',
    'Guinea-Bissau',
    'St. Lucia',
  ]) {
    expect(CatalogQuerySchema.safeParse({ origin: name }).success, name).toBe(true);
  }
});

// Departure dates and the fastest order (decision 016) -------------------------------------------

test('a departure range keeps the flights departing on its days, both bounds included', () => {
  const before = flight({ departureDate: '2031-03-06' });
  const first = flight({ departureDate: '2031-03-07' });
  const middle = flight({ departureDate: '2031-03-10' });
  const last = flight({ departureDate: '2031-03-13' });
  const after = flight({ departureDate: '2031-03-14' });
  const all = [before, first, middle, last, after];
  const range = { departureFrom: '2031-03-07', departureTo: '2031-03-13' };
  expect(ids(queryCatalog(all, query(range)).items)).toEqual(ids([first, middle, last]));
  const exact = { departureFrom: '2031-03-10', departureTo: '2031-03-10' };
  expect(ids(queryCatalog(all, query(exact)).items)).toEqual(ids([middle]));
});

test('a departure range reports each day with its lowest price, over every page', () => {
  const flights = [
    flight({ departureDate: '2031-03-08', priceCents: 900_00 }),
    flight({ departureDate: '2031-03-08', priceCents: 300_00 }),
    flight({ departureDate: '2031-03-09', priceCents: 500_00 }),
    flight({ departureDate: '2031-03-11', priceCents: 300_00 }),
    flight({ departureDate: '2031-03-11', priceCents: 700_00, tickets: 0 }),
    flight({ departureDate: '2031-03-20', priceCents: 100_00 }),
  ];
  const page = queryCatalog(
    flights,
    query({ departureFrom: '2031-03-07', departureTo: '2031-03-13', pageSize: 1, page: 2 }),
  );
  expect(page.items).toHaveLength(1);
  expect(page.total).toBe(4);
  expect(page.departureDays).toEqual([
    { date: '2031-03-08', lowestPriceCents: 300_00, flights: 2 },
    { date: '2031-03-09', lowestPriceCents: 500_00, flights: 1 },
    { date: '2031-03-11', lowestPriceCents: 300_00, flights: 1 },
  ]);
  expect(cheapestDays(page.departureDays!)).toEqual(new Set(['2031-03-08', '2031-03-11']));
  expect(queryCatalog(flights, query()).departureDays).toBeUndefined();
});

test('a departure range narrows a search like the airline filter: never "not found"', () => {
  const flights = [flight({ origin: 'Chile', departureDate: '2031-03-01' })];
  const page = queryCatalog(flights, query({ origin: 'chi', ...departureWindow('2031-04-04', 3) }));
  expect(page).toMatchObject({ total: 0, originNotFound: false, departureDays: [] });
});

test('flight minutes are arrival minus departure across midnight, months and leap days', () => {
  const minutes = (
    departureDate: string,
    departureHour: string,
    arrivalDate: string,
    arrivalHour: string,
  ) => flightMinutes({ departureDate, departureHour, arrivalDate, arrivalHour });
  expect(minutes('2030-01-10', '10:00', '2030-01-10', '14:30')).toBe(270);
  expect(minutes('2031-12-31', '23:00', '2032-01-01', '01:15')).toBe(135);
  expect(minutes('2032-02-28', '10:00', '2032-03-01', '10:00')).toBe(2 * 1440);
  expect(minutes('2100-02-28', '00:00', '2100-03-01', '00:00')).toBe(1440);
  // Hours carry no time zone: an arrival "before" its departure on one clock sorts first.
  expect(minutes('2030-01-10', '10:00', '2030-01-10', '08:00')).toBe(-120);
});

test('the fastest order is the shortest flight first, ties by id', () => {
  const long = flight({ departureHour: '08:00', arrivalHour: '20:00' });
  const overnight = flight({
    departureHour: '23:30',
    arrivalDate: '2030-01-11',
    arrivalHour: '01:00',
  });
  const tieB = flight({ id: 'bbbbbbbb-0000-4000-8000-000000000000', arrivalHour: '12:00' });
  const tieA = flight({ id: 'aaaaaaaa-0000-4000-8000-000000000000', arrivalHour: '12:00' });
  const result = queryCatalog([long, tieB, overnight, tieA], query({ sort: 'fastest' }));
  expect(ids(result.items)).toEqual(ids([overnight, tieA, tieB, long]));
});

test('a date chosen with a flexibility is a window of calendar days', () => {
  expect(departureWindow('2031-03-01', 3)).toEqual({
    departureFrom: '2031-02-26',
    departureTo: '2031-03-04',
  });
  expect(departureWindow('2032-02-29', 1)).toEqual({
    departureFrom: '2032-02-28',
    departureTo: '2032-03-01',
  });
  expect(departureWindow('2031-12-31', 0)).toEqual({
    departureFrom: '2031-12-31',
    departureTo: '2031-12-31',
  });
  expect(addDays('2031-12-31', 1)).toBe('2032-01-01');
  expect(daysBetween('2031-02-27', '2031-03-02')).toEqual([
    '2031-02-27',
    '2031-02-28',
    '2031-03-01',
    '2031-03-02',
  ]);
});

test('the query schema takes departure dates as yyyy-mm-dd', () => {
  // At most 31 days, both ends included: March is the longest range.
  expect(
    CatalogQuerySchema.parse({ departureFrom: '2031-03-01', departureTo: '2031-03-31' }),
  ).toMatchObject({ departureFrom: '2031-03-01', departureTo: '2031-03-31' });
  expect(
    CatalogQuerySchema.parse({
      departureFrom: ' 2031-03-07 ',
      departureTo: '2031-03-07',
      origin: '',
      sort: 'fastest',
    }),
  ).toEqual({
    departureFrom: '2031-03-07',
    departureTo: '2031-03-07',
    band: 'all',
    sort: 'fastest',
    page: 1,
    pageSize: HOME_PAGE_SIZE,
  });
});

test.each([
  [{ departureFrom: '2031-02-30' }, 'departureFrom'],
  [{ departureFrom: '2031-3-7' }, 'departureFrom'],
  [{ departureFrom: '07/03/2031' }, 'departureFrom'],
  [{ departureFrom: '0999-01-01' }, 'departureFrom'],
  [{ departureTo: '2031-03-07T00:00:00Z' }, 'departureTo'],
  [{ departureTo: "2031-03-07' OR '1'='1" }, 'departureTo'],
  [{ departureFrom: ['2031-03-07', '2031-03-08'] }, 'departureFrom'],
  [{ departureFrom: '2031-03-08', departureTo: '2031-03-07' }, 'departureTo'],
  [{ departureFrom: '2031-03-08' }, 'departureTo'],
  [{ departureTo: '2031-03-08' }, 'departureFrom'],
  [{ departureFrom: '2031-03-01', departureTo: '2031-04-01' }, 'departureTo'],
])('the query schema refuses the dates %j', (input, field) => {
  const result = CatalogQuerySchema.safeParse(input);
  expect(result.success).toBe(false);
  expect(result.error?.issues[0]?.path).toEqual([field]);
});
