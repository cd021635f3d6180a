import { Observable } from 'rxjs';
import { expect, test } from 'vitest';
import { calculateCartTotals, messages, type CartDoc } from '@skyport/shared';
import {
  customerDeviceForThisFile,
  localFlight,
  serverRows,
  until,
} from '../../../test/test-device.ts';
import { addFavourite, favourites$ } from '../../favourites/data/favourites.ts';
import { addFlightToCart, cartSummary$, incrementLine, removeLine } from './cart.ts';

/**
 * A flight deleted on the server while it is in a customer's cart and favourites (issue 14): the
 * replicated line and favourite say so, the cart total leaves the line out, it cannot be raised,
 * a change pushed anyway is refused and rolled back, and removing it syncs. Real server
 * (sync-server/src/sync/test-server.ts), RxDB on fake-indexeddb.
 */

const fixture = customerDeviceForThisFile('deleted-flights', 5);

test("a deleted flight's cart line and favourite show it, out of the total, and only removal syncs", async () => {
  const { server, device: data } = fixture;
  const { db, engine } = data;
  const [gone, kept] = server.flightIds as [string, string];
  const goneFlight = await localFlight(db, gone);
  const keptFlight = await localFlight(db, kept);
  for (const flight of [goneFlight, keptFlight, goneFlight])
    expect(await addFlightToCart(data, flight)).toMatchObject({ ok: true });
  expect(await addFavourite(data, goneFlight)).toEqual({ ok: true });
  await engine.awaitInSync();

  await server.control('POST', `/__test/flights/${gone}`, { deleted: true });

  // The deletion reaches the cart and the favourites (a new revision of each, streamed).
  const summary = await until(cartSummary$(data), (cart) =>
    cart.lines.some((line) => line.flightId === gone && line.flightDeleted === true),
  );
  expect(summary.lines.find((line) => line.flightId === gone)).toMatchObject({
    amount: 2,
    tickets: 0,
    flightDeleted: true,
  });
  expect(summary.lines.find((line) => line.flightId === kept)).not.toHaveProperty('flightDeleted');
  // Only the listed flight counts in the total.
  expect(summary.totals).toEqual(
    calculateCartTotals([{ priceCents: keptFlight.priceCents, amount: 1 }]),
  );
  const favourites = await until(favourites$(data), (list) =>
    list.some((favourite) => favourite.flightId === gone && favourite.flightDeleted === true),
  );
  expect(favourites).toHaveLength(1);

  // It cannot be raised through the cart rules…
  expect(await incrementLine(data, gone)).toEqual({
    ok: false,
    message: messages.flightNoLongerAvailable,
  });
  // …and a change written anyway (a stale device) is refused by the server with the reason, and
  // kept as made until the customer discards or removes it (decision 017).
  const doc = await db.collections.cart.findOne(gone).exec();
  await doc!.incrementalPatch({ amount: 5 });
  await until(
    new Observable<boolean>((subscriber) => {
      const check = () =>
        subscriber.next(engine.changes.getSnapshot().refused.some((change) => change.id === gone));
      check();
      return engine.changes.subscribe(check);
    }),
    Boolean,
  );
  expect(
    ((await db.collections.cart.findOne(gone).exec())?.toJSON() as CartDoc | undefined)?.amount,
  ).toBe(5);
  expect(engine.status.getSnapshot().rejected).toContainEqual({
    collection: 'cart',
    id: gone,
    message: 'Flight not found',
  });

  // Removing it is allowed and reaches the server.
  expect(await removeLine(data, gone)).toMatchObject({ ok: true });
  await engine.awaitInSync();
  const rows = await serverRows<{ flight_id: string; amount: number; deleted: boolean }>(
    server,
    'cart_lines',
  );
  expect(rows.find((row) => row.flight_id === gone)).toMatchObject({ amount: 2, deleted: true });
  expect(rows.find((row) => row.flight_id === kept)).toMatchObject({ amount: 1, deleted: false });
});
