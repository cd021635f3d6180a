import { randomUUID } from 'node:crypto';
import { calculateTotals } from '@skyport/shared';
import { describe, expect, test } from 'vitest';
import { createSql } from '../../db/client.ts';
import { createLogger } from '../../lib/logger.ts';
import { createTestPayments } from '../../payments/index.ts';
import { insertUser } from '../../test/actors.ts';
import { createTestHarness } from '../../test/harness.ts';
import { createTicketService } from '../tickets/tickets.ts';
import { createCheckout } from './checkout.ts';
import { defaultHoldSettings, createHolds } from './holds.ts';
import {
  findPayment,
  insertPayment,
  markCaptured,
  OrderRefusedError,
  quoteCart,
  writeOrder,
  type PaymentRow,
} from './queries.ts';
import { buyingPathCounts, insertFlight, putInCart, ticketsOf } from './testing.ts';

/**
 * The checkout's order transaction is one call of the 019 migration's `checkout_write_order` with
 * the order's ticket lines read behind it, and the confirmation with its tickets one transaction
 * whose statements go out together (docs/decisions/008-checkout-state-machine.md, "Fewer round
 * trips"). Here: each refusal of the function writes nothing, a hold is consumed instead of taking
 * stock, a failed ticket insert still confirms the order, tickets signed ahead are stored only
 * with their order's confirmation, and a checkout's statements go out in six event-loop turns
 * (fifteen, then five, then four with the confirmation's BEGIN and COMMIT pipelined before
 * docs/decisions/032-one-plain-write-path.md).
 */

const { sql, url } = await createTestHarness();
const airline = await insertUser(sql, { role: 'airline', airlineStatus: 'approved' });
const airlineId = airline.airlineId!;
const quiet = createLogger('silent');

/** The payment row of a card checkout of `quote` by `userId` (of its seat hold, with `holdId`). */
async function claimPayment(
  userId: string,
  quote: Pick<Parameters<typeof insertPayment>[1], 'lines' | 'totals'>,
  holdId?: string,
) {
  return (await insertPayment(sql, {
    userId,
    provider: 'test',
    idempotencyKey: randomUUID(),
    method: 'card',
    paymentMethod: 'pm_card_visa',
    requestHash: 'h',
    ...quote,
    receiptEmail: null,
    leaseMs: 60_000,
    holdId,
  }))!;
}

/** A customer with `amount` tickets of a new flight in the cart, and the payment row claiming it. */
async function startedCheckout({ amount = 2, tickets = 10, priceCents = 120_00 } = {}) {
  const user = await insertUser(sql);
  const flight = await insertFlight(sql, airlineId, { priceCents, tickets });
  await putInCart(sql, user.id, flight, amount);
  const payment = await claimPayment(user.id, await quoteCart(sql, user.id));
  return { user, flight, payment };
}

/** Everything the order transaction writes, and the payment row: equal means nothing was kept. */
async function snapshot(paymentId: string) {
  const [payment] = await sql`
    SELECT status, order_id, provider_payment_id, failure_code, updated_at FROM payments WHERE id = ${paymentId}`;
  const [holds] = await sql`
    SELECT md5(coalesce(string_agg(h::text, '|' ORDER BY id), '')) AS hash FROM seat_holds h`;
  return { ...(await buyingPathCounts(sql)), payment, holds };
}

/** Carries a value out of a transaction that must not be kept. */
class RolledBack {
  constructor(readonly value: number) {}
}

async function refusal(payment: PaymentRow): Promise<string> {
  const error = await writeOrder(sql, payment, `pi_${randomUUID()}`).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OrderRefusedError);
  return (error as OrderRefusedError).reason;
}

