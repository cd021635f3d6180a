import { hasDepartureRange, searchTerms, type CatalogQuery, type PriceBand } from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import {
  DEEP_OFFSET,
  datedListingStatement,
  findAirlineListingSizes,
  findCatalogVersion,
  listingStatement,
  runPageStatement,
  searchStatement,
  type ListingStrategy,
  type PageResult,
  type Position,
} from './queries.ts';

/*
 * Pages of GET /api/flights: which statement answers a query (queries.ts), and what this instance
 * remembers to answer it cheaply. What is remembered only picks how the rows are read: listing
 * sizes choose a plan, and a remembered position is used only when the statement reads the same
 * catalogue version it was remembered at (an exact version: queries.ts `STATE`).
 *
 * Page numbers over keyset reads (docs/architecture.md §7):
 * - `?after=` / `?before=` cursors (cursor.ts) read one page of the ordering's index from a
 *   flight's position; the answer's Link header gives the next and previous pages' cursors.
 * - `?page=N` alone: page 1 and near pages are a short index walk. A deep page is a walk of
 *   (N-1)×size index entries, index-only and from whichever end is nearer; its first flight is
 *   then remembered as the page's boundary key, with the catalogue version it was read at, and so
 *   are the boundaries of the pages on either side (after its last flight, before its first). The
 *   next request for such a page reads it by position (one page of the index) and is answered
 *   from it only if the statement's version is still the remembered one; otherwise it walks
 *   again. Any write to flights changes the version, so after a write every deep page is walked
 *   once more; between writes, deep pages cost what page 1 costs.
 *
 * Remembered answers (`answer`, used by the route): a query string answered before is checked by
 * the version statement alone and answered with the same bytes while the version is the same;
 * after a write, one page statement answers all the requests that read the new version meanwhile.
 */

/** Most answers remembered (the least recently used are forgotten first)… */
const MAX_ANSWERS = 2_000;
/** …and at most this many characters of them in all (a page of 60 flights is ~35,000). */
const MAX_ANSWER_CHARS = 16 * 1024 * 1024;
/** Most page boundaries remembered (the oldest are forgotten first); ~200 bytes each. */
const MAX_BOUNDARIES = 20_000;
/** How long listing sizes per airline are trusted for choosing a strategy. */
const SIZES_TTL_MS = 10_000;

interface Sizes {
  loadedAt: number;
  byAirline: Map<string, Record<Exclude<PriceBand, 'all'>, number>>;
  all: Record<Exclude<PriceBand, 'all'>, number>;
}

function countIn(counts: Record<Exclude<PriceBand, 'all'>, number>, band: PriceBand): number {
  return band === 'all' ? counts.low + counts.mid + counts.high : counts[band];
}

export class CatalogPages {
  /** The newest catalogue revision any statement of this instance has read. */
  private latestRevision = 0;
  private readonly boundaries = new Map<
    string,
    { revision: number; version: string; position: Position }
  >();
  private sizes: Sizes | undefined;
  private sizesLoading: Promise<Sizes> | undefined;
  /** Answers by request (`answer`'s key), least recently used first. */
  private readonly answers = new Map<string, PageResult>();
  private answerChars = 0;
  /** The page statement running for a request key, for the requests that arrive meanwhile. */
  private readonly reading = new Map<string, Promise<PageResult>>();

  /**
   * The version statement the requests arriving now will share: sent once the event loop has
   * handled the requests that are ready (setImmediate), so after every one of them arrived.
   */
  private nextVersion: Promise<{ revision: number; version: string }> | undefined;

  constructor(private readonly sql: Sql) {}

