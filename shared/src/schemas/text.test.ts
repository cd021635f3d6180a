import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import * as shared from '../index.ts';
import { messages } from '../messages.ts';
import { TEST_FLIGHT_SCHEDULE } from '../testing.ts';
import {
  hasStorableTextCheck,
  isStorableText,
  storableTextCheck,
  text,
  unstorableCharacterIndex,
} from './text.ts';

const NUL = '\u0000';
const HIGH = '\uD83D'; // the first half of 😀
const LOW = '\uDE00'; // its second half

describe('isStorableText / unstorableCharacterIndex', () => {
  test.each([
    ['plain text', 'Buenos Aires', -1],
    ['the empty string', '', -1],
    ['accents, other scripts and emoji (paired surrogates)', 'Ñandú 東京 😀 👍🏽', -1],
    ['other control characters (PostgreSQL stores them)', 'tab\there\u0001\u001f\u007f', -1],
    ['U+FFFD and U+FFFF', '\uFFFD\uFFFF', -1],
    ['a NUL alone', NUL, 0],
    ['a NUL inside', `ab${NUL}cd`, 2],
    ['a NUL at the end', `abc${NUL}`, 3],
    ['a lone high surrogate', `a${HIGH}b`, 1],
    ['a lone high surrogate at the end', `ab${HIGH}`, 2],
    ['a lone low surrogate', `a${LOW}b`, 1],
    ['a lone low surrogate at the start', `${LOW}ab`, 0],
    ['a pair reversed', `${LOW}${HIGH}`, 0],
    ['two high surrogates then a low one', `${HIGH}${HIGH}${LOW}`, 0],
  ])('%s', (_case, value, index) => {
    expect(unstorableCharacterIndex(value)).toBe(index);
    expect(isStorableText(value)).toBe(index === -1);
  });
});

describe('text()', () => {
  test('accepts what z.string() accepts, and refuses NUL and unpaired surrogates with one message', () => {
    const schema = text();
    expect(schema.parse('Ana 😀')).toBe('Ana 😀');
    for (const value of [`A${NUL}`, `A${HIGH}`, `${LOW}A`]) {
      const result = schema.safeParse(value);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((issue) => issue.message)).toEqual([
        messages.textNotStorable,
      ]);
    }
  });

  test("keeps the field's own messages for its own rules, and puts the storable rule first", () => {
    const schema = text({ error: 'Enter a name' }).trim().min(1, 'Enter a name').max(3, 'Too long');
    expect(schema.safeParse(undefined).error?.issues[0]?.message).toBe('Enter a name');
    expect(schema.safeParse('  ').error?.issues[0]?.message).toBe('Enter a name');
    expect(schema.safeParse('abcd').error?.issues[0]?.message).toBe('Too long');
    const refused = schema.safeParse(`abcd${NUL}`).error?.issues.map((issue) => issue.message);
    expect(refused).toEqual([messages.textNotStorable, 'Too long']);
  });

  test('a NUL is not whitespace: trimming does not remove it', () => {
    expect(text().trim().safeParse(`${NUL}Ana${NUL}`).success).toBe(false);
  });

  test('changes nothing in the JSON Schema (the local database layout is derived from it)', () => {
    const plain = z.object({ a: z.string().max(5), b: z.string().nullable() });
    const checked = z.object({ a: text().max(5), b: text().nullable() });
    expect(z.toJSONSchema(checked)).toEqual(z.toJSONSchema(plain));
  });

  test('hasStorableTextCheck tells a text() schema from a plain string', () => {
    expect(hasStorableTextCheck(text().trim().max(3))).toBe(true);
    expect(hasStorableTextCheck(z.string().max(3))).toBe(false);
    expect(hasStorableTextCheck(z.string().check(storableTextCheck))).toBe(true);
  });
});

// --- every schema of shared starts from text() -------------------------------------------------

interface Def {
  type: string;
  format?: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  items?: z.ZodType[];
  rest?: z.ZodType | null;
  getter?: () => z.ZodType;
}

/** Paths of the plain strings (no storable check, no fixed format) inside a schema. */
function plainStrings(schema: z.ZodType, path: string, seen = new Set<unknown>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = schema._zod.def as unknown as Def;
  const walk = (child: z.ZodType | null | undefined, at: string) =>
    child ? plainStrings(child, at, seen) : [];
  switch (def.type) {
    case 'string':
      return def.format !== undefined || hasStorableTextCheck(schema) ? [] : [path];
    case 'object':
      return [
        ...Object.entries(def.shape ?? {}).flatMap(([key, field]) => walk(field, `${path}.${key}`)),
        ...walk(def.catchall, `${path}.*`),
      ];
    case 'array':
      return walk(def.element, `${path}[]`);
    case 'pipe':
      return [...walk(def.in, path), ...walk(def.out, path)];
    case 'union':
      return (def.options ?? []).flatMap((option, index) => walk(option, `${path}|${index}`));
    case 'intersection':
      return [...walk(def.left, path), ...walk(def.right, path)];
    case 'record':
      return [...walk(def.keyType, `${path}{key}`), ...walk(def.valueType, `${path}{}`)];
    case 'tuple':
      return [
        ...(def.items ?? []).flatMap((item, index) => walk(item, `${path}[${index}]`)),
        ...walk(def.rest, `${path}[…]`),
      ];
    case 'lazy':
      return walk(def.getter?.(), path);
    default:
      return def.innerType ? walk(def.innerType, path) : [];
  }
}

