import { readdirSync, readFileSync } from 'node:fs';
import { PRICE_BAND_LOW_MAX_CENTS, PRICE_BAND_MID_MAX_CENTS } from '@skyport/shared';
import { beforeAll, expect, test } from 'vitest';
import { verifyPassword } from '../../features/identity/password.ts';
import { createTestDatabase } from '../../test/harness.ts';
import { ALL_COUNTRIES } from './countries.ts';
import {
  buildDemoData,
  DEMO_ACCOUNTS,
  DEMO_AIRLINES,
  DEMO_FLIGHT_COUNT,
  hasAnyUsers,
  seedDemoData,
} from './demo.ts';
import { generateSyntheticCatalog } from './synthetic.ts';

const demo = await createTestDatabase();
const synthetic = await createTestDatabase();
const LOGOS_DIR = new URL('../../../../pwa/public/logos/', import.meta.url);
const today = new Date();

function localDay(plusDays: number): string {
  const base = Date.UTC(today.getFullYear(), today.getMonth(), today.getDate());
  return new Date(base + plusDays * 86_400_000).toISOString().slice(0, 10);
}

let emptyBefore = false;
let counts: Record<string, number> = {};
beforeAll(async () => {
  emptyBefore = !(await hasAnyUsers(demo.sql));
  counts = await seedDemoData(demo.sql, { today });
});

test('demo data loads into an empty database and reports what it loaded', async () => {
  expect(emptyBefore).toBe(true);
  expect(await hasAnyUsers(demo.sql)).toBe(true);
  expect(counts).toMatchObject({
    airlines: DEMO_AIRLINES.length,
    flights: DEMO_FLIGHT_COUNT,
    skipped: 0,
  });
  const [row] = await demo.sql<
    { users: number; flights: number; reviews: number; orders: number }[]
  >`
    SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM flights) AS flights,
           (SELECT count(*)::int FROM reviews) AS reviews, (SELECT count(*)::int FROM orders) AS orders`;
  expect(row).toEqual({
    users: counts.users,
    flights: counts.flights,
    reviews: counts.reviews,
    orders: counts.orders,
  });
  expect(counts.reviews).toBeGreaterThanOrEqual(15);
});

test('seeding again is guarded: it changes nothing', async () => {
  const again = await seedDemoData(demo.sql, { today });
  expect(again.skipped).toBe(1);
  expect(again.users).toBe(0);
  const [row] = await demo.sql<{ users: number; flights: number }[]>`
    SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM flights) AS flights`;
  expect(row).toEqual({ users: counts.users, flights: counts.flights });
});

test('the four demo accounts have their roles, statuses and argon2id password hashes', async () => {
  const rows = await demo.sql<
    {
      email: string;
      role: string;
      airline_status: string | null;
      email_verified: boolean;
      password_hash: string;
    }[]
  >`SELECT email, role, airline_status, email_verified, password_hash FROM users
    WHERE email IN ${demo.sql(DEMO_ACCOUNTS.map((account) => account.email))}`;
  const byEmail = new Map(rows.map((row) => [row.email, row]));
  expect(byEmail.get('admin@skyport.test')).toMatchObject({
    role: 'super_admin',
    airline_status: null,
    email_verified: true,
  });
  expect(byEmail.get('customer@skyport.test')).toMatchObject({
    role: 'customer',
    airline_status: null,
    email_verified: true,
  });
  expect(byEmail.get('airline@skyport.test')).toMatchObject({
    role: 'airline',
    airline_status: 'approved',
    email_verified: true,
  });
  expect(byEmail.get('pending@skyport.test')).toMatchObject({
    role: 'airline',
    airline_status: 'pending',
  });
  for (const account of DEMO_ACCOUNTS) {
    const row = byEmail.get(account.email);
    expect(row?.role).toBe(account.role);
    expect(row?.password_hash.startsWith('$argon2id$')).toBe(true);
    expect(await verifyPassword(row?.password_hash ?? '', account.password)).toBe(true);
    expect(await verifyPassword(row?.password_hash ?? '', `${account.password}x`)).toBe(false);
  }
});