  /**
   * The catalogue's current version (If-None-Match, and the check of a remembered answer): an O(1)
   * statement, shared by the requests that ask for it in the same turn of the event loop. Every
   * caller gets a version read by a statement sent after it asked, so it sees every write
   * committed before its request arrived, as with a statement of its own; it never joins a
   * statement already sent. Under load this turns one version statement per request (~60-90 µs
   * of PostgreSQL's CPU and ~40 µs of the server's) into one per batch of requests.
   */
  async version(): Promise<string> {
    let next = this.nextVersion;
    if (!next) {
      next = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
        // Sent now: later callers start the next batch.
        this.nextVersion = undefined;
        return findCatalogVersion(this.sql);
      });
      this.nextVersion = next;
    }
    const { revision, version } = await next;
    this.seen(revision);
    return version;
  }

  /**
   * The answer to a request: `key` names it exactly (the query string, of which `query` and
   * `position` are pure functions). A request this instance answered before is checked with the
   * version statement alone (or with `currentVersion`, when the caller has just read it): the
   * same version means the same flights and counts (queries.ts `STATE`), so the remembered answer
   * is the one the page statement would give now, byte for byte. Otherwise the page is read, once
   * for all the requests that saw the same version meanwhile.
   */
  async answer(
    key: string,
    query: CatalogQuery,
    position: Position | undefined,
    currentVersion?: string,
  ): Promise<PageResult> {
    if (!this.answers.has(key)) return this.read(key, query, position);
    const version = currentVersion ?? (await this.version());
    // Looked up after the version is read: another request may have remembered a newer answer.
    const known = this.answers.get(key);
    if (known?.version === version) {
      // Most recently used: to the end of the map's order.
      this.answers.delete(key);
      this.answers.set(key, known);
      return known;
    }
    // Stale. When another request's read is under way, its answer serves this one too if it was
    // read at the version this request read (the catalogue as it was after this one arrived).
    const pending = this.reading.get(key);
    if (pending) {
      const shared = await pending.catch(() => undefined);
      if (shared?.version === version) return shared;
    }
    return this.read(key, query, position);
  }

  /** Reads a page for `key` and remembers the answer (unless a newer one is remembered). */
  private read(key: string, query: CatalogQuery, position: Position | undefined) {
    const reading = this.find(query, position).then((result) => {
      const old = this.answers.get(key);
      if (old && old.revision > result.revision) return result;
      if (old) this.answerChars -= old.body.length;
      this.answers.delete(key);
      this.answers.set(key, result);
      this.answerChars += result.body.length;
      while (this.answers.size > MAX_ANSWERS || this.answerChars > MAX_ANSWER_CHARS) {
        const [oldestKey, oldest] = this.answers.entries().next().value!;
        this.answers.delete(oldestKey);
        this.answerChars -= oldest.body.length;
      }
      return result;
    });
    this.reading.set(key, reading);
    const forget = () => {
      if (this.reading.get(key) === reading) this.reading.delete(key);
    };
    reading.then(forget, forget);
    return reading;
  }

  /** One page, as `queryCatalog` would list it, from a position or by page number. */
  async find(query: CatalogQuery, position?: Position): Promise<PageResult> {
    const search = searchTerms(query);
    const offset = (query.page - 1) * query.pageSize;
    if (search.origin !== undefined || search.destination !== undefined) {
      let found = await this.run(searchStatement({ query, position, offset }, search), query);
      if (found.level === 'notBoth') {
        found = await this.run(
          searchStatement({ query, position, offset }, search, 'either'),
          query,
        );
      }
      if (found.level !== 'notFound') return found;
      // The search matched no listed flight: the listing without it, flagged.
    }
    const kind = search.origin !== undefined || search.destination !== undefined;
    // A departure range is read from the date index and sorted, however deep the page: no
    // boundary is remembered for it (decision 016).
    if (hasDepartureRange(query)) {
      return this.run(
        datedListingStatement({ query, position, offset }),
        query,
        kind ? 'notFound' : 'listing',
      );
    }
    return this.listing(query, position, offset, kind ? 'notFound' : 'listing');
  }

  private async listing(
    query: CatalogQuery,
    position: Position | undefined,
    offset: number,
    kind: 'listing' | 'notFound',
  ): Promise<PageResult> {
    const strategy = await this.strategyFor(query, position ? 0 : offset);
    const read = (request: { position?: Position; offset: number }) =>
      this.run(listingStatement({ query, ...request }, strategy), query, kind);
    if (position || offset < DEEP_OFFSET) return read({ position, offset });

    const key = boundaryKey(query, query.page);
    const known = this.boundaries.get(key);
    if (known && known.revision >= this.latestRevision) {
      const result = await read({ position: known.position, offset: 0 });
      if (result.version === known.version) {
        this.remember(query, result);
        return result;
      }
    }
    const result = await read({ offset });
    this.remember(query, result);
    return result;
  }

  private async run(
    statement: { text: string; values: unknown[] },
    query: CatalogQuery,
    kind: 'listing' | 'search' | 'notFound' = 'search',
  ): Promise<PageResult> {
    const result = await runPageStatement(this.sql, statement, query, kind);
    this.seen(result.revision);
    return result;
  }

  private seen(revision: number) {
    if (revision > this.latestRevision) this.latestRevision = revision;
  }

  /** Remembers the boundaries of a deep page read at `result.revision`, and of its neighbours. */
  private remember(query: CatalogQuery, result: PageResult) {
    const { first, last, revision, version } = result;
    if (!first || !last) return;
    const offset = (query.page - 1) * query.pageSize;
    const set = (page: number, position: Position) => {
      const key = boundaryKey(query, page);
      this.boundaries.delete(key);
      this.boundaries.set(key, { revision, version, position });
      if (this.boundaries.size > MAX_BOUNDARIES) {
        const oldest = this.boundaries.keys().next().value;
        if (oldest !== undefined) this.boundaries.delete(oldest);
      }
    };
    set(query.page, { kind: 'from', ...first });
    if (offset + query.pageSize < result.total) set(query.page + 1, { kind: 'after', ...last });
    if (offset - query.pageSize >= DEEP_OFFSET) set(query.page - 1, { kind: 'before', ...first });
  }

  /**
   * Walk the ordering's index or sort the airline's flights: whichever reads fewer index entries.
   * A walk reads about (offset + size) × listed / matching entries; a sort reads the matching
   * flights of that airline once. An airline page sorted by airline name is always sorted: its
   * flights sit together anywhere along the name index. The sizes are at most 10 s old; they only
   * choose the plan.
   */
  private async strategyFor(query: CatalogQuery, offset: number): Promise<ListingStrategy> {
    if (query.airlineId === undefined) return 'walk';
    if (query.sort === 'airline_asc' || query.sort === 'airline_desc') return 'sort';
    const sizes = await this.listingSizes();
    const airline = sizes.byAirline.get(query.airlineId);
    const matching = airline ? countIn(airline, query.band) : 0;
    if (matching === 0) return 'sort';
    const listed = countIn(sizes.all, 'all');
    const walked = ((offset + query.pageSize) * listed) / matching;
    return walked <= 2 * matching ? 'walk' : 'sort';
  }

  private async listingSizes(): Promise<Sizes> {
    const now = Date.now();
    if (this.sizes && now - this.sizes.loadedAt < SIZES_TTL_MS) return this.sizes;
    if (!this.sizesLoading) {
      this.sizesLoading = findAirlineListingSizes(this.sql)
        .then((rows) => {
          const all = { low: 0, mid: 0, high: 0 };
          const byAirline = new Map<string, { low: number; mid: number; high: number }>();
          for (const { airlineId, low, mid, high } of rows) {
            byAirline.set(airlineId, { low, mid, high });
            all.low += low;
            all.mid += mid;
            all.high += high;
          }
          this.sizes = { loadedAt: Date.now(), byAirline, all };
          return this.sizes;
        })
        .finally(() => {
          this.sizesLoading = undefined;
        });
      // Refreshing in the background: a failure leaves the stale sizes, retried next time.
      if (this.sizes) this.sizesLoading.catch(() => {});
    }
    // Stale sizes still choose well while fresh ones load; only the first request waits.
    return this.sizes ?? this.sizesLoading;
  }
}

function boundaryKey(query: CatalogQuery, page: number): string {
  return `${query.sort}|${query.band}|${query.airlineId ?? ''}|${query.pageSize}|${page}`;
}

const instances = new WeakMap<Sql, CatalogPages>();

/** The pages of one database handle (one per server instance). */
export function catalogPages(sql: Sql): CatalogPages {
  let pages = instances.get(sql);
  if (!pages) {
    pages = new CatalogPages(sql);
    instances.set(sql, pages);
  }
  return pages;
}
