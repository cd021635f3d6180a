import { expect, test } from 'vitest';
import { SalesReportSchema } from '@skyport/shared';
import { createTestHarness, jsonRequest } from '../../test/harness.ts';
import { buyingPathCounts, insertFlight, newBuyer, purchase } from '../checkout/testing.ts';

const { sql, app, actors } = await createTestHarness({ actors: true });

test("GET /api/sales: only the calling airline's sales, with the 12 monthly totals of the chart", async () => {
  const buyer = await newBuyer(sql);
  const own = await insertFlight(sql, actors.airline.airlineId!, {
    priceCents: 100_00,
    tickets: 10,
  });
  const theirs = await insertFlight(sql, actors.otherAirline.airlineId!, {
    priceCents: 70_00,
    tickets: 10,
  });
  await purchase(app, sql, buyer, own, 3);
  await purchase(app, sql, buyer, theirs, 1);
  // A sale from March of this year (moved back in time, as if older).
  await purchase(app, sql, buyer, own, 1);
  const year = new Date().getUTCFullYear();
  await sql`UPDATE sales SET created_at = ${`${year}-03-15T12:00:00Z`} WHERE id = (
    SELECT id FROM sales WHERE flight_id = ${own} AND amount = 1)`;

  const res = await app.request('/api/sales', { headers: actors.airline.headers() });
  expect(res.status).toBe(200);
  const report = (await res.json()) as any;
  expect(report.year).toBe(year);
  expect(report.sales).toHaveLength(2);
  expect(
    report.sales.every((s: any) => s.airlineId === actors.airline.airlineId && s.idFlight === own),
  ).toBe(true);
  expect(report.sales.map((s: any) => s.totalCents).sort()).toEqual([100_00, 300_00]);
  expect(report.monthly).toHaveLength(12);
  const month = new Date().getUTCMonth() + 1;
  expect(report.monthly[2]).toEqual({
    month: 3,
    tickets: month === 3 ? 4 : 1,
    amountCents: month === 3 ? 400_00 : 100_00,
  });
  expect(report.monthly[month - 1]).toMatchObject({ tickets: month === 3 ? 4 : 3 });

  const other = (await (
    await app.request('/api/sales', { headers: actors.otherAirline.headers() })
  ).json()) as any;
  expect(other.sales.map((s: any) => s.idFlight)).toEqual([theirs]);
  expect(
    (await app.request('/api/sales?year=1800', { headers: actors.airline.headers() })).status,
  ).toBe(400);
});

test('GET /api/sales: each sale names its flight by route and departure, also once the flight is deleted', async () => {
  const buyer = await newBuyer(sql);
  const flight = await insertFlight(sql, actors.airline.airlineId!, {
    origin: 'Iceland',
    destination: 'Mongolia',
    tickets: 10,
  });
  await purchase(app, sql, buyer, flight, 2);
  const [stored] = await sql<{ departure_date: string }[]>`
    SELECT to_char(departure_date, 'YYYY-MM-DD') AS departure_date FROM flights WHERE id = ${flight}`;
  const expected = {
    origin: 'Iceland',
    destination: 'Mongolia',
    departureDate: stored!.departure_date,
    departureHour: '08:00',
  };
  const saleOf = async () => {
    const res = await app.request('/api/sales', { headers: actors.airline.headers() });
    expect(res.status).toBe(200);
    const report = SalesReportSchema.parse(await res.json());
    return report.sales.find((sale) => sale.idFlight === flight);
  };

  expect((await saleOf())?.flight).toEqual(expected);
  await sql`UPDATE flights SET deleted = true WHERE id = ${flight}`;
  expect((await saleOf())?.flight).toEqual(expected);
});

test("POST /api/sales records nothing: a customer's matching call is acknowledged, anything else refused", async () => {
  const buyer = await newBuyer(sql);
  const flight = await insertFlight(sql, actors.airline.airlineId!, {
    priceCents: 55_00,
    tickets: 10,
  });
  await purchase(app, sql, buyer, flight, 2);
  const line = { id: flight, amount: 2, airlineId: actors.airline.airlineId, price: 55_00 };
  const before = await buyingPathCounts(sql);
  const ok = await app.request('/api/sales', jsonRequest('POST', { sales: [line] }, buyer.headers));
  expect(ok.status).toBe(200);
  expect(await ok.json()).toEqual({ recorded: false, reason: 'already_recorded_at_checkout' });
  const invented = await app.request(
    '/api/sales',
    jsonRequest('POST', { sales: [{ ...line, amount: 50 }] }, buyer.headers),
  );
  expect(invented.status).toBe(409);
  const other = await newBuyer(sql);
  expect(
    (await app.request('/api/sales', jsonRequest('POST', { sales: [line] }, other.headers))).status,
  ).toBe(409);
  expect(
    (
      await app.request(
        '/api/sales',
        jsonRequest('POST', { sales: [line] }, actors.airline.headers()),
      )
    ).status,
  ).toBe(403);
  expect(
    (await app.request('/api/sales', jsonRequest('POST', { sales: [] }, buyer.headers))).status,
  ).toBe(400);
  expect(await buyingPathCounts(sql)).toEqual(before);
});
