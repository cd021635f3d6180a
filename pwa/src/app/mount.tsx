import { StrictMode, startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router-dom';
import { App, startApp } from './app.tsx';
import { routes } from './router.tsx';

/** Starts the app in the page (main.tsx loads this module once the libraries are ready). */
export function mountApp() {
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  const source = startApp();
  const app = (
    <StrictMode>
      <App source={source} router={createBrowserRouter(routes)} />
    </StrictMode>
  );
  // The build prerenders the home page as a guest first sees it (src/app/home-shell.tsx): on exactly
  // that page the app takes over its HTML in place; anywhere else it renders from scratch.
  // Either runs as a transition, which React renders in slices of a few milliseconds: on a slow
  // phone one long task would keep the page from answering a tap until the whole tree is done.
  startTransition(() => {
    if (
      root.hasAttribute('data-home-shell') &&
      location.pathname === '/' &&
      location.search === ''
    ) {
      hydrateRoot(root, app, {
        onRecoverableError: (error) =>
          console.warn('The prerendered home page did not match:', error),
      });
    } else {
      root.replaceChildren();
      root.removeAttribute('data-home-shell');
      createRoot(root).render(app);
    }
  });
}
