// What the bench measures, built into a folder of its own (never pwa/dist or sync-server/dist,
// which a running server or another engineer may be using):
//   <dir>/server/main.js   the production server bundle, as scripts/build.mjs makes it (esbuild,
//                          npm packages external), with its SQL migrations and functions beside it
//   <dir>/pwa/             the PWA's production build (`vite build`), served by the server
//   <dir>/harness/         the local-first harness (pwa/e2e/local-first) for the sync suite
// <dir> is sync-server/.bench-build/<run id>/ (git-ignored; under sync-server/ so that the bundle
// finds sync-server's node_modules). The server can be built from a git commit instead of the
// working tree (`serverRef`, e.g. HEAD for "before" figures while the tree holds a change).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';

export const SERVER_ROOT = path.resolve(import.meta.dirname, '../..');
export const REPO_ROOT = path.resolve(SERVER_ROOT, '..');
const PWA_ROOT = path.join(REPO_ROOT, 'pwa');
export const BUILD_ROOT = path.join(SERVER_ROOT, '.bench-build');

export interface BenchBuild {
  dir: string;
  /** What the server was built from: the working tree, or a commit. */
  serverSource: { ref: string | null; commit: string; dirtyFiles: number };
  serverMain: string;
  migrationsDir: string;
  /** Built on demand (`pwaDir()`, `harnessDir()`): only suites that serve them pay the build. */
  pwaDir(): string;
  harnessDir(): string;
  remove(): Promise<void>;
}

function git(args: string[]): string {
  const result = spawnSync('git', ['-C', REPO_ROOT, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

function vite(args: string[], log: (message: string) => void, what: string) {
  const started = performance.now();
  const result = spawnSync(path.join(PWA_ROOT, 'node_modules/.bin/vite'), args, {
    cwd: PWA_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (result.status !== 0) throw new Error(`${what}: vite build failed (${result.status})`);
  log(`  built ${what} in ${Math.round((performance.now() - started) / 1000)} s`);
}

/**
 * Prepares the build folder and builds the server. `dir` reuses an earlier folder (parts already
 * there are not rebuilt; it is kept afterwards); otherwise a fresh one is made and removed by
 * `remove()`.
 */
export async function prepareBuild(options: {
  dir?: string;
  serverRef?: string;
  log: (message: string) => void;
}): Promise<BenchBuild> {
  const { log } = options;
  const reuse = options.dir !== undefined;
  const dir = path.resolve(
    options.dir ?? path.join(BUILD_ROOT, `run-${Date.now()}-${process.pid}`),
  );
  if (
    !path
      .relative(SERVER_ROOT, dir)
      .split(path.sep)
      .every((part) => part !== '..')
  )
    throw new Error(
      `--build-dir must be under ${SERVER_ROOT} (the server bundle needs its node_modules)`,
    );
  await mkdir(dir, { recursive: true });

  const ref = options.serverRef ?? null;
  const commit = git(['rev-parse', ref ?? 'HEAD']);
  const dirtyFiles = ref
    ? 0
    : git(['status', '--porcelain', '--', 'sync-server/src', 'shared/src'])
        .split('\n')
        .filter(Boolean).length;
  const serverDir = path.join(dir, 'server');
  const serverMain = path.join(serverDir, 'main.js');
  const migrationsDir = path.join(serverDir, 'migrations');
  const stamp = path.join(serverDir, 'source.json');
  const wanted = JSON.stringify({ ref, commit, dirtyFiles });
  const built =
    reuse &&
    existsSync(serverMain) &&
    existsSync(stamp) &&
    (await readFile(stamp, 'utf8')) === wanted;
  // The working tree may have changed since: rebuilt every run (esbuild takes about a second).
  if (!built || !ref) await buildServer(serverDir, ref, commit, log);
  await writeFile(stamp, wanted);

  let pwa: string | undefined;
  let harness: string | undefined;
  return {
    dir,
    serverSource: { ref, commit, dirtyFiles },
    serverMain,
    migrationsDir,
    pwaDir() {
      pwa ??= path.join(dir, 'pwa');
      if (!(reuse && existsSync(path.join(pwa, 'index.html'))))
        vite(['build', '--outDir', pwa, '--emptyOutDir'], log, `the PWA into ${rel(pwa)}`);
      return pwa;
    },
    harnessDir() {
      harness ??= path.join(dir, 'harness');
      if (!(reuse && existsSync(path.join(harness, 'index.html'))))
        vite(
          ['build', '-c', 'e2e/local-first/vite.config.ts', '--outDir', harness, '--emptyOutDir'],
          log,
          `the local-first harness into ${rel(harness)}`,
        );
      return harness;
    },
    async remove() {
      if (!reuse) await rm(dir, { recursive: true, force: true });
    },
  };
}

const rel = (p: string) => path.relative(process.cwd(), p);

/** scripts/build.mjs's bundle (same esbuild settings), from the working tree or a commit. */
async function buildServer(
  out: string,
  ref: string | null,
  commit: string,
  log: (message: string) => void,
): Promise<void> {
  const started = performance.now();
  await rm(out, { recursive: true, force: true });
  let sourceRoot = REPO_ROOT;
  if (ref) {
    // `git archive` reads the commit without touching the working tree or the index.
    sourceRoot = path.join(path.dirname(out), `source-${commit.slice(0, 12)}`);
    await rm(sourceRoot, { recursive: true, force: true });
    await mkdir(sourceRoot, { recursive: true });
    const tar = path.join(sourceRoot, 'source.tar');
    git(['archive', '--format=tar', '-o', tar, commit, 'sync-server/src', 'shared/src']);
    const untar = spawnSync('tar', ['-xf', tar, '-C', sourceRoot]);
    if (untar.status !== 0) throw new Error(`tar: ${untar.stderr.toString()}`);
  }
  const pkg = JSON.parse(await readFile(path.join(SERVER_ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  await build({
    entryPoints: [path.join(sourceRoot, 'sync-server/src/main.ts')],
    outfile: path.join(out, 'main.js'),
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    sourcemap: true,
    logLevel: 'warning',
    external: Object.keys(pkg.dependencies),
    // A commit's sources have no node_modules: its own shared/ stands in for the workspace link.
    ...(ref ? { alias: { '@skyport/shared': path.join(sourceRoot, 'shared/src/index.ts') } } : {}),
  });
  await cp(path.join(sourceRoot, 'sync-server/src/db/migrations'), path.join(out, 'migrations'), {
    recursive: true,
  });
  // SQL functions in files of their own (decision 033); a commit from before them has none.
  const functions = path.join(sourceRoot, 'sync-server/src/db/functions');
  if (existsSync(functions)) await cp(functions, path.join(out, 'functions'), { recursive: true });
  log(
    `  built the server (${ref ? `${ref} = ${commit.slice(0, 12)}` : `working tree on ${commit.slice(0, 12)}`}) ` +
      `into ${rel(out)} in ${Math.round(performance.now() - started)} ms`,
  );
}
