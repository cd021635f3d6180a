// Background work (docs/decisions/034-background-work-on-a-job-queue.md): email delivery, payment
// reconciliation, seat hold release and ticket backfill run as jobs. On an instance that serves
// the app (main.ts) they are pg-boss jobs in PostgreSQL: a job enqueued commits with the data that
// caused it, survives a crash of the process that was running it (its heartbeat stops, pg-boss
// retries it), and is retried with exponential backoff when it fails. Without a queue (tests that
// build the app in-process) the same tasks run in the process (`createInProcessJobs`).
import { PgBoss } from 'pg-boss';
import { Gauge } from 'prom-client';
import type postgres from 'postgres';
import type { Sql } from '../db/client.ts';
import { BackgroundTasks } from './background-tasks.ts';
import type { Logger } from './logger.ts';
import type { Metrics } from './metrics.ts';

/** The schema pg-boss keeps its tables in (installed by db/migrate.ts). */
export const JOB_QUEUE_SCHEMA = 'pgboss';

/** How a task is retried: attempts after the first, the first delay, doubled each time. */
export interface TaskOptions {
  retryLimit?: number;
  retryDelaySeconds?: number;
  retryDelayMaxSeconds?: number;
  /** A run that takes longer than this is failed (and retried). */
  expireInSeconds?: number;
}

export type TaskHandler<T> = (data: T) => Promise<void>;

export interface Jobs {
  /** Registers a task (before `start`). */
  define<T extends object>(task: string, handler: TaskHandler<T>, options?: TaskOptions): void;
  /**
   * Runs `task` (with `{}`) every `intervalMs`, from every instance's runner, but never two at a
   * time cluster-wide: a tick while one is waiting is dropped.
   */
  every(task: string, intervalMs: number): void;
  /** Enqueues a job; with `db` (a transaction), the job commits or rolls back with it. */
  send(task: string, data: object, options?: { db?: Sql | postgres.TransactionSql }): Promise<void>;
  start(): Promise<void>;
  /** Stops the timers and the runner; waits for the job in progress (or releases it at timeout). */
  stop(): Promise<void>;
}

const DEFAULTS: Required<TaskOptions> = {
  retryLimit: 5,
  retryDelaySeconds: 2,
  retryDelayMaxSeconds: 300,
  expireInSeconds: 15 * 60,
};

/**
 * The in-process stand-in (tests, and instances given no queue): a job runs at once in the
 * background (`BackgroundTasks`, which tests await), a recurring task on a timer that skips a tick
 * while a run is in progress. No retries and nothing survives the process.
 */
export function createInProcessJobs(options: {
  logger?: Logger;
  background?: BackgroundTasks;
}): Jobs & { background: BackgroundTasks } {
  const background = options.background ?? new BackgroundTasks(options.logger);
  const handlers = new Map<string, TaskHandler<object>>();
  const timers: NodeJS.Timeout[] = [];
  const running = new Map<string, Promise<void>>();
  const handlerOf = (task: string) => {
    const handler = handlers.get(task);
    if (!handler) throw new Error(`No task named ${task}`);
    return handler;
  };
  return {
    background,
    define(task, handler) {
      handlers.set(task, handler as TaskHandler<object>);
    },
    every(task, intervalMs) {
      const handler = handlerOf(task);
      const tick = () => {
        if (running.has(task)) return;
        const run = handler({})
          .catch((error: unknown) => options.logger?.error({ err: error, task }, 'job failed'))
          .finally(() => running.delete(task));
        running.set(task, run);
      };
      tick();
      const timer = setInterval(tick, intervalMs);
      timer.unref();
      timers.push(timer);
    },
    async send(task, data) {
      const handler = handlerOf(task);
      background.run(task, () => handler(data));
    },
    async start() {},
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await Promise.all([...running.values()]);
      await background.settled();
    },
  };
}

/**
 * The PostgreSQL job queue (pg-boss) and this instance's runner of it: one worker per task, one
 * job at a time each, on a pool of `poolMax` connections of its own. A running job sends a
 * heartbeat every few seconds; when its process dies, the supervisor of any instance retries it
 * once the heartbeat is `heartbeatSeconds` old.
 */
