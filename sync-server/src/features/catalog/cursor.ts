import { z } from 'zod';
import { CATALOG_SORTS, type CatalogQuery, type CatalogSort } from '@skyport/shared';
import { AppError, ErrorCode } from '../../lib/errors.ts';
import type { Boundary, Position } from './queries.ts';

/*
 * Keyset cursors of GET /api/flights. A cursor names one flight's place in one ordering (its sort
 * key and id); `?after=<cursor>` is the page that follows that flight, `?before=<cursor>` the page
 * that ends just before it, whatever was inserted or sold out meanwhile, at the cost of reading
 * one page of the ordering's index. The answer's `Link` header carries the cursors of the next
 * and previous pages (rel="next" / rel="prev"); `page` still labels the answer.
 *
 * The cursor is base64url of `[sort, key, id]`. It is opaque to clients but not secret: any
 * well-formed cursor is just a position, and its values only ever travel as SQL parameters.
 */

/** Longest cursor accepted (an airline name of 200 characters, base64-encoded, fits). */
const CURSOR_MAX_LENGTH = 1024;
const INT4_MAX = 2_147_483_647;

const IntegerKey = z.number().int().min(-Number.MAX_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER);
const KEY_SCHEMAS: Record<CatalogSort, z.ZodType<number | string>> = {
  initial: IntegerKey,
  price_asc: IntegerKey,
  price_desc: IntegerKey,
  airline_asc: z.string().max(400),
  airline_desc: z.string().max(400),
  stock_asc: z.number().int().min(-INT4_MAX).max(INT4_MAX),
  stock_desc: z.number().int().min(-INT4_MAX).max(INT4_MAX),
  fastest: z.number().int().min(-INT4_MAX).max(INT4_MAX),
};

const CursorSchema = z.tuple([z.enum(CATALOG_SORTS), z.union([z.number(), z.string()]), z.uuid()]);

export function encodeCursor(sort: CatalogSort, boundary: Boundary): string {
  return Buffer.from(JSON.stringify([sort, boundary.key, boundary.id])).toString('base64url');
}

function decodeCursor(
  name: 'after' | 'before',
  text: string,
  sort: CatalogSort,
): Boundary | undefined {
  if (text.length > CURSOR_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = CursorSchema.safeParse(value);
  if (!parsed.success) return undefined;
  const [cursorSort, key, id] = parsed.data;
  if (cursorSort !== sort) {
    throw new AppError(ErrorCode.BadRequest, `${name}: The cursor is of another order`, [
      { path: name, message: 'The cursor is of another order' },
    ]);
  }
  const checked = KEY_SCHEMAS[sort].safeParse(key);
  return checked.success ? { key: checked.data, id: id.toLowerCase() } : undefined;
}

/**
 * The keyset position a request asks for (`after` or `before`, at most one), checked against the
 * query's order; a malformed cursor is a 400 in the shape of every validation error.
 */
export function positionFromQuery(
  params: { after?: string | undefined; before?: string | undefined },
  query: Pick<CatalogQuery, 'sort'>,
): Position | undefined {
  const after = params.after?.trim() || undefined;
  const before = params.before?.trim() || undefined;
  if (after !== undefined && before !== undefined) {
    throw new AppError(ErrorCode.BadRequest, 'before: Give after or before, not both', [
      { path: 'before', message: 'Give after or before, not both' },
    ]);
  }
  const name = after !== undefined ? 'after' : before !== undefined ? 'before' : undefined;
  if (name === undefined) return undefined;
  const boundary = decodeCursor(name, (after ?? before)!, query.sort);
  if (!boundary) {
    throw new AppError(ErrorCode.BadRequest, `${name}: Not a cursor of this list`, [
      { path: name, message: 'Not a cursor of this list' },
    ]);
  }
  return { kind: name, ...boundary };
}
