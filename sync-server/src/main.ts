// The only module with side effects: read config, open the database, serve.
import path from 'node:path';
import { existsSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { createApp, identityDepsFromConfig } from './app.ts';
import { loadConfig } from './config.ts';
import { createSql } from './db/client.ts';
import { startEmbeddedPostgres } from './db/embedded.ts';
import { migrate } from './db/migrate.ts';
import { DEMO_ACCOUNTS, hasAnyUsers, seedDemoData } from './db/seed/demo.ts';
import { createLogger } from './lib/logger.ts';
import { createPaymentsFromConfig } from './payments/index.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const config = loadConfig();
const logger = createLogger(config.LOG_LEVEL);

let databaseUrl = config.DATABASE_URL;
let stopEmbedded: (() => Promise<void>) | undefined;
if (!databaseUrl) {
  const dir = path.resolve(repoRoot, config.EMBEDDED_PG_DIR);
  logger.info({ dir, port: config.EMBEDDED_PG_PORT }, 'starting embedded PostgreSQL');
  const embedded = await startEmbeddedPostgres(dir, config.EMBEDDED_PG_PORT, (m) => logger.warn(m));
  databaseUrl = await embedded.ensureDatabase('skyport');
  stopEmbedded = embedded.stop;
}

const sql = createSql(databaseUrl);
const applied = await migrate(sql);
if (applied.length > 0) logger.info({ applied }, 'migrations applied');

const embeddedAndEmpty =
  !config.DATABASE_URL && config.SEED_DEMO === 'auto' && !(await hasAnyUsers(sql));
if (config.SEED_DEMO === 'always' || embeddedAndEmpty) {
  const started = performance.now();
  const counts = await seedDemoData(sql);
  logger.info({ ...counts, ms: Math.round(performance.now() - started) }, 'demo data loaded');
}

const publicDir = path.resolve(repoRoot, config.PUBLIC_DIR ?? 'pwa/dist');
if (!existsSync(publicDir)) logger.warn({ publicDir }, 'no built PWA found; serving the API only');
const app = createApp(
  {
    sql,
    logger,
    ...identityDepsFromConfig(config, sql),
    payments: createPaymentsFromConfig(config),
  },
  { publicDir: existsSync(publicDir) ? publicDir : undefined },
);

const server = serve({ fetch: app.fetch, port: config.PORT, hostname: config.HOST }, (info) => {
  const url = `http://localhost:${info.port}`;
  console.log(`\nSkyport is running at ${url}  (API: ${url}/api/health)`);
  if (!config.DATABASE_URL) {
    console.log('Demo accounts:');
    for (const account of DEMO_ACCOUNTS) {
      console.log(
        `  ${account.email.padEnd(24)} ${account.password.padEnd(14)} ${account.description}`,
      );
    }
  }
});

async function shutdown() {
  server.close();
  await sql.end({ timeout: 5 });
  await stopEmbedded?.();
  logger.flush();
  process.exit(0);
}
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
