import { expect, test } from 'vitest';
import { z } from 'zod';
import { SaleDocSchema, SalesReportSchema, type SaleFlight } from '@skyport/shared';
import {
  futureDate,
  insertFlight,
  newBuyer,
  purchase,
  type Buyer,
} from '../features/checkout/testing.ts';
import type { Actor } from '../test/actors.ts';
import { createTestHarness, jsonRequest } from '../test/harness.ts';
import { pullUrl, syncHeaders } from './test-fixtures.ts';

/**
 * A replicated sale names its flight as it was sold (issue 16, 016 migration): the route and the
 * departure come from the order line's snapshot, so an airline's device shows them offline, and
 * still shows them after the flight was edited or deleted.
 */

const { sql, app, actors } = await createTestHarness({ actors: true });

const PulledSalesSchema = z.object({
  documents: z.array(SaleDocSchema.extend({ _deleted: z.boolean() })),
});

/** The caller's sales documents, pulled from the start, parsed with the shared document schema. */
async function pulledSales(actor: Actor) {
  const response = await app.request(pullUrl('sales', { limit: 1000 }), {
    headers: syncHeaders(actor.headers()),
  });
  expect(response.status).toBe(200);
  return PulledSalesSchema.parse(await response.json()).documents;
}

async function departureDateOf(flightId: string): Promise<string> {
  const [row] = await sql<{ date: string }[]>`
    SELECT to_char(departure_date, 'YYYY-MM-DD') AS date FROM flights WHERE id = ${flightId}`;
  return row!.date;
}

async function soldFlight(buyer: Buyer): Promise<{ flightId: string; asSold: SaleFlight }> {
  const flightId = await insertFlight(sql, actors.airline.airlineId!, {
    origin: 'Iceland',
    destination: 'Mongolia',
    tickets: 10,
  });
  await purchase(app, sql, buyer, flightId, 2);
  const asSold = {
    origin: 'Iceland',
    destination: 'Mongolia',
    departureDate: await departureDateOf(flightId),
    departureHour: '08:00',
  };
  return { flightId, asSold };
}

test('a replicated sale carries its flight as sold, through an edit and the deletion of the flight', async () => {
  const buyer = await newBuyer(sql);
  const { flightId, asSold } = await soldFlight(buyer);

  const saleOf = async () =>
    (await pulledSales(actors.airline)).find((doc) => doc.idFlight === flightId);
  const sale = await saleOf();
  expect(sale).toMatchObject({ airlineId: actors.airline.airlineId, amount: 2, _deleted: false });
  expect(sale?.flight).toEqual(asSold);

  // The airline moves the flight to another route and day: the sale keeps what was sold.
  const edited = await app.request(
    '/api/flights/update',
    jsonRequest(
      'PUT',
      {
        flight: {
          id: flightId,
          origin: 'Chile',
          destination: 'Peru',
          departureDate: futureDate(200),
          departureHour: '21:40',
          arrivalDate: futureDate(201),
          arrivalHour: '01:05',
          durationEstimated: '03:25',
          price: 150,
          stock: 8,
        },
      },
      actors.airline.headers(),
    ),
  );
  expect(edited.status).toBe(200);
  expect(await departureDateOf(flightId)).toBe(futureDate(200));
  expect((await saleOf())?.flight).toEqual(asSold);

  // Deleted: out of the catalogue, and of every device's flights replica; the sale still names it.
  const deleted = await app.request(
    '/api/flights/delete',
    jsonRequest('POST', { flightIds: [flightId] }, actors.airline.headers()),
  );
  expect(deleted.status).toBe(200);
  const afterDeletion = await saleOf();
  expect(afterDeletion).toMatchObject({ _deleted: false, flight: asSold });

  // The online report says the same.
  const report = SalesReportSchema.parse(
    await (await app.request('/api/sales', { headers: actors.airline.headers() })).json(),
  );
  expect(report.sales.find((line) => line.idFlight === flightId)?.flight).toEqual(asSold);
});

test('every sale document has its flight, however its order line was written', async () => {
  // A writer that leaves the date out (older tools, the demo seed before it): the flight's date at
  // the insert is kept.
  const buyer = await newBuyer(sql);
  const flightId = await insertFlight(sql, actors.airline.airlineId!, {
    origin: 'Norway',
    destination: 'Japan',
  });
  await sql.begin(async (tx) => {
    const [order] = await tx<{ id: string }[]>`
      INSERT INTO orders (user_id, payment_id, subtotal_cents, fee_cents, total_cents, status)
      VALUES (${buyer.id}, 'pay_old', 15000, 15, 15015, 'confirmed') RETURNING id`;
    const [line] = await tx<{ id: string }[]>`
      INSERT INTO order_lines (order_id, flight_id, airline_id, amount, unit_price_cents, airline_name,
                               origin, destination, departure_hour, arrival_hour)
      SELECT ${order!.id}, f.id, f.airline_id, 1, f.price_cents, f.airline_name, f.origin,
             f.destination, f.departure_hour, f.arrival_hour
      FROM flights f WHERE f.id = ${flightId} RETURNING id`;
    await tx`INSERT INTO sales (airline_id, flight_id, order_line_id, unit_price_cents, amount)
      VALUES (${actors.airline.airlineId}, ${flightId}, ${line!.id}, 15000, 1)`;
  });
  const expected = {
    origin: 'Norway',
    destination: 'Japan',
    departureDate: await departureDateOf(flightId),
    departureHour: '08:00',
  };
  await sql`UPDATE flights SET departure_date = departure_date + 3, arrival_date = arrival_date + 3
    WHERE id = ${flightId}`;
  const documents = await pulledSales(actors.airline);
  expect(documents.find((doc) => doc.idFlight === flightId)?.flight).toEqual(expected);
  expect(documents.length).toBeGreaterThan(1);
  expect(documents.every((doc) => doc.flight !== undefined)).toBe(true);
  // Another airline's pull has none of these sales.
  const others = await pulledSales(actors.otherAirline);
  expect(others.some((doc) => doc.idFlight === flightId)).toBe(false);
});
