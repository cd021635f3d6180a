import { useSyncExternalStore } from 'react';

/**
 * The one home of the app's small observable values (toasts, the open dialog, the session, the
 * sync status…): state kept outside React, which components read with useSyncExternalStore and
 * plain modules read with `get()`. `pwa/src/lib/` imports nothing of the app, so every layer may
 * use it (eslint.config.js).
 */

/** Functions to call when something happens; `subscribe` returns the unsubscription. */
export interface Listeners<T = void> {
  subscribe(listener: (value: T) => void): () => void;
  /** Calls every listener subscribed when it starts (one that unsubscribes meanwhile included). */
  notify(value: T): void;
}

export function createListeners<T = void>(): Listeners<T> {
  const listeners = new Set<(value: T) => void>();
  return {
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    notify(value) {
      for (const listener of [...listeners]) listener(value);
    },
  };
}

/** A value that tells when it changes: what useSyncExternalStore reads. */
export interface ReadableStore<T> {
  get(): T;
  subscribe(listener: () => void): () => void;
}

export interface Store<T> extends ReadableStore<T> {
  /** Replaces the value and tells the listeners, unless it is the same value (Object.is). */
  set(next: T): void;
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial;
  const changed = createListeners();
  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      changed.notify();
    },
    subscribe: changed.subscribe,
  };
}

/**
 * A store's value (or the part `select` picks), live. `select` must return the same value for the
 * same store value (a field, an entry; not a new object), or React would render forever.
 * `prerendered` is what the HTML made at build time showed (hydration starts from it); by default
 * the store's value.
 */
export function useStore<T>(store: ReadableStore<T>): T;
export function useStore<T, S>(
  store: ReadableStore<T>,
  select: (value: T) => S,
  prerendered?: () => S,
): S;
export function useStore<T, S>(
  store: ReadableStore<T>,
  select: (value: T) => S = (value) => value as unknown as S,
  prerendered?: () => S,
): S {
  const snapshot = () => select(store.get());
  return useSyncExternalStore(store.subscribe, snapshot, prerendered ?? snapshot);
}
