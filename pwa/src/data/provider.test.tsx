// @vitest-environment happy-dom
import { Profiler, Suspense, act, use } from 'react';
import { createRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, expect, test } from 'vitest';
import { createStore } from '../lib/store.ts';
import type { LocalData } from './local-data.ts';
import type { LocalDataSource } from './local-data-source.ts';
import { createSyncStatusStore } from '../sync/status.ts';
import { LocalDataProvider, useCatalogueFreshness, useLocalDataIfOpen } from './provider.tsx';

/** How the page frame and the home page see the data layer open (data/provider.tsx). */

// React warns outside a test renderer unless told that `act` is in use.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const unmounts: (() => void)[] = [];
afterEach(() => {
  for (const unmount of unmounts.splice(0)) act(unmount);
});

/** A data layer that opens when the test says so. */
function manualSource() {
  const store = createStore<LocalData | null>(null);
  const source: LocalDataSource = {
    current: store.get,
    load: () => new Promise(() => {}),
    subscribe: store.subscribe,
  };
  return { source, open: (data: LocalData) => store.set(data) };
}

const someData = { db: {}, engine: {} } as unknown as LocalData;

function Reader({ suspendWhenOpen }: { suspendWhenOpen?: Promise<never> }) {
  const data = useLocalDataIfOpen();
  if (data && suspendWhenOpen) use(suspendWhenOpen);
  return <span>{data ? 'open' : 'not open'}</span>;
}

function render(source: LocalDataSource, suspendWhenOpen?: Promise<never>) {
  const container = document.createElement('div');
  const root = createRoot(container);
  act(() =>
    root.render(
      <LocalDataProvider source={source}>
        <Suspense fallback={<span>loading</span>}>
          <Reader suspendWhenOpen={suspendWhenOpen} />
        </Suspense>
      </LocalDataProvider>,
    ),
  );
  unmounts.push(() => root.unmount());
  return container;
}

test('a data layer already open is there from the first render', () => {
  const { source, open } = manualSource();
  open(someData);
  expect(render(source).textContent).toBe('open');
});

test('the data layer opening later is rendered', () => {
  const { source, open } = manualSource();
  const container = render(source);
  expect(container.textContent).toBe('not open');
  act(() => open(someData));
  expect(container.textContent).toBe('open');
});

test('the data layer opening is taken in as a transition, not as a blocking update', async () => {
  // A transition that suspends keeps the page on screen; a blocking update would show the
  // Suspense fallback instead.
  const { source, open } = manualSource();
  const container = render(source, new Promise<never>(() => {}));
  await act(async () => open(someData));
  expect(container.textContent).toBe('not open');
});

test('the prerendered page (and its hydration) is made without the data layer', () => {
  const { source, open } = manualSource();
  open(someData);
  const html = renderToString(
    <LocalDataProvider source={source}>
      <Reader />
    </LocalDataProvider>,
  );
  expect(html).toContain('not open');
});

test("a reader of the prices' freshness renders again only when the freshness changes", () => {
  // Each pull's start and end change the sync status; the home page reads only the freshness,
  // and rendered whole at every change while the catalogue synced (docs/benchmarks.md §3).
  const status = createSyncStatusStore(true);
  const { source, open } = manualSource();
  open({ db: {}, engine: { status } } as unknown as LocalData);
  function FreshnessReader() {
    const freshness = useCatalogueFreshness();
    return <span>{freshness?.asOf ?? 'unknown'}</span>;
  }
  let renders = 0;
  const container = document.createElement('div');
  const root = createRoot(container);
  act(() =>
    root.render(
      <LocalDataProvider source={source}>
        <Profiler id="freshness" onRender={() => (renders += 1)}>
          <FreshnessReader />
        </Profiler>
      </LocalDataProvider>,
    ),
  );
  unmounts.push(() => root.unmount());
  const before = renders;
  act(() =>
    status.reportError('airlines', { message: 'down', offline: false, updateRequired: false }),
  );
  act(() => status.reportSuccess('airlines'));
  act(() => status.reportUnsent('cart', 2));
  expect(status.getSnapshot().unsent).toBe(2);
  expect(renders).toBe(before);
  act(() => status.restoreCatalogueFreshAt(1_000));
  expect(renders).toBe(before + 1);
  expect(container.textContent).toBe('1000');
});
