import { expect, test } from 'vitest';
import { z } from 'zod';
import { MAX_UTF8_BYTES_PER_CHARACTER, maxJsonBytes } from './json-size.ts';
import { text } from './text.ts';

/** UTF-8 bytes of a string, counted by another road than the code under test. */
const bytes = (value: string) => encodeURIComponent(value).replace(/%[0-9A-F]{2}/g, 'x').length;
const utf8 = (value: unknown) => bytes(JSON.stringify(value));

test('the largest value of an object is its JSON at every maximum, 3 bytes a character', () => {
  const schema = z.strictObject({
    id: z.uuid(),
    name: text().max(10),
    note: text().max(4).nullable(),
    day: z.iso.date(),
    count: z.number(),
    ok: z.boolean(),
    kind: z.enum(['a', 'long-value']),
    extra: text().max(2).optional(),
  });
  const largest = {
    id: '3f1c2b9e-8a4d-4c1e-9b7a-2d5e6f7a8b9c',
    name: '€'.repeat(10),
    note: '€'.repeat(4),
    day: '2030-01-01',
    count: -1.7976931348623157e308,
    ok: false,
    kind: 'long-value',
    extra: '€€',
  };
  expect(schema.parse(largest)).toEqual(largest);
  expect('€'.length).toBe(1);
  expect(bytes('€')).toBe(MAX_UTF8_BYTES_PER_CHARACTER);
  expect(maxJsonBytes(schema)).toBe(utf8(largest));
});

test('a surrogate pair takes no more than 3 bytes a character', () => {
  expect(bytes('😀')).toBeLessThanOrEqual('😀'.length * MAX_UTF8_BYTES_PER_CHARACTER);
});

test('an unbounded schema has no largest value', () => {
  expect(() => maxJsonBytes(z.object({ a: text() }))).toThrow(/a: a string without a maximum/);
  expect(() => maxJsonBytes(z.object({ a: z.array(z.number()) }))).toThrow(/array/);
  expect(() => maxJsonBytes(z.object({ m: z.looseObject({ lwt: z.number() }) }))).toThrow(
    /m: an open object/,
  );
  expect(maxJsonBytes(z.object({ m: z.looseObject({ lwt: z.number() }) }), { m: 100 })).toBe(
    utf8({ m: '' }) - 2 + 100,
  );
});
