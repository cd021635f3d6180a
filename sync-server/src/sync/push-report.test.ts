import { randomUUID } from 'node:crypto';
import {
  PUSH_REPORT_HEADER,
  REVIEW_COMMENT_MAX_LENGTH,
  messages,
  pushReportSchema,
} from '@skyport/shared';
import { beforeAll, describe, expect, test } from 'vitest';
import { FLIGHT_NOT_FOUND } from '../features/cart/queries.ts';
import { createTestHarness } from '../test/harness.ts';
import { REVIEW_DRAFT_REASONS } from './review-drafts.ts';
import {
  insertAirline,
  insertFlights,
  insertOrder,
  pullUrl,
  pushedCartLine,
  pushedFavourite,
  pushInit,
  pushedReviewDraft,
  syncHeaders,
  type SyncTestDoc,
} from './test-fixtures.ts';

/**
 * The push report (docs/architecture.md §4.4, decision 017): a client that sends
 * `PUSH_REPORT_HEADER` learns which rows were conflicts and why a row was refused; a client that
 * does not gets the bare array and the whole-push refusals it has always had.
 */

const { sql, app, actors } = await createTestHarness({ actors: true });
let customerId: string;
let flightIds: string[];
let deletedFlightId: string;

type Doc = SyncTestDoc;

async function push(collection: string, rows: unknown[], report: boolean) {
  const init = pushInit(actors.customer.headers(), { rows });
  if (report) (init.headers as Record<string, string>)[PUSH_REPORT_HEADER] = '1';
  return app.request(`/api/sync/${collection}/push`, init);
}

async function reportOf(collection: 'cart' | 'favourites' | 'reviewDrafts', response: Response) {
  expect(response.status).toBe(200);
  const report = pushReportSchema(collection).parse(await response.json());
  return { ...report, documents: report.documents as Doc[] };
}

async function pullDocs(collection: string): Promise<Doc[]> {
  const response = await app.request(pullUrl(collection, { limit: 1000 }), {
    headers: syncHeaders(actors.customer.headers()),
  });
  return ((await response.json()) as { documents: Doc[] }).documents;
}

async function cartRow(flightId: string) {
  const [row] = await sql<{ amount: number; deleted: boolean }[]>`
    SELECT amount, deleted FROM cart_lines WHERE user_id = ${customerId} AND flight_id = ${flightId}`;
  return row;
}

beforeAll(async () => {
  customerId = actors.customer.user!.id;
  const airlineId = await insertAirline(sql);
  flightIds = await insertFlights(sql, airlineId, 6);
  deletedFlightId = flightIds[5]!;
});

describe('a cart line or favourite of a deleted flight', () => {
  beforeAll(async () => {
    // The customer had one ticket of this flight in the cart before its airline deleted it.
    await push(
      'cart',
      [{ newDocumentState: pushedCartLine(customerId, deletedFlightId, 1) }],
      true,
    );
    await sql`UPDATE flights SET deleted = true WHERE id = ${deletedFlightId}`;
  });

  test('without the report header the whole push is refused with 404, as before', async () => {
    const response = await push(
      'cart',
      [
        { newDocumentState: pushedCartLine(customerId, flightIds[0]!, 1) },
        { newDocumentState: pushedCartLine(customerId, deletedFlightId, 3) },
      ],
      false,
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ message: FLIGHT_NOT_FOUND });
    expect(await cartRow(flightIds[0]!)).toBeUndefined();
  });

  test('with it, that row alone is refused with its reason and the server state; the rest is written', async () => {
    const [master] = (await pullDocs('cart')).filter((doc) => doc.id === deletedFlightId);
    const report = await reportOf(
      'cart',
      await push(
        'cart',
        [
          { newDocumentState: pushedCartLine(customerId, flightIds[0]!, 1) },
          {
            newDocumentState: pushedCartLine(customerId, deletedFlightId, 3),
            assumedMasterState: master,
          },
        ],
        true,
      ),
    );
    expect(report.rejected).toEqual([{ id: deletedFlightId, reason: FLIGHT_NOT_FOUND }]);
    expect(report.conflicts).toEqual([]);
    // The server's document of the refused row (one ticket, flight deleted) goes back with it.
    expect(report.documents.find((doc) => doc.id === deletedFlightId)).toMatchObject({
      amount: 1,
      flightDeleted: true,
      _deleted: false,
    });
    expect(await cartRow(deletedFlightId)).toEqual({ amount: 1, deleted: false });
    expect(await cartRow(flightIds[0]!)).toEqual({ amount: 1, deleted: false });
  });

  test('a refused row the server has no document of comes back without a document', async () => {
    const report = await reportOf(
      'favourites',
      await push(
        'favourites',
        [{ newDocumentState: pushedFavourite(customerId, deletedFlightId, { _deleted: false }) }],
        true,
      ),
    );
    expect(report).toEqual({
      documents: [],
      conflicts: [],
      rejected: [{ id: deletedFlightId, reason: FLIGHT_NOT_FOUND }],
      revisions: {},
    });
    const [row] = await sql`SELECT 1 FROM favourites WHERE flight_id = ${deletedFlightId}`;
    expect(row).toBeUndefined();
  });

  test('removing the line of a deleted flight is still accepted', async () => {
    const [master] = (await pullDocs('cart')).filter((doc) => doc.id === deletedFlightId);
    const report = await reportOf(
      'cart',
      await push(
        'cart',
        [{ newDocumentState: { ...master!, _deleted: true }, assumedMasterState: master }],
        true,
      ),
    );
    expect(report.rejected).toEqual([]);
    expect(await cartRow(deletedFlightId)).toEqual({ amount: 1, deleted: true });
  });
});

