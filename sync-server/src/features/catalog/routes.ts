import { Hono, type Context } from 'hono';
import {
  AirlineListQuerySchema,
  CatalogQuerySchema,
  FlightIdParamSchema,
  HOME_PAGE_SIZE,
  ReviewListQuerySchema,
  type CatalogQuery,
} from '@skyport/shared';
import type { ServerDeps } from '../../deps.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import { validate } from '../../lib/validate.ts';
import { encodeCursor, positionFromQuery } from './cursor.ts';
import { catalogPages } from './pages.ts';
import type { PageResult, Position } from './queries.ts';
import { findAirlinePage, findFlightById, findReviewPage } from './queries.ts';

/**
 * The public catalogue (spec §7 GET /flights, /airlines, /comments, and a flight's detail),
 * readable by anyone. Queries are parsed with the shared schemas, so the PWA's URL and the API
 * accept exactly the same parameters.
 */

/**
 * How long a shared cache (a CDN) or a browser may reuse a catalogue page without asking, and how
 * long past that it may still serve it while it revalidates in the background. Short: stock
 * changes with every sale, and the checkout checks stock and price anyway. The answer is the
 * same for everyone (no cookie is read or set by GET /api/flights), so it may be cached publicly.
 */
export const CATALOG_CACHE_CONTROL = 'public, max-age=5, stale-while-revalidate=30';

/**
 * The validator of every catalogue page: the catalogue's version, read in the same statement as
 * the page, exact (queries.ts `STATE`: any committed flight write changes it), so the same URL at
 * the same version is the same answer, byte for byte. The prefix names the answer's format and
 * the version's: change it when either changes.
 */
export function catalogEtag(version: string): string {
  return `"c2-${version}"`;
}

/** If-None-Match (weak comparison, RFC 9110 §13.1.2): `*` or one of the listed tags. */
export function etagMatches(header: string, etag: string): boolean {
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((part) => {
    const tag = part.trim();
    return tag === '*' || tag.replace(/^W\//, '') === opaque;
  });
}

/** The query string of a catalogue page: the parsed query's non-default parameters, in order. */
function catalogUrl(
  path: string,
  query: CatalogQuery,
  page: number,
  cursor?: [string, string],
): string {
  const params = new URLSearchParams();
  if (query.origin !== undefined) params.set('origin', query.origin);
  if (query.destination !== undefined) params.set('destination', query.destination);
  if (query.airlineId !== undefined) params.set('airlineId', query.airlineId);
  if (query.band !== 'all') params.set('band', query.band);
  if (query.departureFrom !== undefined) params.set('departureFrom', query.departureFrom);
  if (query.departureTo !== undefined) params.set('departureTo', query.departureTo);
  if (query.sort !== 'initial') params.set('sort', query.sort);
  params.set('page', String(page));
  if (query.pageSize !== HOME_PAGE_SIZE) params.set('pageSize', String(query.pageSize));
  if (cursor) params.set(cursor[0], cursor[1]);
  return `${path}?${params}`;
}

/**
 * RFC 8288 links to the next and previous pages by keyset cursor (cursor.ts): following them
 * reads one page of the index however deep the page is.
 */
function pageLinks(path: string, query: CatalogQuery, result: PageResult): string | undefined {
  if (!result.first || !result.last) return undefined;
  const links: string[] = [];
  const pageCount = Math.ceil(result.total / query.pageSize);
  if (query.page < pageCount) {
    const next = catalogUrl(path, query, query.page + 1, [
      'after',
      encodeCursor(query.sort, result.last),
    ]);
    links.push(`<${next}>; rel="next"`);
  }
  if (query.page > 1) {
    const prev = catalogUrl(path, query, query.page - 1, [
      'before',
      encodeCursor(query.sort, result.first),
    ]);
    links.push(`<${prev}>; rel="prev"`);
  }
  return links.length > 0 ? links.join(', ') : undefined;
}

/** Most parsed catalogue requests remembered (the oldest are forgotten first). */
const MAX_PARSED_QUERIES = 1000;

/** A request of GET /api/flights: its query string, the parsed query and its cursor's position. */
interface CatalogRequest {
  key: string;
  query: Readonly<CatalogQuery>;
  position: Position | undefined;
}

/**
 * The parsed request of GET /api/flights: the shared schema's query, through the same validator
 * (and the same 400s) as every route, and the cursor's position, remembered per query string, of
 * which both are pure functions (a few URLs, the landing page first, make most of the traffic).
 * A request that is a 400 is never remembered.
 */
function catalogRequests() {
  const validateQuery = validate('query', CatalogQuerySchema);
  const parsed = new Map<string, CatalogRequest>();
  return async (c: Context): Promise<CatalogRequest> => {
    const url = c.req.url;
    const at = url.indexOf('?');
    const key = at < 0 ? '' : url.slice(at + 1);
    const known = parsed.get(key);
    if (known) return known;
    await validateQuery(c, async () => {});
    const query = Object.freeze(
      (c.req as unknown as { valid(target: 'query'): CatalogQuery }).valid('query'),
    );
    const position = positionFromQuery(
      { after: c.req.query('after'), before: c.req.query('before') },
      query,
    );
    if (parsed.size >= MAX_PARSED_QUERIES) parsed.delete(parsed.keys().next().value!);
    const request = { key, query, position };
    parsed.set(key, request);
    return request;
  };
}

function setCacheHeaders(c: Context, version: string) {
  c.header('ETag', catalogEtag(version));
  c.header('Cache-Control', CATALOG_CACHE_CONTROL);
}

export function catalogRoutes({ sql }: Pick<ServerDeps, 'sql'>) {
  const pages = catalogPages(sql);
  const catalogRequest = catalogRequests();
  // The Link header of a remembered answer is the same for every request it answers.
  const linksOf = new WeakMap<PageResult, string | undefined>();
  return new Hono()
    .get('/flights', async (c) => {
      const { key, query, position } = await catalogRequest(c);
      const ifNoneMatch = c.req.header('if-none-match');
      let version: string | undefined;
      if (ifNoneMatch !== undefined) {
        // Revalidation: the version alone (an O(1) statement), and no page at all if unchanged.
        version = await pages.version();
        if (etagMatches(ifNoneMatch, catalogEtag(version))) {
          setCacheHeaders(c, version);
          return c.body(null, 304);
        }
      }
      const result = await pages.answer(key, query, position, version);
      setCacheHeaders(c, result.version);
      let links = linksOf.get(result);
      if (links === undefined && !linksOf.has(result)) {
        links = pageLinks(c.req.path, query, result);
        linksOf.set(result, links);
      }
      if (links) c.header('Link', links);
      return c.body(result.body, 200, { 'Content-Type': 'application/json' });
    })
    .get('/flights/:id', validate('param', FlightIdParamSchema), async (c) => {
      const { id } = c.req.valid('param');
      const flight = await findFlightById(sql, id);
      if (!flight) throw new AppError(ErrorCode.NotFound, 'Flight not found');
      return c.json(flight);
    })
    .get('/airlines', validate('query', AirlineListQuerySchema), async (c) => {
      return c.json(await findAirlinePage(sql, c.req.valid('query')));
    })
    .get('/comments', validate('query', ReviewListQuerySchema), async (c) => {
      return c.json(await findReviewPage(sql, c.req.valid('query')));
    });
}
