import { expect, test, type Page } from '@playwright/test';
import {
  PULL_MAX_BATCH,
  SYNC_PROTOCOL_VERSION,
  SYNC_VERSION_HEADER,
  cartTicketCount,
} from '@skyport/shared';
import {
  customer,
  logIn,
  logInWithForm,
  syncedCartCount,
  waitForApp,
  waitForFlights,
} from './support/helpers.ts';

/**
 * A page reloaded while the replication stores a pull (decision 017, "Seen while testing"): RxDB
 * writes a pulled document, then its record of the server's state and its checkpoints, in
 * separate IndexedDB transactions; a reload between them keeps the document without the records.
 * Here the records' writes of the login's first pulls fail (their IndexedDB transactions are
 * aborted, as a reload aborts them) and the page is reloaded. The customer's cart lines must still
 * be the server's: no "needs you", and the next ticket added is sent and kept.
 */

const LOSE_RECORDS = 'skyport-e2e-lose-replication-records';

/** The tickets in the signed-in customer's cart, as the server has them. */
async function serverTickets(page: Page): Promise<number> {
  const response = await page.request.get(`/api/sync/cart/pull?limit=${PULL_MAX_BATCH}`, {
    headers: { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION) },
  });
  const body = (await response.json()) as { documents: { amount: number; _deleted: boolean }[] };
  return cartTicketCount(body.documents.filter((line) => !line._deleted));
}

test('a cart pulled at login whose replication records were lost by a reload shows no conflict, and the next ticket is kept', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // The account has a line in its cart (earlier journeys may have left some).
  await logIn(page);
  if ((await syncedCartCount(page)) === 0) {
    await page.getByTestId('add-to-cart').first().click();
    await expect.poll(() => serverTickets(page)).toBeGreaterThan(0);
  }

  // Another browser logs in; the records of its first pulls never reach IndexedDB.
  const context = await browser.newContext();
  const device = await context.newPage();
  await device.addInitScript((flag) => {
    const transaction = IDBDatabase.prototype.transaction;
    IDBDatabase.prototype.transaction = function (
      this: IDBDatabase,
      ...args: Parameters<IDBDatabase['transaction']>
    ) {
      const opened = transaction.apply(this, args);
      if (
        sessionStorage.getItem(flag) === '1' &&
        this.name.includes('rx-replication-meta') &&
        args[1] === 'readwrite'
      )
        opened.abort();
      return opened;
    };
  }, LOSE_RECORDS);
  await device.goto('/');
  await device.evaluate((flag) => sessionStorage.setItem(flag, '1'), LOSE_RECORDS);
  await logInWithForm(device, customer);
  await waitForFlights(device);
  const tickets = await syncedCartCount(device);

  // Reloaded: the records are written again from now on.
  await device.evaluate((flag) => sessionStorage.removeItem(flag), LOSE_RECORDS);
  await device.reload();
  await waitForApp(device);
  await waitForFlights(device);
  expect(await syncedCartCount(device)).toBe(tickets);
  const status = device.getByTestId('sync-status');
  await expect(status).toHaveAttribute('data-status', 'up-to-date', { timeout: 15_000 });
  await expect(device.getByTestId('sync-unsent')).toBeHidden();
  await expect(device.getByTestId('sync-attention')).toBeHidden();

  // The next ticket is sent against the server's state and kept.
  await device.getByTestId('add-to-cart').first().click();
  await expect(device.getByTestId('cart-count')).toHaveText(String(tickets + 1));
  await expect(device.getByTestId('sync-unsent')).toBeHidden({ timeout: 15_000 });
  await expect.poll(() => serverTickets(device)).toBe(tickets + 1);
  await expect(device.getByTestId('sync-attention')).toBeHidden();
  await context.close();
});
