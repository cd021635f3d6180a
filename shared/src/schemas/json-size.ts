import type { z } from 'zod';

/**
 * The most bytes of UTF-8 one character of a JSON string takes: 3 for any character of the Basic
 * Multilingual Plane, 4 for a surrogate pair (2 characters in JavaScript's count). Only ASCII
 * control characters take more (JSON escapes them as `\u001f`, 6 bytes); text that is mostly
 * control characters is not something a size limit has to fit.
 */
export const MAX_UTF8_BYTES_PER_CHARACTER = 3;

/** JSON length of a number: the longest is `-1.7976931348623157e+308` (24 characters). */
const NUMBER_JSON_BYTES = 24;

/** Longest value of the fixed-pattern string formats (all ASCII). */
const FORMAT_MAX_LENGTH: Readonly<Record<string, number>> = {
  uuid: 36,
  date: 10,
  datetime: 40,
};

interface Def {
  type: string;
  format?: string;
  shape?: Record<string, z.ZodType>;
  innerType?: z.ZodType;
  in?: z.ZodType;
  entries?: Record<string, unknown>;
  values?: readonly unknown[];
}

/**
 * The size, in bytes of UTF-8, of the largest JSON value `schema` accepts, every string at its
 * maximum length and each character at `MAX_UTF8_BYTES_PER_CHARACTER` bytes (minified JSON, the
 * way `JSON.stringify` writes it). Optional fields count as present. Used to size limits from the
 * schemas themselves, so a new field or a longer maximum moves the limit with it.
 * `extra` gives the size of fields the walk cannot bound by itself (a loose object), by name.
 * @throws Error for a schema without an upper bound (a string without a maximum, an array, a
 *   record, a loose object not in `extra`): it has no largest value.
 */
export function maxJsonBytes(
  schema: z.ZodType,
  extra: Readonly<Record<string, number>> = {},
  where = 'value',
): number {
  const def = schema._zod.def as unknown as Def;
  switch (def.type) {
    case 'string': {
      if (def.format !== undefined) {
        const length = FORMAT_MAX_LENGTH[def.format];
        if (length === undefined) throw new Error(`${where}: no largest ${def.format} string`);
        return length + 2;
      }
      const { maxLength } = schema as z.ZodString;
      if (maxLength === null) throw new Error(`${where}: a string without a maximum length`);
      return maxLength * MAX_UTF8_BYTES_PER_CHARACTER + 2;
    }
    case 'number':
      return NUMBER_JSON_BYTES;
    case 'boolean':
      return 'false'.length;
    case 'null':
      return 'null'.length;
    case 'enum':
      return Math.max(...Object.values(def.entries ?? {}).map((v) => jsonBytes(v)));
    case 'literal':
      return Math.max(...(def.values ?? []).map((v) => jsonBytes(v)));
    case 'nullable':
      return Math.max('null'.length, maxJsonBytes(def.innerType!, extra, where));
    case 'optional':
    case 'default':
    case 'prefault':
    case 'readonly':
      return maxJsonBytes(def.innerType!, extra, where);
    case 'pipe':
      return maxJsonBytes(def.in!, extra, where);
    case 'object': {
      const entries = Object.entries(def.shape ?? {});
      const fields = entries.map(([key, field]) => {
        const path = `${where}.${key}`;
        const value =
          extra[key] ?? (isLoose(field) ? failLoose(path) : maxJsonBytes(field, extra, path));
        return jsonBytes(key) + 1 + value;
      });
      // Braces, the fields, and a comma between each two.
      return 2 + fields.reduce((sum, size) => sum + size, 0) + Math.max(0, fields.length - 1);
    }
    default:
      throw new Error(`${where}: no largest value for a ${def.type} schema`);
  }
}

/** UTF-8 bytes of a value's JSON. */
function jsonBytes(value: unknown): number {
  let bytes = 0;
  for (const character of JSON.stringify(value)) {
    const code = character.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** Whether an object schema accepts fields it does not name (a loose object or a catchall). */
function isLoose(schema: z.ZodType): boolean {
  let def = schema._zod.def as unknown as Def & { catchall?: z.ZodType };
  while (def.innerType) def = def.innerType._zod.def as unknown as Def & { catchall?: z.ZodType };
  if (def.type !== 'object' || def.catchall === undefined) return false;
  return (def.catchall._zod.def as unknown as Def).type !== 'never';
}

function failLoose(where: string): never {
  throw new Error(`${where}: an open object has no largest value; give its size in extra`);
}
