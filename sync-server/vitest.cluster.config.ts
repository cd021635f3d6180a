import { defineConfig } from 'vitest/config';

/**
 * The production start and the cluster tests (`npm run build`, then `npm run test:cluster`): the
 * build deployed with runtime dependencies only (deploy-setup.ts), started as in production; two
 * such processes on one PostgreSQL (DATABASE_URL's server; each run creates and drops its own
 * `skyport_cluster_<random>` database) behind a real nginx, all on loopback ports.
 */
export default defineConfig({
  test: {
    globalSetup: ['./src/cluster/deploy-setup.ts'],
    include: ['src/**/*.cluster.test.ts'],
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