test('the approved demo airline owns an airline with flights; the pending one owns none', async () => {
  const owned = await demo.sql<{ email: string; airlines: number; flights: number }[]>`
    SELECT u.email, count(DISTINCT a.id)::int AS airlines, count(f.id)::int AS flights
    FROM users u LEFT JOIN airlines a ON a.owner_user_id = u.id LEFT JOIN flights f ON f.airline_id = a.id
    WHERE u.email IN ('airline@skyport.test', 'pending@skyport.test') GROUP BY u.email ORDER BY u.email`;
  expect(owned[0]).toMatchObject({ email: 'airline@skyport.test', airlines: 1 });
  expect(owned[0]?.flights).toBeGreaterThan(20);
  expect(owned[1]).toMatchObject({ email: 'pending@skyport.test', airlines: 0, flights: 0 });
  // Every airline has flights and a logo shipped with the PWA; airline_name is the airline's name.
  const airlines = await demo.sql<
    { name: string; image: string; flights: number; mismatched: number }[]
  >`
    SELECT a.name, a.image, count(f.id)::int AS flights,
           count(*) FILTER (WHERE f.airline_name <> a.name OR f.logo <> a.image)::int AS mismatched
    FROM airlines a LEFT JOIN flights f ON f.airline_id = a.id GROUP BY a.id`;
  const logos = new Set(readdirSync(LOGOS_DIR));
  for (const airline of airlines) {
    expect(airline.flights).toBeGreaterThan(0);
    expect(airline.mismatched).toBe(0);
    expect(logos.has(airline.image.replace('/logos/', ''))).toBe(true);
  }
});

test('demo flights cover all three price bands, low stock and sold-out flights', async () => {
  const [row] = await demo.sql<Record<string, number>[]>`
    SELECT count(*) FILTER (WHERE price_cents <= ${PRICE_BAND_LOW_MAX_CENTS})::int AS low,
           count(*) FILTER (WHERE price_cents > ${PRICE_BAND_LOW_MAX_CENTS} AND price_cents < ${PRICE_BAND_MID_MAX_CENTS})::int AS mid,
           count(*) FILTER (WHERE price_cents >= ${PRICE_BAND_MID_MAX_CENTS})::int AS high,
           count(*) FILTER (WHERE price_cents IN (${PRICE_BAND_LOW_MAX_CENTS}, ${PRICE_BAND_MID_MAX_CENTS}))::int AS on_edges,
           count(*) FILTER (WHERE tickets BETWEEN 1 AND 49)::int AS low_stock,
           count(*) FILTER (WHERE tickets = 0)::int AS sold_out,
           count(*) FILTER (WHERE tickets BETWEEN 50 AND 300)::int AS normal_stock,
           count(DISTINCT origin)::int AS origins
    FROM flights`;
  expect(row?.low).toBeGreaterThan(40);
  expect(row?.mid).toBeGreaterThan(40);
  expect(row?.high).toBeGreaterThan(40);
  expect(row?.on_edges).toBeGreaterThanOrEqual(2);
  expect(row?.low_stock).toBeGreaterThan(0);
  expect(row?.sold_out).toBeGreaterThan(0);
  expect(row?.normal_stock).toBeGreaterThan(DEMO_FLIGHT_COUNT / 2);
  expect(row?.origins).toBeGreaterThanOrEqual(40);
});

test('every demo flight is coherent: distinct countries, arrival after departure, duration equal to the hours', async () => {
  const [row] = await demo.sql<Record<string, number | string>[]>`
    SELECT count(*) FILTER (WHERE origin = destination)::int AS same_country,
           count(*) FILTER (WHERE arrival_date + arrival_hour <= departure_date + departure_hour)::int AS arrives_before,
           count(*) FILTER (WHERE (arrival_date + arrival_hour) - (departure_date + departure_hour)
                                  <> duration_estimated::interval)::int AS wrong_duration,
           count(*) FILTER (WHERE arrival_date - departure_date NOT IN (0, 1))::int AS beyond_next_day,
           count(*) FILTER (WHERE description = '')::int AS no_description,
           min(departure_date)::text AS first_departure, max(departure_date)::text AS last_departure
    FROM flights`;
  expect(row).toMatchObject({
    same_country: 0,
    arrives_before: 0,
    wrong_duration: 0,
    beyond_next_day: 0,
    no_description: 0,
  });
  expect(String(row?.first_departure) >= localDay(1)).toBe(true);
  expect(String(row?.last_departure) <= localDay(183)).toBe(true);
  const countries = await demo.sql<
    { name: string }[]
  >`SELECT origin AS name FROM flights UNION SELECT destination FROM flights`;
  for (const { name } of countries) expect(ALL_COUNTRIES).toContain(name);
});

