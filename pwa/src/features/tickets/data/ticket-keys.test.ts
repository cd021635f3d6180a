import { randomUUID } from 'node:crypto';
import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import { afterEach, expect, test } from 'vitest';
import type { OrderDoc, TicketJwks } from '@skyport/shared';
import type { SkyportDatabase } from '../../../db/database.ts';
import { ticketKeys$, writeTicketKeys } from '../../../db/local-state.ts';
import { openTestDatabase } from '../../../test/test-device.ts';

/**
 * What the device keeps for tickets (issue 17): the key set as an RxDB local document, and each
 * order line's ticket in the replicated orders (local layout 5).
 */

let db: SkyportDatabase | undefined;
afterEach(async () => {
  await db?.close();
  db = undefined;
});

const jwks: TicketJwks = {
  keys: [
    {
      kty: 'OKP',
      crv: 'Ed25519',
      x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
      kid: 'kid-1',
      alg: 'EdDSA',
      use: 'sig',
    },
  ],
};

test('the key set is kept on the device and read back, newest write winning', async () => {
  db = await openTestDatabase();
  expect(await firstValueFrom(ticketKeys$(db))).toBeNull();
  await writeTicketKeys(db, jwks, 1_000);
  expect(await firstValueFrom(ticketKeys$(db))).toEqual({ ...jwks, fetchedAt: 1_000 });
  const rotated = { keys: [{ ...jwks.keys[0]!, kid: 'kid-2' }, ...jwks.keys] };
  const next = firstValueFrom(ticketKeys$(db).pipe(filter((keys) => keys?.fetchedAt === 2_000)));
  await writeTicketKeys(db, rotated, 2_000);
  expect((await next)?.keys.map((key) => key.kid)).toEqual(['kid-2', 'kid-1']);
});

test('a key set that is not one is refused, and a stored value that is not one reads as none', async () => {
  db = await openTestDatabase();
  const broken = { keys: [{ ...jwks.keys[0]!, crv: 'P-256' }] } as unknown as TicketJwks;
  await expect(writeTicketKeys(db, broken, 1)).rejects.toThrow();
  await db.upsertLocal('ticket-keys', { keys: 'nothing' });
  expect(await firstValueFrom(ticketKeys$(db))).toBeNull();
});

function order(ticket?: string): OrderDoc {
  return {
    id: randomUUID(),
    userId: randomUUID(),
    idpurchase: 'pi_test',
    creationdate: new Date().toISOString(),
    priceCents: 10_010,
    stocks: [
      {
        id: randomUUID(),
        flightId: randomUUID(),
        airlineId: randomUUID(),
        amount: 1,
        valueCents: 10_000,
        review: false,
        moreinfo: {
          origin: 'Argentina',
          destination: 'Chile',
          arrivalHour: '10:30',
          departureHour: '08:00',
        },
        ...(ticket === undefined ? {} : { ticket }),
      },
    ],
  };
}

test('order lines keep their ticket locally; a line without one is fine, a malformed one is refused', async () => {
  db = await openTestDatabase({ devMode: true });
  const withTicket = order('eyJhbGciOiJFZERTQSJ9.eyJpc3MiOiJza3lwb3J0In0.c2lnbmF0dXJl');
  await db.collections.orders.insert(withTicket);
  const stored = await db.collections.orders.findOne(withTicket.id).exec();
  expect(stored?.toJSON().stocks[0]?.ticket).toBe(withTicket.stocks[0]!.ticket);
  await db.collections.orders.insert(order());
  await expect(db.collections.orders.insert(order('not a ticket'))).rejects.toThrow();
});
