import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, inject, test } from 'vitest';
import {
  createClusterDatabase,
  freePort,
  instanceEnv,
  serverCommand,
  startInstance,
  type ClusterDatabase,
  type Instance,
} from './instance.ts';

/**
 * The production start of the README, from the folder `pnpm deploy --prod` made of the build
 * (deploy-setup.ts): runtime dependencies only, `NODE_ENV=production node dist/main.js`.
 */
let db: ClusterDatabase | undefined;
let server: Instance | undefined;
let metricsPort = 0;

beforeAll(async () => {
  db = await createClusterDatabase();
  metricsPort = await freePort();
  const port = await freePort();
  server = await startInstance({
    name: 'production',
    port,
    databaseUrl: db.url,
    appOrigin: `http://127.0.0.1:${port}`,
    seedDemo: true,
    env: { METRICS_PORT: String(metricsPort), LOG_LEVEL: 'info' },
  });
});

afterAll(async () => {
  if (server?.running()) await server.stop();
  await db?.drop();
});

test('the deployment holds the build and the runtime dependencies, no development tool', () => {
  const deployDir = inject('deployDir');
  const has = (name: string) => existsSync(path.join(deployDir, 'node_modules', name));
  expect(existsSync(path.join(deployDir, 'dist/main.js'))).toBe(true);
  expect(existsSync(path.join(deployDir, 'dist/migrations/000_baseline.sql'))).toBe(true);
  expect(existsSync(path.join(deployDir, 'dist/public/index.html'))).toBe(true);
  for (const runtime of ['hono', 'postgres', 'zod', 'pino', 'prom-client'])
    expect(has(runtime)).toBe(true);
  for (const tool of [
    'typescript',
    'tsx',
    'vitest',
    'esbuild',
    '@skyport/shared',
    'playwright-core',
  ])
    expect(has(tool), tool).toBe(false);
  expect(existsSync(path.join(deployDir, 'src'))).toBe(false);
});

test('production refuses to start without its settings and names every problem', async () => {
  const { command, args, cwd } = serverCommand();
  const env = instanceEnv({ name: 'bad', port: 1, databaseUrl: '', appOrigin: '' });
  delete env.DATABASE_URL;
  delete env.APP_ORIGIN;
  delete env.ALLOW_TEST_PAYMENTS;
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise((resolve) => child.once('exit', resolve));
  expect(code).toBe(1);
  expect(output).toContain('DATABASE_URL: required in production');
  expect(output).toContain('APP_ORIGIN: required in production');
  expect(output).toContain('PAYMENT_PROVIDER: the test payment provider is refused in production');
  // Refused before anything started: no embedded database, no listener.
  expect(output).not.toContain('starting embedded PostgreSQL');
  expect(output).not.toContain('listening');
});

test('the production start serves the PWA, the API, health and metrics, with security headers', async () => {
  const origin = server!.origin;
  const live = await fetch(`${origin}/api/health/live`);
  expect(live.status).toBe(200);
  expect((await fetch(`${origin}/api/health/ready`)).status).toBe(200);

  const page = await fetch(`${origin}/`);
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  expect(await page.text()).toContain('<div id="root"');
  const csp = page.headers.get('content-security-policy') ?? '';
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(page.headers.get('x-content-type-options')).toBe('nosniff');

  const missing = await fetch(`${origin}/assets/index-doesnotexist.js`);
  expect(missing.status).toBe(404);
  expect(missing.headers.get('cache-control') ?? '').not.toContain('immutable');

  const flights = await fetch(`${origin}/api/flights`);
  expect(flights.status).toBe(200);
  expect(((await flights.json()) as { total: number }).total).toBeGreaterThan(100);
  expect(flights.headers.get('x-request-id')).toBeTruthy();

  const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
  expect(metrics.status).toBe(200);
  const text = await metrics.text();
  expect(text).toContain(
    'skyport_http_requests_total{method="GET",route="/api/flights",status="200"}',
  );
  // Both pools' defaults: DATABASE_POOL_MAX (10) + DATABASE_SYNC_POOL_MAX (8).
  expect(text).toContain('skyport_db_pool_max 18');
  // The metrics are not on the public port.
  expect((await fetch(`${origin}/metrics`)).headers.get('content-type')).not.toContain(
    'text/plain; version=0.0.4',
  );
});

test('SIGTERM stops it cleanly, with exit code 0', async () => {
  const { code, ms } = await server!.stop('SIGTERM');
  expect(code).toBe(0);
  expect(server!.output()).toContain('"msg":"stopped"');
  console.log(`production start: stopped ${ms} ms after SIGTERM`);
});