export function createJobQueue(options: {
  databaseUrl: string;
  logger: Logger;
  metrics?: Metrics;
  applicationName?: string;
  poolMax?: number;
  heartbeatSeconds?: number;
  superviseIntervalSeconds?: number;
  pollingIntervalSeconds?: number;
  stopTimeoutMs?: number;
}): Jobs {
  const { logger, metrics } = options;
  const boss = new PgBoss({
    connectionString: options.databaseUrl,
    schema: JOB_QUEUE_SCHEMA,
    max: options.poolMax ?? 2,
    application_name: options.applicationName,
    superviseIntervalSeconds: options.superviseIntervalSeconds ?? 10,
    // Recurring work is triggered by this runner's timers (`every`), not by pg-boss's cron,
    // whose granularity is a minute.
    schedule: false,
  } as ConstructorParameters<typeof PgBoss>[0]);
  boss.on('error', (error: unknown) => logger.error({ err: error }, 'job queue error'));
  const tasks = new Map<
    string,
    { handler: TaskHandler<object>; options: Required<TaskOptions>; everyMs?: number }
  >();
  const timers: NodeJS.Timeout[] = [];
  let started = false;
  const heartbeatSeconds = options.heartbeatSeconds ?? 10;

  if (metrics) {
    new Gauge({
      name: 'skyport_jobs_waiting',
      help: 'Jobs of each task waiting to run (queued and ready), cluster-wide.',
      labelNames: ['task'],
      registers: [metrics.registry],
      async collect() {
        if (!started) return;
        this.reset();
        const queues = await boss.getQueues([...tasks.keys()]);
        for (const queue of queues) this.set({ task: queue.name }, queue.readyCount);
      },
    });
  }

  const send = async (
    task: string,
    data: object,
    sendOptions: { db?: Sql | postgres.TransactionSql } = {},
  ) => {
    const db = sendOptions.db;
    await boss.send(task, data, {
      ...(db && {
        db: {
          executeSql: async (text: string, values?: unknown[]) => ({
            rows: await db.unsafe(text, (values ?? []) as postgres.ParameterOrJSON<never>[]),
          }),
        },
      }),
    });
  };

  return {
    define(task, handler, taskOptions = {}) {
      tasks.set(task, {
        handler: handler as TaskHandler<object>,
        options: { ...DEFAULTS, ...taskOptions },
      });
    },
    every(task, intervalMs) {
      const entry = tasks.get(task);
      if (!entry) throw new Error(`No task named ${task}`);
      entry.everyMs = intervalMs;
    },
    send,
    async start() {
      await boss.start();
      for (const [task, { handler, options: taskOptions, everyMs }] of tasks) {
        const settings = {
          retryLimit: taskOptions.retryLimit,
          retryDelay: taskOptions.retryDelaySeconds,
          retryDelayMax: taskOptions.retryDelayMaxSeconds,
          retryBackoff: true,
          expireInSeconds: taskOptions.expireInSeconds,
          heartbeatSeconds,
        };
        // Recurring tasks: at most one waiting and one running, cluster-wide. A queue's policy is
        // fixed when it is created (by whichever instance gets there first); its settings follow
        // the running build.
        if (!(await boss.getQueue(task))) {
          const policy = everyMs === undefined ? 'standard' : 'stately';
          await boss.createQueue(task, { ...settings, policy }).catch(async (error: unknown) => {
            if (!(await boss.getQueue(task))) throw error;
          });
        }
        await boss.updateQueue(task, settings);
        await boss.work<object>(
          task,
          {
            batchSize: 1,
            // A recurring task's jobs are picked up about as often as they come (≥ 0.5 s, pg-boss's
            // least); others every 2 s at most (a new job's NOTIFY usually wakes the worker first).
            pollingIntervalSeconds:
              options.pollingIntervalSeconds ??
              (everyMs === undefined ? 2 : Math.max(0.5, Math.min(2, everyMs / 1000))),
          },
          async ([job]) => {
            if (!job) return;
            try {
              await handler(job.data);
              metrics?.jobs.inc({ task, outcome: 'completed' });
            } catch (error) {
              const retried = job.retryCount < taskOptions.retryLimit;
              metrics?.jobs.inc({ task, outcome: retried ? 'retried' : 'failed' });
              logger.error(
                { err: error, task, attempt: job.retryCount + 1, retried },
                'job failed',
              );
              throw error;
            }
          },
        );
        if (everyMs !== undefined) {
          const tick = () =>
            void boss
              .send(task, {})
              .catch((error: unknown) => logger.error({ err: error, task }, 'enqueue failed'));
          tick();
          const timer = setInterval(tick, everyMs);
          timer.unref();
          timers.push(timer);
        }
      }
      started = true;
    },
    async stop() {
      for (const timer of timers) clearInterval(timer);
      started = false;
      await boss.stop({ graceful: true, timeout: options.stopTimeoutMs ?? 10_000 });
    },
  };
}
