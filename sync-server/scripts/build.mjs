// The production build of the server (docs/decisions/007-running-in-production.md): esbuild
// bundles src/main.ts and the workspace's shared/ into dist/main.js; npm packages stay external,
// installed with `pnpm deploy --prod`. The SQL migrations and functions (src/db/migrate.ts finds
// both beside the bundle) and the built PWA are copied beside it, so that dist/ plus the runtime
// dependencies is the whole server.
import { build } from 'esbuild';
import { cp, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8'));
const dist = path.join(root, 'dist');

await rm(dist, { recursive: true, force: true });
await build({
  entryPoints: [path.join(root, 'src/main.ts')],
  outfile: path.join(dist, 'main.js'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  // Runtime dependencies are loaded from node_modules; @skyport/shared (TypeScript source, a
  // devDependency) is bundled. pino-pretty, a devDependency too, is not: the logger imports it
  // only for readable development logs (src/lib/logger.ts), and production does not install it.
  external: [...Object.keys(pkg.dependencies), 'pino-pretty'],
});
await cp(path.join(root, 'src/db/migrations'), path.join(dist, 'migrations'), { recursive: true });
await cp(path.join(root, 'src/db/functions'), path.join(dist, 'functions'), { recursive: true });

const pwa = path.resolve(root, '../pwa/dist');
if (existsSync(path.join(pwa, 'index.html'))) {
  await cp(pwa, path.join(dist, 'public'), { recursive: true });
} else {
  console.warn('pwa/dist is missing: the server build will serve the API only');
}
console.log(`built ${path.relative(process.cwd(), dist)}/main.js`);
