import { expect, test, vi } from 'vitest';
import { createSyncStatusStore } from './status.ts';

test('the unsent count is the sum over the collections that know theirs, null while none does', () => {
  const status = createSyncStatusStore();
  const listener = vi.fn();
  status.subscribe(listener);
  expect(status.getSnapshot().unsent).toBeNull();

  status.reportUnsent('cart', 2);
  status.reportUnsent('favourites', 1);
  status.reportUnsent('preferences', null);
  expect(status.getSnapshot().unsent).toBe(3);
  expect(listener).toHaveBeenCalledTimes(2);

  status.forget('cart');
  expect(status.getSnapshot().unsent).toBe(1);
  status.reportUnsent('favourites', null);
  expect(status.getSnapshot().unsent).toBeNull();
});

test('a report that changes nothing keeps the same snapshot and tells nobody', () => {
  const status = createSyncStatusStore();
  status.reportUnsent('cart', 0);
  const before = status.getSnapshot();
  const listener = vi.fn();
  status.subscribe(listener);
  status.reportUnsent('cart', 0);
  status.setActive('cart', false);
  expect(status.getSnapshot()).toBe(before);
  expect(listener).not.toHaveBeenCalled();
  status.setActive('cart', true);
  expect(status.getSnapshot()).toMatchObject({ phase: 'syncing', unsent: 0 });
  expect(listener).toHaveBeenCalledTimes(1);
});

test('live while the stream is connected and the server reachable; freshness dates the catalogue', () => {
  let now = 1_000;
  const status = createSyncStatusStore(true, () => now);
  expect(status.getSnapshot()).toMatchObject({ live: false, catalogueFreshAt: null });

  // A pull of the catalogue dates it; other collections' pulls do not.
  status.reportPulled('flights');
  now = 2_000;
  status.reportPulled('cart');
  expect(status.getSnapshot()).toMatchObject({ live: false, catalogueFreshAt: 1_000 });

  status.setStreamConnected(true);
  expect(status.getSnapshot().live).toBe(true);

  // Going offline while live: the catalogue was fresh until that moment.
  now = 60_000;
  status.setBrowserOnline(false);
  expect(status.getSnapshot()).toMatchObject({ live: false, catalogueFreshAt: 60_000 });
  now = 90_000;
  status.setBrowserOnline(true);
  expect(status.getSnapshot()).toMatchObject({ live: true, catalogueFreshAt: 60_000 });

  // The server unreachable, or the stream lost, ends being live too.
  now = 120_000;
  status.reportError('flights', { message: 'The server cannot be reached', offline: true });
  expect(status.getSnapshot()).toMatchObject({ live: false, catalogueFreshAt: 120_000 });
  status.reportSuccess('flights');
  expect(status.getSnapshot().live).toBe(true);
  now = 150_000;
  status.setStreamConnected(false);
  expect(status.getSnapshot()).toMatchObject({ live: false, catalogueFreshAt: 150_000 });
});

test('a freshness saved by an earlier session is kept only when newer than what is known', () => {
  let now = 5_000;
  const status = createSyncStatusStore(true, () => now);
  status.restoreCatalogueFreshAt(null);
  expect(status.getSnapshot().catalogueFreshAt).toBeNull();
  status.restoreCatalogueFreshAt(3_000);
  expect(status.getSnapshot().catalogueFreshAt).toBe(3_000);
  status.reportPulled('flights');
  status.restoreCatalogueFreshAt(4_000);
  expect(status.getSnapshot().catalogueFreshAt).toBe(5_000);
  now = 6_000;
  const before = status.getSnapshot();
  status.restoreCatalogueFreshAt(2_000);
  expect(status.getSnapshot()).toBe(before);
});