describe('conflicts are named', () => {
  test('a row pushed from an outdated state is listed as a conflict with its master; a written row is not', async () => {
    const [line] = (await pullDocs('cart')).filter((doc) => doc.id === flightIds[0]);
    // Another device set two tickets meanwhile.
    await sql`UPDATE cart_lines SET amount = 2 WHERE user_id = ${customerId} AND flight_id = ${flightIds[0]!}`;
    const report = await reportOf(
      'cart',
      await push(
        'cart',
        [
          { newDocumentState: { ...line!, amount: 5 }, assumedMasterState: line },
          // A new line with a stale summary: written; its stored document comes with the change
          // stream's echo, not in the answer (decision 027).
          { newDocumentState: pushedCartLine(customerId, flightIds[1]!, 1) },
        ],
        true,
      ),
    );
    expect(report.conflicts).toEqual([flightIds[0]]);
    expect(report.rejected).toEqual([]);
    expect(report.documents.map((doc) => [doc.id, doc.amount])).toEqual([[flightIds[0], 2]]);
    expect(await cartRow(flightIds[0]!)).toEqual({ amount: 2, deleted: false });
    expect(await cartRow(flightIds[1]!)).toEqual({ amount: 1, deleted: false });
  });
});

describe('revisions: how a device tells a late echo from a newer state (docs/architecture.md §4.6)', () => {
  async function pull(collection: string) {
    const response = await app.request(pullUrl(collection, { limit: 1000 }), {
      headers: syncHeaders(actors.customer.headers()),
    });
    return (await response.json()) as { documents: Doc[]; revisions?: number[] };
  }
  const revisionOf = (answer: { documents: Doc[]; revisions?: number[] }, id: string) =>
    answer.revisions?.[answer.documents.findIndex((doc) => doc.id === id)];

  test('a push names the revision of every row it accepted, the one a pull then shows; a later write has a larger one', async () => {
    const flightId = flightIds[2]!;
    const first = await reportOf(
      'cart',
      await push('cart', [{ newDocumentState: pushedCartLine(customerId, flightId, 1) }], true),
    );
    const afterFirst = await pull('cart');
    expect(afterFirst.revisions).toHaveLength(afterFirst.documents.length);
    const firstRevision = first.revisions?.[flightId];
    expect(firstRevision).toBe(revisionOf(afterFirst, flightId));

    const line = afterFirst.documents.find((doc) => doc.id === flightId)!;
    const second = await reportOf(
      'cart',
      await push(
        'cart',
        [{ newDocumentState: { ...line, amount: 2 }, assumedMasterState: line }],
        true,
      ),
    );
    const secondRevision = second.revisions?.[flightId];
    expect(secondRevision).toBeGreaterThan(firstRevision!);
    expect(revisionOf(await pull('cart'), flightId)).toBe(secondRevision);

    // Sent again as it is: nothing written, and the answer names the row's revision as it stands.
    const again = await reportOf(
      'cart',
      await push(
        'cart',
        [{ newDocumentState: { ...line, amount: 2 }, assumedMasterState: { ...line, amount: 2 } }],
        true,
      ),
    );
    expect(again.revisions).toEqual({ [flightId]: secondRevision });
  });

  test('a conflict or a refused row has no revision in the answer', async () => {
    const flightId = flightIds[3]!;
    await push('favourites', [{ newDocumentState: pushedFavourite(customerId, flightId) }], true);
    const [favourite] = (await pull('favourites')).documents.filter((doc) => doc.id === flightId);
    await sql`UPDATE favourites SET deleted = true WHERE user_id = ${customerId} AND flight_id = ${flightId}`;
    const report = await reportOf(
      'favourites',
      await push(
        'favourites',
        [
          { newDocumentState: { ...favourite!, _deleted: false }, assumedMasterState: favourite },
          { newDocumentState: pushedFavourite(customerId, deletedFlightId) },
          { newDocumentState: pushedFavourite(customerId, flightIds[4]!) },
        ],
        true,
      ),
    );
    expect(report.conflicts).toEqual([flightId]);
    expect(report.rejected.map((item) => item.id)).toEqual([deletedFlightId]);
    expect(Object.keys(report.revisions ?? {})).toEqual([flightIds[4]]);
  });

  test('pulls of the public catalogue carry no revisions', async () => {
    expect((await pull('flights')).revisions).toBeUndefined();
  });
});

