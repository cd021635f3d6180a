import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['./src/test/global-setup.ts'],
    // The cluster tests (nginx + several server processes) run on their own: `test:cluster`.
    exclude: [...configDefaults.exclude, '**/*.cluster.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
