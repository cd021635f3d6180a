import { z } from 'zod';
import { text } from './text.ts';
import { HOME_PAGE_SIZE } from '../constants.ts';
import { PRICE_BANDS } from '../rules/pricing.ts';
import { AirlineSchema } from './airline.ts';
import { FlightSchema } from './flight.ts';
import { DateStringSchema } from './common.ts';
import { addDays } from '../dates.ts';
import { ReviewSchema } from './review.ts';

/**
 * The home screen's orderings (spec §4): price high→low and low→high, airline A→Z and Z→A,
 * availability high→low and low→high, plus `initial` (creation order) and Skyport's own `fastest`
 * (shortest flight first: `flightMinutes`, decision 016). Every order breaks ties by flight id
 * ascending, so the server and the local database list exactly the same pages.
 */
export const CATALOG_SORTS = [
  'initial',
  'price_desc',
  'price_asc',
  'airline_asc',
  'airline_desc',
  'stock_desc',
  'stock_asc',
  'fastest',
] as const;
export type CatalogSort = (typeof CATALOG_SORTS)[number];

/** Highest page number accepted; deeper pages of OFFSET pagination only cost the database. */
export const CATALOG_MAX_PAGE = 100_000;
/** Largest page size a client may ask for. */
export const CATALOG_MAX_PAGE_SIZE = 60;
/**
 * Most days a departure range may cover, both ends included. A range's total is counted over its
 * flights (no maintained count per day), so its cost grows with its width: a month of a 100,000-
 * flight catalogue is ~8,000 flights (decision 016). The home screen asks for 7 at most.
 */
export const CATALOG_MAX_DEPARTURE_DAYS = 31;
/** Longest origin/destination search text (the longest country name has 52 characters). */
export const SEARCH_TEXT_MAX_LENGTH = 80;
/** Default and largest page of the airline list (the autocomplete wants all of them at once). */
export const AIRLINES_PAGE_SIZE = 50;
export const AIRLINES_MAX_PAGE_SIZE = 100;
/** Default page of reviews under a flight. */
export const REVIEWS_PAGE_SIZE = 20;

/**
 * Security: search text is a country-name prefix, so only the characters country names use are
 * accepted (letters, accents, spaces, apostrophes, dots, commas, hyphens, parentheses). Anything
 * else (quotes with semicolons, `=`, digits, `%`, `_`) is refused with 400 instead of being searched.
 */
const SEARCH_TEXT_PATTERN = /^[\p{L}\p{M} '’.,()-]*$/u;

/** Query-string values: an empty or blank parameter counts as absent. */
function blankAsAbsent(value: unknown): unknown {
  return typeof value === 'string' && value.trim() === '' ? undefined : value;
}

/** A whole number from a query string ("3") or from code (3), within [min, max]. */
function wholeNumberParam(min: number, max: number) {
  return z.preprocess(
    (value) => {
      const present = blankAsAbsent(value);
      return typeof present === 'string' && /^\s*[+-]?\d+\s*$/.test(present)
        ? Number(present)
        : present;
    },
    z
      .number({ error: 'Must be a whole number' })
      .int({ error: 'Must be a whole number' })
      .min(min, { error: `Must be at least ${min}` })
      .max(max, { error: `Must be at most ${max}` }),
  );
}

/** Origin or destination search text: trimmed; blank means no search. */
const SearchTextParam = z.preprocess(
  blankAsAbsent,
  text({ error: 'Must be text' })
    .trim()
    .max(SEARCH_TEXT_MAX_LENGTH, { error: `Must be at most ${SEARCH_TEXT_MAX_LENGTH} characters` })
    .regex(SEARCH_TEXT_PATTERN, {
      error: "Use letters, spaces and ' . , ( ) - only",
    })
    .optional(),
);

/** The same check as `IdSchema`, with a message fit for a query parameter. */
const UuidParam = z.uuid({ error: 'Must be a UUID' });

/** An id filter: a UUID, compared in lower case (the database prints UUIDs in lower case). */
const IdParam = z.preprocess(
  blankAsAbsent,
  text({ error: 'Must be text' })
    .trim()
    .pipe(UuidParam)
    .transform((id) => id.toLowerCase())
    .optional(),
);

/**
 * A departure date bound: a real calendar date, `yyyy-mm-dd` (years 1000–9999, so that text order
 * is date order). The flight's own departure date, as stored and shown, never shifted through a
 * time zone (decision 016).
 */
const DepartureDateParam = z.preprocess(
  blankAsAbsent,
  text({ error: 'Must be a date (yyyy-mm-dd)' })
    .trim()
    .pipe(
      z.iso
        .date({ error: 'Must be a date (yyyy-mm-dd)' })
        .regex(/^[1-9]/, { error: 'Must be a date (yyyy-mm-dd)' }),
    )
    .optional(),
);

function enumParam<const T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) {
  return z.preprocess(
    blankAsAbsent,
    z.enum(values, { error: `Must be one of: ${values.join(', ')}` }).default(fallback),
  );
}

