import './styles.css';

/** Resolves in a new task, so that the browser can paint and answer input in between. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Evaluating the app's code takes a few hundred milliseconds on a slow phone, and a page does
 * not answer a tap while a task runs. So the code is evaluated in two tasks, the libraries (React,
 * the router, zod) and then the app's own modules (the shared schemas, the screens), both fetched
 * at once (the build preloads both, see vite.config.ts); the app then hydrates in slices.
 */
async function start() {
  await import('./app/libraries.ts');
  await nextTask();
  const { mountApp } = await import('./app/mount.tsx');
  mountApp();
}

void start();
