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
