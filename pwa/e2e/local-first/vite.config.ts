import path from 'node:path';
import { defineConfig } from 'vite';

/**
 * Builds the local-first harness (a production bundle, so no RxDB dev-mode) into ./dist:
 *   vite build -c e2e/local-first/vite.config.ts
 */
export default defineConfig({
  root: import.meta.dirname,
  publicDir: path.join(import.meta.dirname, 'public'),
  build: {
    outDir: path.join(import.meta.dirname, 'dist'),
    emptyOutDir: true,
    target: 'es2022',
  },
  logLevel: 'warn',
});
