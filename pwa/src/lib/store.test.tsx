// @vitest-environment happy-dom
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, expect, test, vi } from 'vitest';
import { createListeners, createStore, useStore, type ReadableStore } from './store.ts';

// React warns outside a test renderer unless told that `act` is in use.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const unmounts: (() => void)[] = [];
afterEach(() => {
  for (const unmount of unmounts.splice(0)) act(unmount);
  vi.restoreAllMocks();
});

/** Renders `read()` in a component; returns what it rendered and how many times. */
function renderReading<S>(read: () => S) {
  const seen: S[] = [];
  function Reader() {
    const value = read();
    seen.push(value);
    return <span>{String(value)}</span>;
  }
  const container = document.createElement('div');
  const root = createRoot(container);
  act(() => root.render(<Reader />));
  unmounts.push(() => root.unmount());
  return { seen, container, unmount: () => act(() => root.unmount()) };
}

test('listeners are called on notify with its value, until they unsubscribe', () => {
  const listeners = createListeners<string>();
  const first = vi.fn();
  const second = vi.fn();
  const stopFirst = listeners.subscribe(first);
  listeners.subscribe(second);
  listeners.notify('a');
  stopFirst();
  listeners.notify('b');
  expect(first.mock.calls).toEqual([['a']]);
  expect(second.mock.calls).toEqual([['a'], ['b']]);
});

test('a listener that unsubscribes another during a notify does not stop that one being called', () => {
  const listeners = createListeners();
  const calls: string[] = [];
  let stopSecond = () => {};
  listeners.subscribe(() => {
    calls.push('first');
    stopSecond();
  });
  stopSecond = listeners.subscribe(() => calls.push('second'));
  listeners.notify();
  listeners.notify();
  expect(calls).toEqual(['first', 'second', 'first']);
});

test('a store tells its listeners of a new value only, and not after they unsubscribe', () => {
  const list = ['a'];
  const store = createStore<readonly string[]>(list);
  const listener = vi.fn();
  const unsubscribe = store.subscribe(listener);
  store.set(list);
  expect(listener).not.toHaveBeenCalled();
  store.set(['b']);
  expect(listener).toHaveBeenCalledTimes(1);
  expect(store.get()).toEqual(['b']);
  unsubscribe();
  store.set(['c']);
  expect(listener).toHaveBeenCalledTimes(1);
  expect(store.get()).toEqual(['c']);
});

test('a component re-renders when the store changes and not when the same value is set again', () => {
  const store = createStore({ count: 1 });
  const { seen, container } = renderReading(() => useStore(store).count);
  expect(container.textContent).toBe('1');
  act(() => store.set(store.get()));
  expect(seen).toEqual([1]);
  act(() => store.set({ count: 2 }));
  expect(container.textContent).toBe('2');
  expect(seen).toEqual([1, 2]);
});

test('a selected part is a stable snapshot: a change elsewhere in the store renders nothing', () => {
  const errors = vi.spyOn(console, 'error');
  const user = { name: 'Ada' };
  const store = createStore({ user, theme: 'light' });
  const { seen, container } = renderReading(() => useStore(store, (state) => state.user).name);
  act(() => store.set({ user, theme: 'dark' }));
  expect(seen).toEqual(['Ada']);
  act(() => store.set({ user: { name: 'Grace' }, theme: 'dark' }));
  expect(container.textContent).toBe('Grace');
  expect(seen).toEqual(['Ada', 'Grace']);
  // React checks that getSnapshot returns the same value twice in a row; it would say so here.
  expect(errors).not.toHaveBeenCalled();
});

test('an unmounted component unsubscribes from the store', () => {
  const store = createStore(0);
  let subscribed = 0;
  const counted: ReadableStore<number> = {
    get: store.get,
    subscribe(listener) {
      subscribed += 1;
      const unsubscribe = store.subscribe(listener);
      return () => {
        subscribed -= 1;
        unsubscribe();
      };
    },
  };
  const { unmount } = renderReading(() => useStore(counted));
  expect(subscribed).toBe(1);
  unmount();
  expect(subscribed).toBe(0);
});

test('prerendering shows the prerendered value, or else the store value', () => {
  const store = createStore('ready');
  function Status() {
    return (
      <>
        {useStore(
          store,
          (value) => value,
          () => 'loading',
        )}
      </>
    );
  }
  function Plain() {
    return <>{useStore(store)}</>;
  }
  expect(renderToString(<Status />)).toBe('loading');
  expect(renderToString(<Plain />)).toBe('ready');
});
