// Everything `npm test` checks, in as little wall time as a 2-core machine allows: the steps
// below run JOBS at a time (CHECK_JOBS, default 2), each as soon as the steps it needs are done,
// in the order below (the longest chain, the PWA's build then the browser suites, first); a step
// marked `alone` waits for the others to end and runs by itself. Each line a step prints
// shows as it comes, after the step's name; the first failure stops the run.
// At the end: each step's wall time. `node scripts/check.mjs lint types:pwa` runs only those.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { findChromium, INSTALL_HINT } from '../pwa/e2e/find-chromium.mjs';

const root = path.resolve(import.meta.dirname, '..');
const JOBS = Number(process.env.CHECK_JOBS ?? 2);

const pnpm = (...args) => ['pnpm', ...args];
const inPackage = (name, ...args) => pnpm('--filter', `@skyport/${name}`, 'run', ...args);
const inPwa = (...args) => pnpm('--filter', '@skyport/pwa', 'exec', ...args);

/** Each step: its command and the steps it needs first. In order of priority. */
const STEPS = {
  'build:pwa': { command: inPwa('vite', 'build') },
  'build:harness': { command: inPwa('vite', 'build', '-c', 'e2e/local-first/vite.config.ts') },
  // Alone: its servers and browsers take both cores, and its waits are a person's, not a test's.
  e2e: {
    command: inPwa('playwright', 'test', '-c', 'e2e/playwright.config.ts'),
    needs: ['build:pwa', 'build:harness'],
    alone: true,
  },
  format: { command: pnpm('run', 'format:check') },
  lint: { command: pnpm('run', 'lint') },
  'types:shared': { command: inPackage('shared', 'typecheck') },
  'types:sync-server': { command: inPackage('sync-server', 'typecheck') },
  'types:pwa': { command: inPackage('pwa', 'typecheck') },
  'unit:shared': { command: inPackage('shared', 'test') },
  'unit:sync-server': { command: inPackage('sync-server', 'test') },
  'unit:pwa': { command: inPackage('pwa', 'test') },
};

const only = process.argv.slice(2);
for (const name of only) {
  if (!STEPS[name]) {
    console.error(`Unknown step ${name}; the steps: ${Object.keys(STEPS).join(', ')}`);
    process.exit(2);
  }
}
const selected = new Set(only.length > 0 ? only : Object.keys(STEPS));
const pending = new Set(selected);

// Said before anything runs: without a browser the run could only end at the browser suites.
const chromium = selected.has('e2e') ? findChromium() : undefined;
if (selected.has('e2e') && !chromium) {
  console.error(INSTALL_HINT);
  process.exit(1);
}
const done = new Set();
const running = new Map();
const times = [];
const startedAt = Date.now();
const seconds = (since) => ((Date.now() - since) / 1000).toFixed(0);

function ready(name) {
  // A step not selected is taken as done: `check.mjs e2e` runs on the build already there.
  return (STEPS[name].needs ?? []).every((need) => done.has(need) || !selected.has(need));
}

function start(name) {
  pending.delete(name);
  const [command, ...args] = STEPS[name].command;
  const began = Date.now();
  console.log(`> ${name} started (${seconds(startedAt)} s)`);
  const child = spawn(command, args, {
    cwd: root,
    env: {
      ...process.env,
      ...(chromium && { CHROMIUM_PATH: chromium }),
      FORCE_COLOR: process.env.FORCE_COLOR ?? '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  for (const stream of [child.stdout, child.stderr])
    createInterface({ input: stream }).on('line', (line) => console.log(`[${name}] ${line}`));
  running.set(name, child);
  child.on('close', (code) => {
    running.delete(name);
    const took = seconds(began);
    console.log(`> ${name} ${code === 0 ? 'passed' : `failed (exit ${code})`} in ${took} s`);
    times.push(`${name.padEnd(18)} ${took.padStart(5)} s`);
    if (code !== 0) return fail(name);
    done.add(name);
    next();
  });
}

/** Stops the running steps, with whatever they started (each is a process group of its own). */
function stopAll() {
  for (const child of running.values()) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}
for (const signal of ['SIGINT', 'SIGTERM'])
  process.on(signal, () => {
    stopAll();
    process.exit(1);
  });

function fail(name) {
  stopAll();
  console.error(`check: ${name} failed; ${[...running.keys()].join(', ') || 'nothing'} stopped`);
  process.exit(1);
}

function next() {
  for (const name of pending) {
    if (running.size >= JOBS || [...running.keys()].some((other) => STEPS[other].alone)) break;
    if (!ready(name)) continue;
    if (STEPS[name].alone && running.size > 0) break;
    start(name);
  }
  if (running.size === 0 && pending.size === 0) {
    console.log(
      `check passed in ${seconds(startedAt)} s (${JOBS} at a time)\n  ${times.join('\n  ')}`,
    );
  }
}

next();