describe('review drafts', () => {
  let orderId: string;
  const draft = (fields: Partial<Doc> = {}): Doc =>
    pushedReviewDraft(customerId, orderId, flightIds[2]!, fields);

  beforeAll(async () => {
    orderId = await insertOrder(sql, customerId, [flightIds[2]!, flightIds[3]!]);
  });

  test('an accepted draft is not refused; a second one for the same line is, with the reason', async () => {
    const first = await reportOf(
      'reviewDrafts',
      await push('reviewDrafts', [{ newDocumentState: draft() }], true),
    );
    expect(first.rejected).toEqual([]);
    expect(first.documents).toEqual([expect.objectContaining({ status: 'accepted' })]);

    const again = draft({ comment: 'Again' });
    const second = await reportOf(
      'reviewDrafts',
      await push('reviewDrafts', [{ newDocumentState: again }], true),
    );
    expect(second.rejected).toEqual([
      { id: again.id, reason: REVIEW_DRAFT_REASONS.alreadyReviewed },
    ]);
    // Stored as refused, with the reason, so every device of the customer sees it.
    expect(second.documents).toEqual([
      { ...again, status: 'rejected', reason: REVIEW_DRAFT_REASONS.alreadyReviewed },
    ]);
    expect(second.conflicts).toEqual([]);
  });

  test('a draft for an order of someone else is refused with "not allowed"', async () => {
    const sent = draft({ orderId: randomUUID(), flightId: flightIds[3]! });
    const report = await reportOf(
      'reviewDrafts',
      await push('reviewDrafts', [{ newDocumentState: sent }], true),
    );
    expect(report.rejected).toEqual([{ id: sent.id, reason: messages.notAllowed }]);
  });

  test('an old client gets the bare array for the same refusal', async () => {
    const sent = draft({ flightId: flightIds[3]!, name: ' ' });
    const response = await push('reviewDrafts', [{ newDocumentState: sent }], false);
    expect(await response.json()).toEqual([
      { ...sent, status: 'rejected', reason: messages.enterAName },
    ]);
  });

  test('a comment over the stored length refuses the whole push (400) in both modes', async () => {
    for (const report of [false, true]) {
      const sent = draft({
        flightId: flightIds[3]!,
        comment: 'x'.repeat(REVIEW_COMMENT_MAX_LENGTH + 1),
      });
      const response = await push('reviewDrafts', [{ newDocumentState: sent }], report);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toMatch(/comment/);
    }
  });
});