describe('checkout_write_order', () => {
  test('writes the order, its lines with the snapshot, the sales, takes the stock, empties the cart and links the payment', async () => {
    const { user, flight, payment } = await startedCheckout({ amount: 3, tickets: 10 });
    await sql`UPDATE flights SET departure_hour = '08:15:42' WHERE id = ${flight}`;
    const { payment: linked } = await writeOrder(sql, payment, 'pi_written');
    expect(linked).toMatchObject({
      id: payment.id,
      status: 'authorized',
      provider_payment_id: 'pi_written',
    });
    expect(linked.order_id).toEqual(expect.any(String));
    expect(await ticketsOf(sql, flight)).toBe(7);
    const [order] = await sql`
      SELECT user_id, payment_id, status, subtotal_cents, fee_cents, total_cents FROM orders WHERE id = ${linked.order_id}`;
    expect(order).toEqual({
      user_id: user.id,
      payment_id: 'pi_written',
      status: 'pending',
      subtotal_cents: payment.subtotal_cents,
      fee_cents: payment.fee_cents,
      total_cents: payment.amount_cents,
    });
    const lines = await sql`
      SELECT l.flight_id, l.airline_id, l.amount, l.unit_price_cents, l.origin, l.destination,
             l.departure_hour::text, l.arrival_hour::text, l.departure_date = f.departure_date AS same_date,
             s.amount AS sold, s.unit_price_cents AS sold_at
      FROM order_lines l JOIN flights f ON f.id = l.flight_id JOIN sales s ON s.order_line_id = l.id
      WHERE l.order_id = ${linked.order_id}`;
    expect(lines).toEqual([
      {
        flight_id: flight,
        airline_id: airlineId,
        amount: 3,
        unit_price_cents: 120_00,
        origin: 'Argentina',
        destination: 'Chile',
        // The snapshot is to the minute, as it always was.
        departure_hour: '08:15:00',
        arrival_hour: '10:30:00',
        same_date: true,
        sold: 3,
        sold_at: 120_00,
      },
    ]);
    const [cart] = await sql`SELECT deleted FROM cart_lines WHERE user_id = ${user.id}`;
    expect(cart).toEqual({ deleted: true });
  });

  test('no stock: nothing is written, the stock, the cart and the payment stay as they were', async () => {
    const { flight, payment } = await startedCheckout({ amount: 2 });
    await sql`UPDATE flights SET tickets = 1 WHERE id = ${flight}`;
    const before = await snapshot(payment.id);
    expect(await refusal(payment)).toBe('no_stock');
    expect(await snapshot(payment.id)).toEqual(before);
  });

  test('a deleted flight is no stock, whatever its price', async () => {
    const { flight, payment } = await startedCheckout();
    await sql`UPDATE flights SET deleted = true, price_cents = price_cents + 1 WHERE id = ${flight}`;
    const before = await snapshot(payment.id);
    expect(await refusal(payment)).toBe('no_stock');
    expect(await snapshot(payment.id)).toEqual(before);
  });

  test('a moved price: nothing is written', async () => {
    const { flight, payment } = await startedCheckout();
    await sql`UPDATE flights SET price_cents = price_cents + 100 WHERE id = ${flight}`;
    const before = await snapshot(payment.id);
    expect(await refusal(payment)).toBe('price_changed');
    expect(await snapshot(payment.id)).toEqual(before);
  });

  const moves = {
    'decided to roll back': { status: 'authorized', failure_code: 'no_stock' },
    'failed meanwhile': { status: 'failed' },
    'was authorised by another hold': { status: 'authorized', provider_payment_id: 'pi_other' },
  };
  test.each(Object.keys(moves) as (keyof typeof moves)[])(
    'a payment that %s: the stock taken before the check is given back, nothing is written',
    async (name) => {
      const { flight, payment } = await startedCheckout();
      await sql`UPDATE payments SET ${sql(moves[name])} WHERE id = ${payment.id}`;
      const before = await snapshot(payment.id);
      expect(await refusal(payment)).toBe('payment_moved');
      expect(await snapshot(payment.id)).toEqual(before);
      expect(await ticketsOf(sql, flight)).toBe(10);
    },
  );

  test('an unknown payment is payment_moved', async () => {
    const { payment } = await startedCheckout();
    expect(await refusal({ ...payment, id: randomUUID() })).toBe('payment_moved');
  });

  test('with a seat hold: the hold is consumed instead of taking stock; a released one writes nothing', async () => {
    const holds = createHolds({ sql, logger: quiet, settings: defaultHoldSettings });
    const paid = async (released: boolean) => {
      const user = await insertUser(sql);
      const flight = await insertFlight(sql, airlineId, { priceCents: 90_00, tickets: 10 });
      await putInCart(sql, user.id, flight, 2);
      const { hold } = await holds.hold(user.id, randomUUID());
      if (released) await holds.cancel(user.id, hold.id);
      const payment = await claimPayment(
        user.id,
        {
          lines: hold.lines.map((l) => ({ ...l, unitPriceCents: Number(l.unitPriceCents) })),
          totals: {
            subtotalCents: hold.subtotal_cents,
            feeCents: hold.fee_cents,
            totalCents: hold.total_cents,
          },
        },
        hold.id,
      );
      return { flight, hold, payment };
    };

    const bought = await paid(false);
    expect(await ticketsOf(sql, bought.flight)).toBe(8);
    const { payment: linked } = await writeOrder(sql, bought.payment, 'pi_held');
    expect(await ticketsOf(sql, bought.flight), 'the hold took the seats already').toBe(8);
    const [hold] =
      await sql`SELECT status, payment_id FROM seat_holds WHERE id = ${bought.hold.id}`;
    expect(hold).toEqual({ status: 'consumed', payment_id: bought.payment.id });
    const [line] =
      await sql`SELECT amount, unit_price_cents FROM order_lines WHERE order_id = ${linked.order_id}`;
    expect(line).toEqual({ amount: 2, unit_price_cents: 90_00 });

    const released = await paid(true);
    const before = await snapshot(released.payment.id);
    expect(await refusal(released.payment)).toBe('hold_expired');
    expect(await snapshot(released.payment.id)).toEqual(before);
  });

  test('reaches the flights by their key, never by scanning the catalogue (023 migration)', async () => {
    const { flight, payment } = await startedCheckout();
    // Rolled back: a catalogue of 3,000 flights, analysed, for this one call.
    const scans = await sql
      .begin(async (tx) => {
        await tx`
          INSERT INTO flights
          SELECT (jsonb_populate_record(f, jsonb_build_object('id', gen_random_uuid()))).*
          FROM flights f, generate_series(1, 3000) WHERE f.id = ${flight}`;
        await tx`ANALYZE flights`;
        const seqScans = async () =>
          Number(
            (
              await tx<{ seq_scan: string }[]>`
                SELECT seq_scan FROM pg_stat_xact_user_tables WHERE relname = 'flights'`
            )[0]!.seq_scan,
          );
        const before = await seqScans();
        await tx`SELECT id FROM checkout_write_order(${payment.id}, 'pi_by_key')`;
        throw new RolledBack((await seqScans()) - before);
      })
      .catch((error: unknown) => {
        if (error instanceof RolledBack) return error.value;
        throw error;
      });
    // Before 023 the generic plan scanned all 3,001 flights three times per checkout.
    expect(scans).toBe(0);
  });
});

