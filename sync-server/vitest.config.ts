import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['./src/test/global-setup.ts'],
    // The cluster tests (nginx + several server processes) run on their own: `test:cluster`.
    // .bench-build/ holds the benchmark's copies of the source (bench/lib/build.ts).
    exclude: [...configDefaults.exclude, '**/*.cluster.test.ts', '.bench-build/**'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
