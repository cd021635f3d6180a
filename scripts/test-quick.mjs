// The developer's inner loop (`npm run test:quick`): the checks of `npm test` on what changed,
// in about a minute instead of the whole run. What changed is the working tree (staged, unstaged
// and untracked files) against a base: the upstream branch if there is one (so commits not yet
// pushed count), else HEAD; `--since REF` picks another. Steps:
//   1. Prettier on the changed files;
//   2. ESLint on the changed files (with its cache);
//   3. the strict type-check of each changed package (incremental), every package when shared/
//      changed, since both others compile against it;
//   4. the unit tests beside the changed files, in each changed package: those of the same feature
//      folder (src/features/x), else of the same folder (testScopes).
// `npm test` stays the gate: it runs everything, the browser suites included.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const PACKAGES = {
  shared: '@skyport/shared',
  'sync-server': '@skyport/sync-server',
  pwa: '@skyport/pwa',
};

function git(...args) {
  const run = spawnSync('git', args, { cwd: root, encoding: 'utf8' });
  return run.status === 0 ? run.stdout.trim() : null;
}

function baseRef() {
  const since = process.argv.indexOf('--since');
  if (since >= 0) return process.argv[since + 1];
  // Where this branch left its upstream: the upstream's own later commits are not ours.
  return git('merge-base', 'HEAD', '@{upstream}') ?? 'HEAD';
}

const base = baseRef();
const changed = [
  ...new Set(
    [
      git('diff', '--name-only', base) ?? '',
      git('ls-files', '--others', '--exclude-standard') ?? '',
    ]
      .join('\n')
      .split('\n')
      .filter((file) => file && existsSync(path.join(root, file))),
  ),
];
if (changed.length === 0) {
  console.log(`test:quick: nothing changed since ${base}`);
  process.exit(0);
}
const packages = Object.keys(PACKAGES).filter((dir) =>
  changed.some((file) => file.startsWith(`${dir}/`)),
);
console.log(
  `test:quick: ${changed.length} files changed since ${base} (packages: ${packages.join(', ') || 'none'})`,
);

const timings = [];
function step(name, command, args, options = {}) {
  const started = Date.now();
  console.log(`\n> ${name}`);
  const run = spawnSync(command, args, { cwd: root, stdio: 'inherit', ...options });
  timings.push(`${name}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (run.status !== 0) {
    console.error(`\ntest:quick: ${name} failed`);
    process.exit(run.status ?? 1);
  }
}

/**
 * Where the tests of a package's changed files are: the feature folder of each (`src/features/x`),
 * else its own folder. Not vitest's `--changed`: through `app.ts` nearly every server test imports
 * nearly every module, so a one-line change ran the whole suite.
 */
function testScopes(dir) {
  const scopes = new Set();
  for (const file of changed) {
    if (!file.startsWith(`${dir}/`)) continue;
    const inPackage = path.relative(dir, file);
    const feature = inPackage.match(/^src\/features\/[^/]+/);
    scopes.add(feature ? feature[0] : path.dirname(inPackage));
  }
  // The package's root (its configuration): every test.
  return scopes.has('.') ? [] : [...scopes];
}

const lintable = changed.filter((file) => /\.(ts|tsx|js|mjs)$/.test(file));
step('format', 'pnpm', ['exec', 'prettier', '--check', '--ignore-unknown', ...changed]);
if (lintable.length > 0)
  step('lint', 'pnpm', [
    'exec',
    'eslint',
    '--cache',
    '--cache-location',
    'node_modules/.cache/eslint/',
    '--max-warnings=0',
    '--no-warn-ignored',
    ...lintable,
  ]);
const typed = packages.includes('shared') ? Object.keys(PACKAGES) : packages;
for (const dir of typed) {
  step(`types ${dir}`, 'pnpm', [
    '--filter',
    PACKAGES[dir],
    'exec',
    'tsc',
    '-p',
    'tsconfig.json',
    '--incremental',
    '--tsBuildInfoFile',
    'node_modules/.cache/tsc.tsbuildinfo',
  ]);
}
for (const dir of packages) {
  step(`unit tests ${dir}`, 'pnpm', [
    '--filter',
    PACKAGES[dir],
    'exec',
    'vitest',
    'run',
    '--passWithNoTests',
    ...testScopes(dir),
  ]);
}
console.log(`\ntest:quick passed\n  ${timings.join('\n  ')}`);
