// Runs the exact pnpm this repo pins (package.json "packageManager") on a machine that only has
// Node and npm: a global pnpm of that version is used when present, otherwise npx fetches it once.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const pinned = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).packageManager.split('@')[1];
const args = process.argv.slice(2);

const global = spawnSync('pnpm', ['--version'], { encoding: 'utf8', shell: false });
const useGlobal = global.status === 0 && global.stdout.trim() === pinned;
const [cmd, cmdArgs] = useGlobal ? ['pnpm', args] : ['npx', ['--yes', `pnpm@${pinned}`, ...args]];
const run = spawnSync(cmd, cmdArgs, { stdio: 'inherit', env: process.env });
process.exit(run.status ?? 1);
