import { expect, test } from 'vitest';
import { MemoryStorage } from '../../../test/memory-storage.ts';
import { attemptStorageKey, createAttemptStore, hasStoredAttempt } from './attempt-store.ts';
import { cardAttempt as attempt } from './test-attempts.ts';

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
