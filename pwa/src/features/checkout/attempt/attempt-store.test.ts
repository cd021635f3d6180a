import { expect, test } from 'vitest';
import type { Attempt } from './attempt-machine.ts';
import { attemptStorageKey, createAttemptStore, hasStoredAttempt } from './attempt-store.ts';

class MemoryStorage implements Storage {
  items = new Map<string, string>();
  failWrites = false;
  get length() {
    return this.items.size;
  }
  clear() {
    this.items.clear();
  }
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  key(index: number) {
    return [...this.items.keys()][index] ?? null;
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  setItem(key: string, value: string) {
    if (this.failWrites) throw new DOMException('full', 'QuotaExceededError');
    this.items.set(key, value);
  }
}

const attempt: Attempt = {
  key: '5f0c8a2e-0b9e-4bb4-9f7e-2d1f0f3c9a11',
  cart: 'f1x2|30030',
  amountCents: 30_030,
  method: 'card',
  paymentMethodId: 'pm_card_visa',
  receiptEmail: 'ana@example.test',
  paymentId: null,
  step: 'start',
};

test('one entry per customer, kept until cleared', () => {
  const storage = new MemoryStorage();
  const ana = createAttemptStore('ana', storage);
  ana.save(attempt);
  expect(createAttemptStore('ana', storage).load()).toEqual(attempt);
  expect(createAttemptStore('bob', storage).load()).toBeNull();
  expect(hasStoredAttempt('ana', storage)).toBe(true);
  ana.save(null);
  expect(storage.getItem(attemptStorageKey('ana'))).toBeNull();
  expect(hasStoredAttempt('ana', storage)).toBe(false);
});

test('an entry that is not an attempt is ignored', () => {
  const storage = new MemoryStorage();
  storage.setItem(attemptStorageKey('ana'), '{not json');
  expect(createAttemptStore('ana', storage).load()).toBeNull();
  storage.setItem(attemptStorageKey('ana'), JSON.stringify({ ...attempt, amountCents: -1 }));
  expect(createAttemptStore('ana', storage).load()).toBeNull();
});

test('storage that refuses writes: the attempt still lives for this page', () => {
  const storage = new MemoryStorage();
  storage.failWrites = true;
  const store = createAttemptStore('ana', storage);
  store.save(attempt);
  expect(store.load()).toEqual(attempt);
  store.save(null);
  expect(store.load()).toBeNull();
});
