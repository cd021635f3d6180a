import { spawn, type ChildProcess } from 'node:child_process';
import type { FullConfig } from '@playwright/test';
import type { ProductServer } from './servers.ts';

/**
 * Playwright's global setup: starts the servers of the projects this run takes (start-server.mjs,
 * listed in the config's metadata) side by side, and returns the teardown that stops them.
 * Playwright's own `webServer` starts them one after the other: ~10 s each, with the machine
 * mostly idle meanwhile.
 */
export default async function startServers(config: FullConfig): Promise<() => Promise<void>> {
  const servers = (config.metadata.servers ?? []) as ProductServer[];
  const started: ChildProcess[] = [];
  const stopAll = () => Promise.all(started.map(stop)).then(() => undefined);
  try {
    await Promise.all(servers.map((server) => start(server, started)));
  } catch (error) {
    await stopAll();
    throw error;
  }
  return stopAll;
}

/** How long a server may take to answer its health check (a busy machine's first start). */
const START_TIMEOUT_MS = 180_000;

async function start({ port, database, env }: ProductServer, started: ChildProcess[]) {
  const child = spawn(process.execPath, [new URL('./start-server.mjs', import.meta.url).pathname], {
    env: {
      ...process.env,
      E2E_PORT: String(port),
      E2E_DATABASE: database,
      ...env,
      // E2E_PUBLIC_DIR: serve a private copy of the build (other builds of pwa/dist may run meanwhile).
      ...(process.env.E2E_PUBLIC_DIR ? { PUBLIC_DIR: process.env.E2E_PUBLIC_DIR } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  started.push(child);
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`The server on port ${port} exited (${code})`))),
  );
  exited.catch(() => undefined);
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const healthy = fetch(`http://localhost:${port}/api/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (await Promise.race([healthy, exited])) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server on port ${port} did not answer in ${START_TIMEOUT_MS / 1000} s`);
}

/** SIGTERM, then its exit (start-server.mjs drops its database first). */
function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  return exited;
}
