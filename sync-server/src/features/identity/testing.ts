// Test helpers for identity, admin and email tests (imported by *.test.ts only).
import type { Sql } from '../../db/client.ts';

/**
 * A fingerprint of everything identity and admin routes can write: the full contents of users,
 * airlines, flights, sessions and tokens, and the sizes of the other tables. Equal fingerprints
 * before and after a request mean it wrote nothing.
 */
export async function snapshot(sql: Sql, options: { withRateLimits?: boolean } = {}) {
  const [row] = await sql`
    SELECT
      (SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY id), '')) FROM users t) AS users,
      (SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY id), '')) FROM airlines t) AS airlines,
      (SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY id), '')) FROM flights t) AS flights,
      (SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY id), '')) FROM sessions t) AS sessions,
      (SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY id), '')) FROM auth_tokens t) AS auth_tokens,
      (SELECT count(*) FROM email_outbox) AS email_outbox,
      (SELECT count(*) FROM orders) AS orders,
      (SELECT count(*) FROM sales) AS sales,
      (SELECT count(*) FROM reviews) AS reviews,
      (SELECT count(*) FROM favourites WHERE NOT deleted) AS favourites,
      (SELECT count(*) FROM cart_lines WHERE NOT deleted) AS cart_lines`;
  if (!options.withRateLimits) return row;
  const [limits] = await sql`
    SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY key), '')) AS rate_limits FROM rate_limits t`;
  return { ...row, ...limits };
}

/** The newest outbox message to an address. */
export async function lastMailTo(sql: Sql, to: string) {
  const [row] = await sql<{ subject: string; text_body: string; html_body: string }[]>`
    SELECT subject, text_body, html_body FROM email_outbox WHERE lower(to_address) = ${to.toLowerCase()}
    ORDER BY created_at DESC, id DESC LIMIT 1`;
  return row;
}

/** The token in the newest link of `kind` mailed to an address. */
export async function tokenFromMail(
  sql: Sql,
  to: string,
  kind: 'verify-email' | 'reset-password',
): Promise<string> {
  const mail = await lastMailTo(sql, to);
  const match = mail && new RegExp(`/${kind}\\?token=([A-Za-z0-9_-]+)`).exec(mail.text_body);
  if (!match?.[1]) throw new Error(`no ${kind} link mailed to ${to}`);
  return match[1];
}

/** The session cookie a response set, as `name=value`. */
export function sessionCookieOf(response: Response): string | undefined {
  const header = response.headers.get('set-cookie') ?? '';
  return /((?:__Host-)?skyport_session=[^;]*)/.exec(header)?.[1];
}
