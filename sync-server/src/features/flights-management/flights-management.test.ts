import { describe, expect, test } from 'vitest';
import { messages } from '@skyport/shared';
import type { Actor } from '../../test/actors.ts';
import { createTestHarness, jsonRequest } from '../../test/harness.ts';
import { buyingPathCounts, futureDate, insertFlight } from '../checkout/testing.ts';
import { serverToday } from './routes.ts';

const { sql, app, actors } = await createTestHarness({ actors: true });

function form(overrides: Record<string, unknown> = {}) {
  return {
    origin: 'Argentina',
    destination: 'Brazil',
    departureDate: futureDate(5),
    departureHour: '09:15',
    arrivalDate: futureDate(6),
    arrivalHour: '01:05',
    durationEstimated: '15:50',
    price: 1999.99,
    stock: 120,
    logo: 'https://evil.test/other-logo.png',
    description: 'Overnight',
    ...overrides,
  };
}

const create = (who: Actor, flight: unknown) =>
  app.request('/api/flights/create', jsonRequest('POST', { flight }, who.headers()));
const update = (who: Actor, flight: unknown) =>
  app.request('/api/flights/update', jsonRequest('PUT', { flight }, who.headers()));

describe('POST /api/flights/create', () => {
  test('an approved airline creates a flight for its own airline, price in cents, logo from its airline', async () => {
    const res = await create(actors.airline, {
      ...form(),
      airlineId: actors.otherAirline.airlineId,
    });
    expect(res.status).toBe(201);
    const { flight } = (await res.json()) as any;
    expect(flight).toMatchObject({
      airlineId: actors.airline.airlineId,
      origin: 'Argentina',
      destination: 'Brazil',
      departureHour: '09:15',
      arrivalHour: '01:05',
      priceCents: 199_999,
      tickets: 120,
      logo: 'https://images.test/logo.png',
      description: 'Overnight',
    });
    const list = await app.request('/api/airline/flights', { headers: actors.airline.headers() });
    expect(((await list.json()) as any[]).map((f) => f.id)).toContain(flight.id);
  });

  test.each([
    ['same origin and destination', { destination: 'Argentina' }, messages.countryNotAllowed],
    ['a country off the list', { origin: 'Atlantis' }, messages.countryNotAllowed],
    ['a departure in the past', { departureDate: '2020-01-01' }, messages.dateNotAllowed],
    [
      'arrival before departure',
      { departureDate: futureDate(9), arrivalDate: futureDate(8) },
      messages.dateNotAllowed,
    ],
    ['a duration that is not hh:mm', { durationEstimated: '1:5' }, messages.durationRequired],
    ['a price below 1', { price: 0.5 }, messages.completeAllFieldsCorrectly],
    ['a price with 3 decimals', { price: 10.001 }, messages.completeAllFieldsCorrectly],
    ['a stock of 0', { stock: 0 }, messages.completeAllFieldsCorrectly],
    ['a fractional stock', { stock: 1.5 }, messages.completeAllFieldsCorrectly],
    ['a missing origin', { origin: undefined }, messages.completeAllFields],
    ['a negative price', { price: -5 }, messages.completeAllFieldsCorrectly],
  ])('%s is a 400 with the §5 message and writes nothing', async (_name, overrides, message) => {
    const before = await buyingPathCounts(sql);
    const res = await create(actors.airline, form(overrides));
    expect(res.status).toBe(400);
    const body = (await res.json()) as any;
    expect(body.details.map((d: any) => d.message)).toContain(message);
    expect(await buyingPathCounts(sql)).toEqual(before);
  });

  test('"today" is the server\'s: a departure today is allowed', async () => {
    const res = await create(
      actors.airline,
      form({ departureDate: serverToday(), arrivalDate: serverToday() }),
    );
    expect(res.status).toBe(201);
  });

  test('pending airlines, customers, admins and guests cannot create flights', async () => {
    const before = await buyingPathCounts(sql);
    expect((await create(actors.pendingAirline, form())).status).toBe(403);
    expect((await create(actors.customer, form())).status).toBe(403);
    expect((await create(actors.superAdmin, form())).status).toBe(403);
    expect((await create(actors.guest, form())).status).toBe(401);
    expect(await buyingPathCounts(sql)).toEqual(before);
  });
});

