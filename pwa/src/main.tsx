import './styles.css';

/** Resolves in a new task, so that the browser can paint and answer input in between. */
function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The modules the app reads its data with at start-up. Building the shared schemas they parse
 * with is most of their cost.
 */
const dataModules = [
  () => import('./app/session.ts'),
  () => import('./db/local-state.ts'),
  () => import('./features/catalog/data/catalogue.ts'),
];

/**
 * Evaluating the app's code takes a few hundred milliseconds on a slow phone, and a page does
 * not answer a tap while a task runs. So it is evaluated in steps, each in a task of its own: the
 * libraries (React and the router), the data modules one by one, the screens; then the app starts
 * and hydrates (in slices). The code of every step is fetched at once: the build preloads it all
 * (see vite.config.ts).
 */
async function start() {
  await import('./app/libraries.ts');
  await nextTask();
  for (const load of dataModules) {
    await load();
    await nextTask();
  }
  const { mountApp } = await import('./app/mount.tsx');
  await nextTask();
  mountApp();
}

void start();
