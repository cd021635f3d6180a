import { afterAll, expect, test } from 'vitest';
import { createTestDatabase } from '../test/database.ts';
import { createJobQueue, type Jobs } from './job-queue.ts';
import { createLogger } from './logger.ts';
import { createMetrics } from './metrics.ts';

/**
 * The PostgreSQL job queue (pg-boss) on a database cloned from the test template, which carries
 * its schema (db/migrate.ts): retries with backoff, counted by outcome; a job enqueued in a
 * transaction that rolls back never runs; recurring work never runs twice at once; the waiting
 * jobs are visible in the metrics.
 */

const { sql, url } = await createTestDatabase();
const metrics = createMetrics();
const queues: Jobs[] = [];
afterAll(async () => {
  for (const queue of queues) await queue.stop();
});

const until = async (done: () => boolean, ms = 20_000) => {
  const deadline = Date.now() + ms;
  while (!done() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
};
const eventually = async (done: () => Promise<boolean>, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!(await done()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
};
const counted = async (task: string, outcome: string, from = metrics) =>
  (await from.jobs.get()).values.find((v) => v.labels.task === task && v.labels.outcome === outcome)
    ?.value ?? 0;

/** A runner as an instance has it; each instance has its own metrics. */
function newQueue(instanceMetrics = metrics) {
  const jobs = createJobQueue({
    databaseUrl: url,
    logger: createLogger('silent'),
    metrics: instanceMetrics,
    pollingIntervalSeconds: 0.5,
  });
  queues.push(jobs);
  return jobs;
}

test('the template carries the queue schema', async () => {
  const [row] = await sql<
    { ok: boolean }[]
  >`SELECT to_regclass('pgboss.version') IS NOT NULL AS ok`;
  expect(row!.ok).toBe(true);
});

test('a failing job is retried with backoff, then completes; a rolled-back job never runs', async () => {
  const jobs = newQueue();
  const attempts: number[] = [];
  const seen: string[] = [];
  jobs.define<{ n: number }>(
    'flaky',
    async () => {
      attempts.push(Date.now());
      if (attempts.length < 3) throw new Error('not yet');
    },
    { retryLimit: 3, retryDelaySeconds: 1 },
  );
  jobs.define<{ label: string }>('note', async ({ label }) => void seen.push(label));
  await jobs.start();

  await jobs.send('flaky', { n: 1 });
  await sql
    .begin(async (tx) => {
      await jobs.send('note', { label: 'rolled back' }, { db: tx });
      throw new Error('roll back');
    })
    .catch(() => undefined);
  await sql.begin((tx) => jobs.send('note', { label: 'committed' }, { db: tx }));

  await until(() => attempts.length >= 3 && seen.length >= 1);
  expect(attempts).toHaveLength(3);
  // Backoff: the second wait is not shorter than the first (1 s, then about 2 s).
  expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(900);
  expect(attempts[2]! - attempts[1]!).toBeGreaterThanOrEqual(attempts[1]! - attempts[0]! - 500);
  expect(await counted('flaky', 'retried')).toBe(2);
  await eventually(async () => (await counted('flaky', 'completed')) >= 1);
  expect(await counted('flaky', 'completed')).toBe(1);
  await until(() => false, 1_000);
  expect(seen).toEqual(['committed']);
}, 60_000);

test('recurring work runs on its interval, one at a time across two runners', async () => {
  let running = 0;
  let most = 0;
  let runs = 0;
  const task = async () => {
    running++;
    most = Math.max(most, running);
    await new Promise((r) => setTimeout(r, 300));
    running--;
    runs++;
  };
  const runnerMetrics = [createMetrics(), createMetrics()];
  const [a, b] = runnerMetrics.map((m) => newQueue(m));
  for (const jobs of [a!, b!]) {
    jobs.define('tick', task, { retryLimit: 0 });
    jobs.every('tick', 100);
  }
  await Promise.all([a!.start(), b!.start()]);
  await until(() => runs >= 4);
  expect(runs).toBeGreaterThanOrEqual(4);
  expect(most).toBe(1);

  // Each runner counts the jobs it ran (either may have run them all); together they count every
  // run, once the last run's count has been recorded.
  const completed = async () =>
    (await counted('tick', 'completed', runnerMetrics[0])) +
    (await counted('tick', 'completed', runnerMetrics[1]));
  const ranBefore = runs;
  await eventually(async () => (await completed()) >= ranBefore);
  expect(await completed()).toBeGreaterThanOrEqual(ranBefore);
  expect(await runnerMetrics[0]!.registry.metrics()).toMatch(
    /skyport_jobs_waiting\{task="tick"\} \d+/,
  );
}, 60_000);
