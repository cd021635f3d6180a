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
 * Page numbers over keyset reads (docs/architecture.md §12):
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
 */

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

  constructor(private readonly sql: Sql) {}

  /** The catalogue's current version (If-None-Match): an O(1) statement. */
  async version(): Promise<string> {
    const { revision, version } = await findCatalogVersion(this.sql);
    this.seen(revision);
    return version;
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