describe('markCaptured', () => {
  const tickets = createTicketService({ sql, logger: quiet });

  test('a ticket insert that fails takes the confirmation with it; the order is then confirmed alone', async () => {
    const { payment } = await startedCheckout();
    const { payment: linked } = await writeOrder(sql, payment, 'pi_confirm');
    // No such order line: the insert fails (after the order was confirmed in the same transaction).
    const [signed] = await tickets.signForPayment(sql, linked.id);
    const captured = await markCaptured(sql, linked, [{ ...signed!, orderLineId: randomUUID() }]);
    expect(captured.payment.status).toBe('captured');
    expect(captured.order).toMatchObject({ id: linked.order_id, status: 'confirmed' });
    const [order] = await sql`SELECT status FROM orders WHERE id = ${linked.order_id}`;
    expect(order).toEqual({ status: 'confirmed' });
    expect(await findPayment(sql, payment.id)).toMatchObject({ status: 'captured' });
    const [stored] =
      await sql`SELECT count(*)::int AS n FROM tickets WHERE order_id = ${linked.order_id}`;
    expect(stored).toEqual({ n: 0 });
  });

  test('tickets signed ahead are stored with the confirmation, and never for an order it did not confirm', async () => {
    const { payment } = await startedCheckout();
    const { payment: linked, after: signed } = await writeOrder(sql, payment, 'pi_signed', (db) =>
      tickets.signForPayment(db, payment.id),
    );
    expect(signed, 'read behind the order statement, the lines are there').toHaveLength(1);
    // A payment that may not be captured (it moved meanwhile): the confirmation's transaction
    // is refused whole, the tickets' insert with it.
    await sql`UPDATE payments SET status = 'released' WHERE id = ${linked.id}`;
    await expect(markCaptured(sql, linked, signed)).rejects.toThrow(/cannot be marked captured/);
    const count = async () =>
      (await sql`SELECT count(*)::int AS n FROM tickets WHERE order_id = ${linked.order_id}`)[0];
    expect(await count()).toEqual({ n: 0 });

    await sql`UPDATE payments SET status = 'authorized' WHERE id = ${linked.id}`;
    const captured = await markCaptured(sql, linked, signed);
    expect(captured.order).toMatchObject({
      status: 'confirmed',
      stocks: [{ ticket: signed![0]!.token }],
    });
    expect(await count()).toEqual({ n: 1 });
  });
});

