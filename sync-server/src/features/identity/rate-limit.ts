import { messages } from '@skyport/shared';
import type { Sql } from '../../db/client.ts';
import { AppError, ErrorCode } from '../../lib/errors.ts';

/** At most `max` hits per key in a fixed window of `windowSeconds`. */
export interface RateLimit {
  max: number;
  windowSeconds: number;
}

/**
 * Counts one hit for `key` and tells whether it is still within the limit. The counter lives in
 * PostgreSQL (`rate_limits`), so every server instance shares it; the upsert is atomic, so
 * concurrent hits are all counted.
 */
export async function hitRateLimit(
  sql: Sql,
  key: string,
  limit: RateLimit,
): Promise<{ allowed: boolean; hits: number }> {
  const window = limit.windowSeconds;
  const [row] = await sql<{ hits: number }[]>`
    INSERT INTO rate_limits AS r (key, window_start, hits) VALUES (${key}, now(), 1)
    ON CONFLICT (key) DO UPDATE SET
      window_start = CASE WHEN r.window_start <= now() - make_interval(secs => ${window}) THEN now() ELSE r.window_start END,
      hits = CASE WHEN r.window_start <= now() - make_interval(secs => ${window}) THEN 1 ELSE r.hits + 1 END
    RETURNING hits`;
  const hits = row?.hits ?? 1;
  // Housekeeping, now and then: windows that ended long ago.
  if (Math.random() < 0.01) {
    await sql`DELETE FROM rate_limits WHERE window_start < now() - interval '1 day'`;
  }
  return { allowed: hits <= limit.max, hits };
}

/** Counts one hit and refuses the request (429) past the limit. */
export async function enforceRateLimit(sql: Sql, key: string, limit: RateLimit): Promise<void> {
  const { allowed } = await hitRateLimit(sql, key, limit);
  if (!allowed) throw new AppError(ErrorCode.TooManyRequests, messages.tooManyAttempts);
}

/**
 * Gives back a hit that turned out well (a successful login), so that limits count failures while
 * every attempt is still counted the moment it starts (concurrent guesses cannot slip through).
 */
export async function refundRateLimit(sql: Sql, key: string): Promise<void> {
  await sql`UPDATE rate_limits SET hits = greatest(hits - 1, 0) WHERE key = ${key}`;
}