test('orders add up: lines, 0.1 % fee rounded half-up, sales, captured payments and stock left', async () => {
  const orders = await demo.sql<
    {
      id: string;
      subtotal: number;
      lines_sum: number;
      fee: number;
      expected_fee: number;
      total: number;
      paid: number | null;
      status: string | null;
    }[]
  >`
    SELECT o.id, o.subtotal_cents AS subtotal, sum(l.amount * l.unit_price_cents)::bigint AS lines_sum,
           o.fee_cents AS fee, round(o.subtotal_cents / 1000.0)::bigint AS expected_fee, o.total_cents AS total,
           max(p.amount_cents) AS paid, max(p.status) AS status
    FROM orders o JOIN order_lines l ON l.order_id = o.id LEFT JOIN payments p ON p.order_id = o.id
    GROUP BY o.id`;
  expect(orders.length).toBe(counts.orders);
  for (const order of orders) {
    expect(order.lines_sum).toBe(order.subtotal);
    expect(order.fee).toBe(order.expected_fee);
    expect(order.total).toBe(order.subtotal + order.fee);
    expect(order).toMatchObject({ paid: order.total, status: 'captured' });
  }
  const customerOrders = await demo.sql`
    SELECT o.id FROM orders o JOIN users u ON u.id = o.user_id WHERE u.email = 'customer@skyport.test'`;
  expect(customerOrders.length).toBeGreaterThanOrEqual(3);

  // One sale per line, with the line's airline, flight, price and amount; snapshots match the flight.
  const [mismatch] = await demo.sql<
    { lines: number; unmatched: number; bad_snapshot: number; in_future: number }[]
  >`
    SELECT count(*)::int AS lines,
           count(*) FILTER (WHERE s.id IS NULL OR s.airline_id <> l.airline_id OR s.flight_id <> l.flight_id
                              OR s.unit_price_cents <> l.unit_price_cents OR s.amount <> l.amount)::int AS unmatched,
           count(*) FILTER (WHERE l.airline_name <> f.airline_name OR l.origin <> f.origin OR l.destination <> f.destination
                              OR l.departure_hour <> f.departure_hour OR l.arrival_hour <> f.arrival_hour
                              OR l.unit_price_cents <> f.price_cents OR l.airline_id <> f.airline_id)::int AS bad_snapshot,
           count(*) FILTER (WHERE o.created_at > now())::int AS in_future
    FROM order_lines l JOIN orders o ON o.id = l.order_id JOIN flights f ON f.id = l.flight_id
    LEFT JOIN sales s ON s.order_line_id = l.id`;
  expect(mismatch).toEqual({
    lines: counts.orderLines,
    unmatched: 0,
    bad_snapshot: 0,
    in_future: 0,
  });
  const [sales] = await demo.sql<{ count: number }[]>`SELECT count(*)::int AS count FROM sales`;
  expect(sales?.count).toBe(counts.orderLines);
  // Stock is what is left after those sales: never negative.
  const [negative] = await demo.sql<
    { count: number }[]
  >`SELECT count(*)::int AS count FROM flights WHERE tickets < 0`;
  expect(negative?.count).toBe(0);
});

test('reviews come from reviewed order lines and give the airlines different averages', async () => {
  const reviews = await demo.sql<
    {
      rating: number;
      name: string;
      comment: string;
      more_info: { flightName: string; origin: string; destination: string }[];
      reviewed: boolean | null;
      airline_name: string;
      origin: string;
      destination: string;
    }[]
  >`
    SELECT r.rating, r.name, r.comment, r.more_info, l.reviewed, f.airline_name, f.origin, f.destination
    FROM reviews r JOIN flights f ON f.id = r.flight_id
    LEFT JOIN order_lines l ON l.order_id = r.order_id AND l.flight_id = r.flight_id`;
  expect(reviews.length).toBe(counts.reviews);
  for (const review of reviews) {
    expect(review.rating).toBeGreaterThanOrEqual(1);
    expect(review.rating).toBeLessThanOrEqual(5);
    expect(review.name).not.toBe('');
    expect(review.comment).not.toBe('');
    expect(review.reviewed).toBe(true);
    expect(review.more_info).toEqual([
      { flightName: review.airline_name, origin: review.origin, destination: review.destination },
    ]);
  }
  const [lines] = await demo.sql<{ reviewed: number; unreviewed: number }[]>`
    SELECT count(*) FILTER (WHERE reviewed)::int AS reviewed, count(*) FILTER (WHERE NOT reviewed)::int AS unreviewed
    FROM order_lines`;
  expect(lines?.reviewed).toBe(counts.reviews);
  expect(lines?.unreviewed).toBeGreaterThan(0);
  const averages = await demo.sql<{ average: string }[]>`
    SELECT round(avg(rating), 1)::text AS average FROM reviews GROUP BY airline_id`;
  expect(averages.length).toBeGreaterThanOrEqual(6);
  expect(new Set(averages.map((row) => row.average)).size).toBeGreaterThan(2);
  const reviewers = await demo.sql`SELECT DISTINCT user_id FROM reviews`;
  expect(reviewers.length).toBeGreaterThan(3);
});

