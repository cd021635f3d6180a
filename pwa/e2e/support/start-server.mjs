// Starts the real product for the e2e journeys: a fresh PostgreSQL database with the demo data,
// and the server serving pwa/dist and the API on one origin. start-servers.ts (Playwright's global
// setup) runs this and stops it (SIGTERM) at the end; the database is dropped then.
import { spawn, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const port = process.env.E2E_PORT ?? '8795';
// With DATABASE_URL (a PostgreSQL server, as in CI): a fresh database on it, dropped at the end.
// Without it: the product's embedded default, in a fresh temporary folder.
const serverUrl = process.env.DATABASE_URL ? new URL(process.env.DATABASE_URL) : undefined;
const database = process.env.E2E_DATABASE ?? `skyport_e2e_pwa_${port}`;
const psql = (sql) =>
  execFileSync(
    'psql',
    [serverUrl.toString().replace(/\/[^/]*$/, '/postgres'), '-v', 'ON_ERROR_STOP=1', '-c', sql],
    { stdio: 'pipe' },
  );

if (!existsSync(path.join(repoRoot, 'pwa/dist/index.html'))) {
  console.error('pwa/dist is missing: run `pnpm --filter @skyport/pwa run build` first');
  process.exit(1);
}
const env = {
  ...process.env,
  SEED_DEMO: 'always',
  PORT: port,
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
};
let embeddedDir;
if (serverUrl) {
  psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  psql(`CREATE DATABASE ${database}`);
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  env.DATABASE_URL = url.toString();
} else {
  embeddedDir = mkdtempSync(path.join(tmpdir(), 'skyport-e2e-'));
  // As root, PostgreSQL runs as the `postgres` user, which must be able to reach its folder.
  chmodSync(embeddedDir, 0o755);
  env.EMBEDDED_PG_DIR = path.join(embeddedDir, 'pg');
  env.EMBEDDED_PG_PORT = String(Number(port) + 1000);
}

// node with the tsx loader (what `pnpm start` runs), so that a signal reaches the server itself.
const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: path.join(repoRoot, 'sync-server'),
  stdio: 'inherit',
  env,
});

let stopping = false;
function stop() {
  if (stopping) return;
  stopping = true;
  server.kill('SIGTERM');
  setTimeout(() => {
    try {
      if (serverUrl) psql(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
    } catch {
      // Best effort: the process exits either way.
    }
    process.exit(0);
  }, 1500);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', (code) => {
  if (!stopping) process.exit(code ?? 1);
});