/**
 * The home catalogue query (spec §4): origin/destination search text, airline filter, price band,
 * departure dates (both bounds together, inclusive, at most `CATALOG_MAX_DEPARTURE_DAYS` days;
 * decision 016), one ordering, and a 1-based page. Parses a URL's query string
 * (`Object.fromEntries(params)`) on the server and in the PWA alike; absent or blank parameters
 * take their defaults.
 */
export const CatalogQuerySchema = z
  .object({
    origin: SearchTextParam,
    destination: SearchTextParam,
    airlineId: IdParam,
    band: enumParam(PRICE_BANDS, 'all'),
    departureFrom: DepartureDateParam,
    departureTo: DepartureDateParam,
    sort: enumParam(CATALOG_SORTS, 'initial'),
    page: wholeNumberParam(1, CATALOG_MAX_PAGE).default(1),
    pageSize: wholeNumberParam(1, CATALOG_MAX_PAGE_SIZE).default(HOME_PAGE_SIZE),
  })
  .superRefine((query, context) => {
    const { departureFrom: from, departureTo: to } = query;
    if (from === undefined && to === undefined) return;
    const issue = (path: 'departureFrom' | 'departureTo', message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if (from === undefined) return issue('departureFrom', 'Give it with departureTo');
    if (to === undefined) return issue('departureTo', 'Give it with departureFrom');
    if (from > to) return issue('departureTo', 'Must be on or after departureFrom');
    if (addDays(from, CATALOG_MAX_DEPARTURE_DAYS - 1) < to) {
      issue(
        'departureTo',
        `Must be at most ${CATALOG_MAX_DEPARTURE_DAYS - 1} days after departureFrom`,
      );
    }
  });
/** A parsed catalogue query, every default filled in. */
export type CatalogQuery = z.output<typeof CatalogQuerySchema>;
/** What a caller may pass before parsing (all optional). */
export type CatalogQueryInput = z.input<typeof CatalogQuerySchema>;

/** `GET /api/airlines`: a page of airlines, A→Z. */
export const AirlineListQuerySchema = z.object({
  page: wholeNumberParam(1, CATALOG_MAX_PAGE).default(1),
  pageSize: wholeNumberParam(1, AIRLINES_MAX_PAGE_SIZE).default(AIRLINES_PAGE_SIZE),
});
export type AirlineListQuery = z.output<typeof AirlineListQuerySchema>;

/** `GET /api/comments`: a page of reviews, newest first, optionally of one airline and/or flight. */
export const ReviewListQuerySchema = z.object({
  airlineId: IdParam,
  flightId: IdParam,
  page: wholeNumberParam(1, CATALOG_MAX_PAGE).default(1),
  pageSize: wholeNumberParam(1, CATALOG_MAX_PAGE_SIZE).default(REVIEWS_PAGE_SIZE),
});
export type ReviewListQuery = z.output<typeof ReviewListQuerySchema>;

/** `GET /api/flights/:id`. */
export const FlightIdParamSchema = z.object({
  id: UuidParam.transform((id) => id.toLowerCase()),
});

/** The paging fields every list answer carries. `pageCount` is 0 when nothing matches. */
const PageFields = {
  page: z.number().int().min(1),
  pageSize: z.number().int().min(1),
  total: z.number().int().nonnegative(),
  pageCount: z.number().int().nonnegative(),
};

/** One departure day of a dated catalogue query: its cheapest matching flight and how many match. */
export const DepartureDaySchema = z.object({
  date: DateStringSchema,
  lowestPriceCents: z.number().int().nonnegative(),
  flights: z.number().int().min(1),
});
export type DepartureDay = z.infer<typeof DepartureDaySchema>;

/**
 * One page of the home catalogue. `originNotFound` is true when the search text matched no listed
 * flight: the answer then ignores the search (spec: "opps... Origin not found" and the filter resets).
 * `departureDays`, only when the query has a departure date bound: every day of the range on which
 * a matching flight departs (all the query's filters, every page), in date order, with its lowest
 * price; the days' `flights` add up to `total`.
 */
export const FlightCatalogPageSchema = z.object({
  items: z.array(FlightSchema),
  ...PageFields,
  originNotFound: z.boolean(),
  departureDays: z.array(DepartureDaySchema).optional(),
});
export type FlightCatalogPage = z.infer<typeof FlightCatalogPageSchema>;

export const AirlinePageSchema = z.object({ items: z.array(AirlineSchema), ...PageFields });
export type AirlinePage = z.infer<typeof AirlinePageSchema>;

/**
 * One page of reviews. With an airline or flight filter, `averageRating` is the mean rating of all
 * matching reviews (not only this page) rounded to the nearest half star, or null without reviews;
 * unfiltered it is null.
 */
export const ReviewPageSchema = z.object({
  items: z.array(ReviewSchema),
  ...PageFields,
  averageRating: z.number().min(0).max(5).nullable(),
});
export type ReviewPage = z.infer<typeof ReviewPageSchema>;

/** The flight detail screen: a flight, readable even when sold out, with `soldOut` set then. */
export const FlightDetailSchema = FlightSchema.extend({ soldOut: z.boolean() });
export type FlightDetail = z.infer<typeof FlightDetailSchema>;
