import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter } from 'react-router-dom';
import { App } from './app.tsx';
import { routes } from './router.tsx';
import type { LocalDataSource } from '../data/local-data-source.ts';

/** At build time there is no local data: the page renders as before the data layer opens. */
const noLocalData: LocalDataSource = {
  current: () => null,
  load: () => new Promise(() => {}),
  subscribe: () => () => {},
};

/**
 * The home page as a guest first sees it (page frame, hero, search, filters, and a loader where
 * the flights go), rendered by the app itself to HTML at build time and put into index.html
 * (vite.config.ts), so the first paint needs no JavaScript. mount.tsx hydrates it: the same tree
 * (same element, same ids), so React takes over the HTML in place instead of replacing it.
 */
export function renderHomeShell(): string {
  return renderToString(
    <StrictMode>
      <App source={noLocalData} router={createMemoryRouter(routes, { initialEntries: ['/'] })} />
    </StrictMode>,
  );
}
