import { expect, test } from 'vitest';
import { calculateCartTotals } from '@skyport/shared';
import {
  customerDeviceForThisFile,
  localFlight,
  serverRows,
  until,
} from '../../../test/test-device.ts';
import { addFavourite, favourites$ } from '../../favourites/data/favourites.ts';
import { addFlightToCart, cartSummary$ } from './cart.ts';

/**
 * A flight's price and stock change on the server while it is in a customer's cart and
 * favourites (issue 15): the server rewrites no cart line or favourite (a sale costs the same
 * whatever number of carts name the flight, sync-server's 010 migration), and the device still
 * shows the new price, stock and total, from its replicated flight. Real server
 * (sync-server/src/sync/test-server.ts), RxDB on fake-indexeddb.
 */

const fixture = customerDeviceForThisFile('current-flights', 5);

test('a price or stock change reaches cart lines and favourites through the flight, not by rewriting them', async () => {
  const { server, device: data } = fixture;
  const { db, engine } = data;
  const [flightId] = server.flightIds as [string];
  const flight = await localFlight(db, flightId);
  expect(await addFlightToCart(data, flight)).toMatchObject({ ok: true });
  expect(await addFlightToCart(data, flight)).toMatchObject({ ok: true });
  expect(await addFavourite(data, flight)).toEqual({ ok: true });
  await engine.awaitInSync();
  const rowsBefore = await serverRowsOf(flightId);
  expect(rowsBefore.map((row) => row.table)).toEqual(['cart_lines', 'favourites']);

  const priceCents = flight.priceCents + 12_345;
  const tickets = flight.tickets + 7;
  await server.control('POST', `/__test/flights/${flightId}`, { priceCents, tickets });

  const summary = await until(cartSummary$(data), (cart) =>
    cart.lines.some((line) => line.flightId === flightId && line.priceCents === priceCents),
  );
  expect(summary.lines[0]).toMatchObject({ amount: 2, priceCents, tickets });
  expect(summary.totals).toEqual(calculateCartTotals([{ priceCents, amount: 2 }]));
  const favourites = await until(favourites$(data), (list) =>
    list.some((favourite) => favourite.priceCents === priceCents),
  );
  expect(favourites).toHaveLength(1);

  // The server wrote no new revision of the line or the favourite (their revisions on the server
  // are the ones the device's pushes gave them), and the device's copy of the line is the one it
  // pushed. (The device's own RxDB revision is no witness: the echoes of its two pushes may still
  // be arriving when it is read.)
  await engine.awaitInSync();
  expect(await serverRowsOf(flightId)).toEqual(rowsBefore);
  expect((await db.collections.cart.findOne(flightId).exec())!.toJSON()).toMatchObject({
    priceCents: flight.priceCents,
  });
});

/** The flight's cart line and favourite on the server, with the revision each was last written at. */
async function serverRowsOf(flightId: string) {
  const { server } = fixture;
  const rows = [];
  for (const table of ['cart_lines', 'favourites']) {
    const all = await serverRows<{ flight_id: string; revision: number }>(server, table);
    rows.push(...all.filter((row) => row.flight_id === flightId).map((row) => ({ table, ...row })));
  }
  return rows;
}
