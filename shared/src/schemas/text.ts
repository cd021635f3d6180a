import { z } from 'zod';
import { messages } from '../messages.ts';

/**
 * The one input rule every text field shares: it must be storable. PostgreSQL refuses the NUL
 * character (U+0000) in `text` and `jsonb`, and refuses a UTF-16 surrogate without its pair in
 * `jsonb` (in `text` the driver would silently turn it into U+FFFD). Such a value is refused at
 * the edge with 400 and `messages.textNotStorable`, never half-written or answered with 500.
 *
 * Every string schema of the API starts from `text()` instead of `z.string()` (the request
 * bodies, queries and path parameters in shared and the server's own route schemas); a test
 * (text.test.ts) walks every exported schema and fails on a plain `z.string()`, so a new field
 * gets the rule by construction. String formats (`z.uuid()`, `z.email()`, `z.iso.date()`, …)
 * only accept ASCII patterns and need nothing more.
 */

/** NUL, a high surrogate not followed by a low one, or a low surrogate not preceded by a high one. */
const UNSTORABLE_CHARACTER =
  // eslint-disable-next-line no-control-regex -- NUL is the point: PostgreSQL cannot store it
  /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Index of the first character PostgreSQL cannot store (NUL, an unpaired surrogate), or -1. */
export function unstorableCharacterIndex(value: string): number {
  return value.search(UNSTORABLE_CHARACTER);
}

/** Whether PostgreSQL can store `value` in a `text` or `jsonb` column as it is. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE_CHARACTER.test(value);
}

/**
 * The storability check as a zod check, added first to every `text()` schema. Exported so that
 * tests (and any schema that cannot start from `text()`) can find or add it.
 */
export const storableTextCheck = z.refine<string>(isStorableText, {
  error: messages.textNotStorable,
});

/**
 * A string schema that refuses what PostgreSQL cannot store: use it wherever `z.string()` would
 * be used. `params` are `z.string()`'s (typically `{ error }` for a missing or non-string value);
 * the field's own rules chain on as usual (`text({ error: m }).trim().min(1, m).max(40, m)`), and
 * their messages stay the field's own. A NUL or an unpaired surrogate is refused with
 * `messages.textNotStorable`, which comes first among the field's messages.
 */
export function text(params?: string | z.core.$ZodStringParams): z.ZodString {
  return z.string(params).check(storableTextCheck);
}

/** Whether a string schema carries `storableTextCheck` (used by the tests that guard the rule). */
export function hasStorableTextCheck(schema: z.ZodType): boolean {
  const checks = (schema._zod.def as { checks?: readonly unknown[] }).checks ?? [];
  return checks.includes(storableTextCheck);
}