/** Every zod schema shared exports, and the ones its factories build. */
function allSharedSchemas(): [string, z.ZodType][] {
  const exported: [string, z.ZodType][] = [];
  for (const [name, value] of Object.entries(shared as Record<string, unknown>)) {
    if (value instanceof z.ZodType) exported.push([name, value]);
  }
  const options = { today: '2030-01-01' };
  const built: [string, z.ZodType][] = [
    ['createFlightFormSchema', shared.createFlightFormSchema(options)],
    ['createFlightCreateBodySchema', shared.createFlightCreateBodySchema(options)],
    ['createFlightUpdateBodySchema', shared.createFlightUpdateBodySchema(options)],
    ...shared.SYNC_COLLECTIONS.flatMap((name): [string, z.ZodType][] => [
      [`replicatedDocSchema(${name})`, shared.replicatedDocSchema(name)],
      [`pullResponseSchema(${name})`, shared.pullResponseSchema(name)],
      [`pushResponseSchema(${name})`, shared.pushResponseSchema(name)],
      [`pushReportSchema(${name})`, shared.pushReportSchema(name)],
    ]),
    ...shared.WRITABLE_SYNC_COLLECTIONS.map((name): [string, z.ZodType] => [
      `pushBodySchema(${name})`,
      shared.pushBodySchema(name),
    ]),
  ];
  return [...exported, ...built];
}

test('every string schema shared exports or builds refuses unstorable text (starts from text())', () => {
  const schemas = allSharedSchemas();
  // The walk must see the request schemas; a broken walk would pass trivially.
  expect(schemas.map(([name]) => name)).toEqual(
    expect.arrayContaining([
      'CreateReviewBodySchema',
      'CreateOrderBodySchema',
      'RegisterCustomerInputSchema',
      'PullQuerySchema',
      'pushBodySchema(reviewDrafts)',
    ]),
  );
  const plain = schemas.flatMap(([name, schema]) => plainStrings(schema, name));
  expect(plain).toEqual([]);
});

test('the walk finds a plain string wherever it hides', () => {
  const hidden = z.object({
    a: z.array(z.object({ b: z.string().optional() })),
    c: z.union([z.number(), z.string()]),
    d: z.preprocess((value) => value, z.string()),
    e: text(),
    f: z.uuid(),
  });
  expect(plainStrings(hidden, 'x')).toEqual(['x.a[].b', 'x.c|1', 'x.d']);
});

describe('request schemas refuse a NUL in their free-text fields', () => {
  const id = '3f1c2b9e-8a4d-4c1e-9b7a-2d5e6f7a8b9c';
  const review = { name: 'Ana', rating: 4, comment: 'Smooth', airlineId: id, flightId: id };

  test.each([
    ['review name', shared.CreateReviewBodySchema, { ...review, orderId: id, name: `A${NUL}` }],
    ['review comment', shared.CreateReviewBodySchema, { ...review, orderId: id, comment: NUL }],
    ['review update', shared.UpdateReviewBodySchema, { id, comment: `ok${HIGH}` }],
    [
      'order idpurchase',
      shared.CreateOrderBodySchema,
      {
        price: 100,
        userId: id,
        idpurchase: `pay${NUL}`,
        creationdate: '2030-01-01T00:00:00Z',
        stocks: [
          {
            flightId: id,
            airlineId: id,
            amount: 1,
            value: 100,
            moreinfo: {
              origin: 'Chile',
              destination: 'Peru',
              departureHour: '08:00',
              arrivalHour: '10:00',
            },
          },
        ],
      },
    ],
    ['a password', shared.LoginInputSchema, { email: 'a@b.io', password: `Secret${NUL}` }],
    ['a pull checkpoint id', shared.PullQuerySchema, { revision: '1', id: `x${NUL}` }],
  ])('%s', (_case, schema: z.ZodType, body) => {
    const result = schema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.message)).toContain(messages.textNotStorable);
  });

  test('flight description (create and update)', () => {
    const flight = { ...TEST_FLIGHT_SCHEDULE, price: 100, stock: 10, description: `Nice${NUL}` };
    const options = { today: '2030-01-01' };
    for (const result of [
      shared.createFlightCreateBodySchema(options).safeParse({ flight }),
      shared.createFlightUpdateBodySchema(options).safeParse({ flight: { ...flight, id } }),
    ]) {
      expect(result.error?.issues).toEqual([
        expect.objectContaining({
          path: ['flight', 'description'],
          message: messages.textNotStorable,
        }),
      ]);
    }
  });
});
