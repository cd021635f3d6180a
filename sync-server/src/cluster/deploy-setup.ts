import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

const SERVER_DIR = path.resolve(import.meta.dirname, '../..');
const REPO_ROOT = path.resolve(SERVER_DIR, '..');

/**
 * Once per cluster run: the production deployment the README describes, made from the build
 * (`npm run build` must have run): `pnpm deploy --prod` copies the server's `dist/` and its
 * runtime dependencies only into a fresh folder, from which every instance of the run starts
 * (`node dist/main.js`, instance.ts).
 */
export default async function setup(project: TestProject) {
  if (!existsSync(path.join(SERVER_DIR, 'dist/main.js'))) {
    throw new Error('sync-server/dist/main.js is missing: run `npm run build` first');
  }
  const deployDir = await mkdtemp(path.join(tmpdir(), 'skyport-deploy-'));
  const deployed = spawnSync(
    process.execPath,
    ['scripts/pnpm.mjs', '--filter', '@skyport/sync-server', 'deploy', '--prod', deployDir],
    { cwd: REPO_ROOT, encoding: 'utf8' },
  );
  if (deployed.status !== 0) {
    throw new Error(`pnpm deploy failed:\n${deployed.stdout}\n${deployed.stderr}`);
  }
  project.provide('deployDir', deployDir);
  return () => rm(deployDir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    deployDir: string;
  }
}