test('a card checkout sends its statements in six event-loop turns: the start two, the order one (its tickets read behind it), the confirmation three (BEGIN, its statements together, COMMIT)', async () => {
  // Event-loop turns: a statement sent after an answer came back is sent in a later turn.
  let turn = 0;
  let counting = true;
  const countTurns = () => {
    turn++;
    if (counting) setImmediate(countTurns);
  };
  const statements: { turn: number; text: string }[] = [];
  // One connection: the warm-up prepares every statement on it. With more, the measured checkout
  // may reserve one that never ran the confirmation, whose statements then wait to be described.
  const counted = createSql(url, {
    max: 1,
    debug: (_connection, query) => {
      statements.push({ turn, text: query.trim().split(/\s+/).slice(0, 3).join(' ') });
    },
  });
  const pool = createSql(url, { max: 2 });
  try {
    const checkout = createCheckout({
      sql: counted,
      logger: quiet,
      payments: createTestPayments({ timeoutMs: 2_000 }),
      tickets: createTicketService({ sql: pool, logger: quiet }),
    });
    const buy = async () => {
      const user = await insertUser(sql);
      const flight = await insertFlight(sql, airlineId, { priceCents: 100_00, tickets: 10 });
      await putInCart(sql, user.id, flight, 1);
      return checkout.start({
        userId: user.id,
        idempotencyKey: randomUUID(),
        amountCents: calculateTotals([{ unitPriceCents: 100_00, amount: 1 }]).totalCents,
        method: { type: 'card', paymentMethodId: 'pm_card_visa' },
      });
    };
    // The first checkout on a connection also reads postgres.js's types and prepares statements.
    await buy();
    statements.length = 0;
    countTurns();
    const outcome = await buy();
    expect(outcome.status).toBe('completed');
    const turns = [...new Set(statements.map((s) => s.turn))];
    const byTurn = turns.map((t) =>
      statements
        .filter((s) => s.turn === t)
        .map((s) => s.text)
        .sort(),
    );
    expect(byTurn).toEqual([
      ['SELECT * FROM', 'SELECT c.flight_id, c.amount,'],
      ['INSERT INTO payments'],
      ['SELECT * FROM', 'SELECT kid, private_key,', 'SELECT l.id AS'],
      ['begin'],
      ['INSERT INTO tickets', 'SELECT o.id, o.user_id,', 'WITH captured AS'],
      ['commit'],
    ]);
    // The answer's order was read in the confirmation's transaction, after the tickets: it
    // carries them.
    expect(outcome.status === 'completed' && outcome.order).toMatchObject({
      status: 'confirmed',
      stocks: [{ ticket: expect.any(String) }],
    });
    const [issued] = await sql`
      SELECT count(*)::int AS n FROM tickets WHERE order_id = ${outcome.status === 'completed' ? outcome.orderId : null}`;
    expect(issued).toEqual({ n: 1 });
  } finally {
    counting = false;
    await counted.end({ timeout: 1 });
    await pool.end({ timeout: 1 });
  }
});