describe('PUT /api/flights/update, POST /api/flights/delete, PUT /api/flights/stock', () => {
  test("an airline updates its own flight; another airline's flight is refused and unchanged", async () => {
    const own = await insertFlight(sql, actors.airline.airlineId!);
    const theirs = await insertFlight(sql, actors.otherAirline.airlineId!);
    const ok = await update(actors.airline, form({ id: own, price: 10, stock: 3 }));
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).flight).toMatchObject({
      id: own,
      priceCents: 1000,
      tickets: 3,
    });

    const before = await buyingPathCounts(sql);
    const refused = await update(actors.airline, form({ id: theirs, price: 1 }));
    expect(refused.status).toBe(403);
    expect(await buyingPathCounts(sql)).toEqual(before);
    expect((await update(actors.airline, form({ id: crypto.randomUUID() }))).status).toBe(404);
    expect((await update(actors.airline, form({ id: 'not-a-uuid' }))).status).toBe(400);
  });

  test('delete tombstones own flights only, all or nothing; nothing selected is "Choose a flight"', async () => {
    const a = await insertFlight(sql, actors.airline.airlineId!);
    const b = await insertFlight(sql, actors.airline.airlineId!);
    const theirs = await insertFlight(sql, actors.otherAirline.airlineId!);
    const del = (ids: unknown) =>
      app.request(
        '/api/flights/delete',
        jsonRequest('POST', { flightIds: ids }, actors.airline.headers()),
      );

    const empty = await del([]);
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ message: `flightIds: ${messages.chooseAFlight}` });
    const mixed = await del([a, theirs]);
    expect(mixed.status).toBe(403);
    expect(
      await sql`SELECT id FROM flights WHERE id IN (${a}, ${theirs}) AND deleted`,
    ).toHaveLength(0);

    const ok = await del([a, b, a]);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as any).deleted.sort()).toEqual([a, b].sort());
    const rows = await sql`SELECT deleted FROM flights WHERE id IN (${a}, ${b})`;
    expect(rows.every((r) => r.deleted === true)).toBe(true);
    expect((await del([a])).status).toBe(404); // already gone from the catalogue
  });

  test('stock: an airline takes stock from its own flights with the guarded update; never below zero', async () => {
    const own = await insertFlight(sql, actors.airline.airlineId!, { tickets: 5 });
    const theirs = await insertFlight(sql, actors.otherAirline.airlineId!, { tickets: 5 });
    const stock = (who: Actor, items: unknown) =>
      app.request(
        '/api/flights/stock',
        jsonRequest('PUT', { flightIdAmount: items }, who.headers()),
      );

    const ok = await stock(actors.airline, [{ id: own, amount: 2 }]);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ applied: true, flights: [{ id: own, tickets: 3 }] });
    const short = await stock(actors.airline, [{ id: own, amount: 4 }]);
    expect(short.status).toBe(409);
    expect(await short.json()).toMatchObject({ message: messages.noStockAvailable });
    expect((await stock(actors.airline, [{ id: theirs, amount: 1 }])).status).toBe(403);
    for (const amount of [-1, 0, 1.5, '1'])
      expect((await stock(actors.airline, [{ id: own, amount }])).status).toBe(400);
    // A customer cannot move stock without a paid checkout that matches.
    expect((await stock(actors.customer, [{ id: own, amount: 1 }])).status).toBe(409);
    expect((await stock(actors.pendingAirline, [{ id: own, amount: 1 }])).status).toBe(403);
    const [row] = await sql`SELECT tickets FROM flights WHERE id = ${own}`;
    expect(row!.tickets).toBe(3);
    const [other] = await sql`SELECT tickets FROM flights WHERE id = ${theirs}`;
    expect(other!.tickets).toBe(5);
  });
});
