import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Sql } from '../db/client.ts';

/**
 * The instance's Prometheus metrics (prom-client), in a registry of its own so that several apps
 * in one process (tests) never share counters. main.ts serves them on METRICS_PORT.
 */
export interface Metrics {
  registry: Registry;
  /** Answers by method, route pattern (`/api/flights/:id`, never the raw path) and status. */
  httpRequests: Counter<'method' | 'route' | 'status'>;
  httpDuration: Histogram<'method' | 'route'>;
  /** Sync change streams (SSE) open now. */
  openStreams: Gauge;
  /**
   * Sync streams ended, by why: aborted (the client left), draining, overflow (a slow reader),
   * write-timeout, session, expired, access, stalled, check-failed, error.
   */
  streamsEnded: Counter<'reason'>;
  /** Checkout attempts by outcome: paid, declined, conflict, pending, rejected, error. */
  checkoutOutcomes: Counter<'outcome'>;
  /** Replication requests by collection and operation (pull, push). */
  syncRequests: Counter<'collection' | 'operation'>;
  /** Background jobs run by this instance, by task and outcome: completed, retried, failed. */
  jobs: Counter<'task' | 'outcome'>;
}

export function createMetrics(
  options: { sql?: Sql; applicationName?: string; poolMax?: number; processMetrics?: boolean } = {},
): Metrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry, prefix: 'skyport_' });
  const metrics: Metrics = {
    registry,
    httpRequests: new Counter({
      name: 'skyport_http_requests_total',
      help: 'HTTP answers by method, route pattern and status.',
      labelNames: ['method', 'route', 'status'],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: 'skyport_http_request_duration_seconds',
      help: 'Time to the answer (for streams: to the first byte) by method and route pattern.',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    openStreams: new Gauge({
      name: 'skyport_sync_streams_open',
      help: 'Sync change streams (Server-Sent Events) open on this instance.',
      registers: [registry],
    }),
    streamsEnded: new Counter({
      name: 'skyport_sync_streams_ended_total',
      help: 'Sync change streams ended, by reason (slow readers, session ends, drains, ...).',
      labelNames: ['reason'],
      registers: [registry],
    }),
    checkoutOutcomes: new Counter({
      name: 'skyport_checkout_outcomes_total',
      help: 'Checkout attempts by outcome.',
      labelNames: ['outcome'],
      registers: [registry],
    }),
    syncRequests: new Counter({
      name: 'skyport_sync_requests_total',
      help: 'Replication pulls and pushes by collection.',
      labelNames: ['collection', 'operation'],
      registers: [registry],
    }),
    jobs: new Counter({
      name: 'skyport_jobs_total',
      help: 'Background jobs run here by task and outcome (completed, retried, failed for good).',
      labelNames: ['task', 'outcome'],
      registers: [registry],
    }),
  };
  const { sql, applicationName } = options;
  if (sql && applicationName) {
    // postgres.js does not expose its pool, so the pool's connections are read from PostgreSQL
    // itself, by the application name this instance's connections carry (db/client.ts).
    new Gauge({
      name: 'skyport_db_pool_connections',
      help: "This instance's database connections by state (active, idle, ...).",
      labelNames: ['state'],
      registers: [registry],
      async collect() {
        this.reset();
        const rows = await sql<{ state: string | null; count: number }[]>`
          SELECT state, count(*)::int AS count FROM pg_stat_activity
          WHERE application_name = ${applicationName} GROUP BY state`;
        for (const row of rows) this.set({ state: row.state ?? 'unknown' }, row.count);
      },
    });
  }
  if (options.poolMax) {
    new Gauge({
      name: 'skyport_db_pool_max',
      help: 'Connections the pools may open (DATABASE_POOL_MAX + DATABASE_SYNC_POOL_MAX).',
      registers: [registry],
    }).set(options.poolMax);
  }
  return metrics;
}

/** What a checkout answer's status says happened, for `checkoutOutcomes`. */
export function checkoutOutcome(status: number): string {
  if (status >= 200 && status < 300) return 'paid';
  if (status === 402) return 'declined';
  if (status === 409) return 'conflict';
  if (status === 503) return 'pending';
  if (status >= 500) return 'error';
  return 'rejected';
}
