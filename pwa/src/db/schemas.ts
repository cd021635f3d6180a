import { z } from 'zod';
import type { RxJsonSchema } from 'rxdb';
import { SYNC_DOC_SCHEMAS, type SyncDoc } from '@skyport/shared';
import { COLLECTION_VERSIONS, LOCAL_COLLECTIONS, type LocalCollectionName } from './layout.ts';

/**
 * The RxDB collection schemas, derived from the shared zod document schemas (the same ones the
 * server validates pushes with), so that the local database and the server cannot disagree on a
 * field. Only what RxDB needs on top is added here: the primary key, string and number bounds on
 * indexed fields, the indexes, and the schema version of the local layout (db/layout.ts: any
 * change to what this builds, including a change to the shared schemas, is a new layout).
 */

/**
 * IndexedDB indexes per collection. (The flights are not in RxDB: db/catalogue-replica.ts keeps
 * them without any index, and the screens that read them keep their orders in memory.)
 */
export const COLLECTION_INDEXES: Readonly<
  Record<LocalCollectionName, readonly (readonly string[])[]>
> = {
  airlines: [['name', 'id']],
  reviews: [
    ['flightId', 'createdAt'],
    ['airlineId', 'createdAt'],
  ],
  favourites: [['createdAt', 'id']],
  cart: [],
  preferences: [],
  reviewDrafts: [['orderId', 'flightId']],
  orders: [],
  sales: [['createdAt', 'id']],
};

/** Longest indexed text (RxDB needs a bound to build index strings). */
const INDEXED_STRING_MAX = 200;
/** The largest value an indexed number may take (times in ms, cents, stock). */
const INDEXED_NUMBER_MAX = Number.MAX_SAFE_INTEGER;

type JsonSchemaNode = Record<string, unknown> & {
  type?: unknown;
  anyOf?: JsonSchemaNode[];
  properties?: Record<string, JsonSchemaNode>;
  items?: JsonSchemaNode;
};

/**
 * zod writes `x | null` as `anyOf: [x, {type: "null"}]`; RxDB's validator (ajv in strict mode)
 * wants one node with a type list instead.
 */
function simplifyNullable(node: JsonSchemaNode): JsonSchemaNode {
  let result: JsonSchemaNode = { ...node };
  const anyOf = node.anyOf;
  if (
    Array.isArray(anyOf) &&
    anyOf.length === 2 &&
    anyOf.some((option) => option.type === 'null')
  ) {
    const other = anyOf.find((option) => option.type !== 'null') ?? {};
    const { anyOf: _dropped, ...rest } = node;
    result = { ...rest, ...other, type: [other.type as string, 'null'] };
    // `enum` without null would refuse null even with a type list.
    if (Array.isArray(result.enum)) result.enum = [...(result.enum as unknown[]), null];
  }
  if (result.properties) {
    result.properties = Object.fromEntries(
      Object.entries(result.properties).map(([key, value]) => [key, simplifyNullable(value)]),
    );
  }
  if (result.items) result.items = simplifyNullable(result.items);
  return result;
}

/** The RxDB schema of a replicated collection. */
export function rxSchemaOf<C extends LocalCollectionName>(collection: C): RxJsonSchema<SyncDoc<C>> {
  const json = simplifyNullable(
    z.toJSONSchema(SYNC_DOC_SCHEMAS[collection], {
      target: 'draft-7',
      io: 'output',
    }) as JsonSchemaNode,
  );
  const properties = { ...(json.properties ?? {}) };
  const indexes = COLLECTION_INDEXES[collection];
  const bounded = new Set(['id', ...indexes.flat()]);
  for (const field of bounded) {
    const property = properties[field];
    if (!property) throw new Error(`${collection}: indexed field ${field} is not in the schema`);
    if (property.type === 'string') {
      properties[field] = {
        ...property,
        maxLength: Math.min(Number(property.maxLength ?? INDEXED_STRING_MAX), INDEXED_STRING_MAX),
      };
    } else if (property.type === 'integer' || property.type === 'number') {
      properties[field] = {
        ...property,
        type: 'number',
        minimum: typeof property.minimum === 'number' ? property.minimum : Number.MIN_SAFE_INTEGER,
        maximum:
          typeof property.maximum === 'number'
            ? Math.min(property.maximum, INDEXED_NUMBER_MAX)
            : INDEXED_NUMBER_MAX,
        multipleOf: 1,
      };
    }
  }
  properties.id = { ...properties.id, maxLength: 36 };
  return {
    title: collection,
    description: `Skyport ${collection}, replicated with the server (shared/src/schemas/replication.ts)`,
    version: COLLECTION_VERSIONS[collection],
    primaryKey: 'id',
    type: 'object',
    properties,
    required: json.required as string[],
    additionalProperties: false,
    indexes: indexes.map((index) => [...index]),
  } as unknown as RxJsonSchema<SyncDoc<C>>;
}

/** Every schema of the RxDB database. */
export function allRxSchemas(): { [C in LocalCollectionName]: RxJsonSchema<SyncDoc<C>> } {
  return Object.fromEntries(LOCAL_COLLECTIONS.map((name) => [name, rxSchemaOf(name)])) as {
    [C in LocalCollectionName]: RxJsonSchema<SyncDoc<C>>;
  };
}