test('the demo data is deterministic for a given day', () => {
  const day = new Date(2025, 0, 15, 10, 30);
  const hashes = ['a', 'b', 'c', 'd'];
  expect(buildDemoData(day, hashes)).toEqual(buildDemoData(day, hashes));
});

test('airline logos are small self-contained SVG files', () => {
  const files = readdirSync(LOGOS_DIR).filter((file) => file.endsWith('.svg'));
  expect(files.sort()).toEqual(DEMO_AIRLINES.map((airline) => `${airline.slug}.svg`).sort());
  const fills = new Set<string>();
  for (const file of files) {
    const svg = readFileSync(new URL(file, LOGOS_DIR), 'utf8');
    expect(Buffer.byteLength(svg)).toBeLessThan(2048);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).not.toMatch(/href|url\(|<image|<script|@import/i);
    fills.add(/<rect[^>]*fill="([^"]+)"/.exec(svg)?.[1] ?? '');
  }
  expect(fills.size).toBe(files.length);
});

test('the synthetic generator makes exactly N coherent flights over every band and country', async () => {
  const result = await generateSyntheticCatalog(synthetic.sql, {
    flights: 10_000,
    airlines: 25,
    seed: 7,
    today,
  });
  expect(result).toMatchObject({ flights: 10_000, airlines: 25 });
  const [row] = await synthetic.sql<Record<string, number | string>[]>`
    SELECT count(*)::int AS flights, count(DISTINCT airline_id)::int AS airlines,
           count(*) FILTER (WHERE price_cents <= ${PRICE_BAND_LOW_MAX_CENTS})::int AS low,
           count(*) FILTER (WHERE price_cents > ${PRICE_BAND_LOW_MAX_CENTS} AND price_cents < ${PRICE_BAND_MID_MAX_CENTS})::int AS mid,
           count(*) FILTER (WHERE price_cents >= ${PRICE_BAND_MID_MAX_CENTS})::int AS high,
           count(*) FILTER (WHERE tickets = 0)::int AS sold_out,
           count(*) FILTER (WHERE tickets BETWEEN 1 AND 49)::int AS low_stock,
           count(*) FILTER (WHERE origin = destination)::int AS same_country,
           count(*) FILTER (WHERE (arrival_date + arrival_hour) - (departure_date + departure_hour)
                                  <> duration_estimated::interval)::int AS wrong_duration,
           count(*) FILTER (WHERE f.airline_name <> a.name)::int AS wrong_airline_name,
           min(departure_date)::text AS first_departure, max(departure_date)::text AS last_departure
    FROM flights f JOIN airlines a ON a.id = f.airline_id`;
  expect(row).toMatchObject({
    flights: 10_000,
    airlines: 25,
    same_country: 0,
    wrong_duration: 0,
    wrong_airline_name: 0,
  });
  for (const share of ['low', 'mid', 'high'] as const)
    expect(Number(row?.[share])).toBeGreaterThan(10_000 * 0.15);
  expect(Number(row?.sold_out)).toBeGreaterThan(10_000 * 0.03);
  expect(Number(row?.low_stock)).toBeGreaterThan(10_000 * 0.08);
  expect(String(row?.first_departure) >= localDay(1)).toBe(true);
  expect(String(row?.last_departure) <= localDay(366)).toBe(true);
  const countries = await synthetic.sql<{ name: string }[]>`
    SELECT origin AS name FROM flights UNION SELECT destination FROM flights`;
  expect(countries.map((country) => country.name).sort()).toEqual([...ALL_COUNTRIES].sort());
});

test('a second synthetic load adds exactly its flights and leaves every index in place', async () => {
  const indexesBefore = await synthetic.sql<{ indexname: string; indexdef: string }[]>`
    SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'flights' ORDER BY indexname`;
  // Smaller than the table: loads through the indexes. Larger: drops and rebuilds them.
  await generateSyntheticCatalog(synthetic.sql, { flights: 1_000, airlines: 3, seed: 8 });
  await generateSyntheticCatalog(synthetic.sql, { flights: 12_000, airlines: 5, seed: 9 });
  const [row] = await synthetic.sql<{ flights: number; airlines: number }[]>`
    SELECT (SELECT count(*)::int FROM flights) AS flights, (SELECT count(*)::int FROM airlines) AS airlines`;
  expect(row).toEqual({ flights: 23_000, airlines: 33 });
  const indexesAfter = await synthetic.sql<{ indexname: string; indexdef: string }[]>`
    SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'flights' ORDER BY indexname`;
  expect(indexesAfter).toEqual(indexesBefore);
});
