// Live sync streams per server instance: how many Server-Sent Events streams one instance holds,
// what each costs in server memory, and how fast one change reaches all of them.
//
//   tsx bench/streams.ts [--streams 10000] [--compare 1000] [--rounds 3] [--nice=-10]
//   (DATABASE_URL: the PostgreSQL server's maintenance database; default 127.0.0.1:5432)
//
// For each stream count: the real server (src/main.ts, in a child process, with
// STREAMS_PER_ADDRESS/STREAMS_MAX raised since every client is 127.0.0.1) and a client process of
// its own (bench/lib-streams/client.ts: raw node:net sockets) that opens N guest streams on the
// public `flights` collection. Server memory per stream = (memory with N streams open − memory
// before), each after a full GC in the server (bench/lib-streams/gc-hook.ts, the only thing added
// to the server process), ÷ N: as RSS, and as V8 heap used + external (Buffers included). Then
// the client commits one change to one flight in the database (UPDATE … price_cents + 1), a few
// rounds, and times each stream from just before the UPDATE was sent until that stream's whole
// `changes` event arrived: p50/p95/p99/max and the share within 250 ms, with the CPU time the
// server and the client spent meanwhile (/proc). Server, client and PostgreSQL share the machine
// (and whatever else runs on it), so the delays depend on its load: the load average is reported
// with each run, and the server's CPU time per change is the figure that does not.
//
// Targets: 10,000 streams on one instance, 95 % of them get a change within 250 ms, ≤ 20 KB of
// server memory per stream.
import os from 'node:os';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER } from '@skyport/shared';
import { createSql } from '../src/db/client.ts';
import { migrate } from '../src/db/migrate.ts';
import { insertAirline, insertFlights } from '../src/sync/test-fixtures.ts';
import {
  cpuMs,
  maxOpenFiles,
  startClient,
  startServer,
  type ServerMemory,
} from './lib-streams/processes.ts';
import { withStandaloneBenchDatabase } from './lib/database.ts';

export const STREAMS_TARGETS = {
  streams: 10_000,
  deliveryMs: 250,
  /** Share of the streams that must get the change within `deliveryMs`. */
  deliveredShare: 0.95,
  kbPerStream: 20,
} as const;

export interface StreamsBenchOptions {
  /** A database of the bench's own: the server migrates it, the bench adds one airline and flight. */
  databaseUrl: string;
  streams: number;
  log: (message: string) => void;
  /** A smaller run first, for comparison (default 1,000; 0 = none). */
  compareWith?: number;
  /** Changes committed and timed per run (default 3). */
  rounds?: number;
  /**
   * Scheduling priority (nice) of the server and client processes, e.g. -10 on a machine busy
   * with other work (needs the privilege to raise priority); default: unchanged.
   */
  niceness?: number;
}

export interface DeliveryStats {
  /** Streams that got the change (of `streams`). */
  delivered: number;
  missing: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Share of all open streams that had the change within 250 ms. */
  within250Ms: number;
  /** How long the UPDATE itself took to commit, from the client. */
  commitMs: number;
  /**
   * CPU time the server used from the commit until every stream had the change (its whole
   * process: the feed's query, the encoding, every socket write): what the delivery costs,
   * whatever else runs on the machine.
   */
  serverCpuMs: number;
  /** The same for the bench's client process (reading every socket), for comparison. */
  clientCpuMs: number;
}

export interface StreamsRun {
  streams: number;
  opened: number;
  failed: number;
  openSeconds: number;
  memory: {
    before: ServerMemory;
    after: ServerMemory;
    /** (RSS with the streams − RSS before) ÷ streams, KiB. */
    rssKbPerStream: number;
    /** The same of V8 heap used + external (Buffers are in external), KiB. */
    heapKbPerStream: number;
  };
  /** Each change's delivery, then every round's samples together. */
  rounds: DeliveryStats[];
  delivery: DeliveryStats;
  /** os.loadavg() after the run: 1, 5, 15 minutes. */
  loadAverage: number[];
}

export interface StreamsReport {
  cores: number;
  node: string;
  /** The server's and client's nice value, when the bench set one. */
  niceness?: number;
  runs: StreamsRun[];
  targets: typeof STREAMS_TARGETS;
  /** The largest run against the targets. */
  pass: { streams: boolean; delivery: boolean; memory: boolean };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Nearest-rank percentile of ascending `sorted`. */
function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}

function deliveryStats(
  delays: number[],
  streams: number,
  commitMs: number,
  cpu: { server: number; client: number },
): DeliveryStats {
  // Over every open stream: one that never got the change counts as infinitely late.
  const sorted = [...delays, ...Array<number>(Math.max(0, streams - delays.length)).fill(Infinity)];
  sorted.sort((a, b) => a - b);
  const within = delays.filter((ms) => ms <= STREAMS_TARGETS.deliveryMs).length;
  return {
    delivered: delays.length,
    missing: streams - delays.length,
    p50Ms: percentile(sorted, 50),
    p95Ms: percentile(sorted, 95),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted.at(-1) ?? NaN,
    within250Ms: Math.round((within / Math.max(1, streams)) * 10_000) / 10_000,
    commitMs: Math.round(commitMs * 10) / 10,
    serverCpuMs: Math.round(cpu.server),
    clientCpuMs: Math.round(cpu.client),
  };
}

const kb = (bytes: number) => Math.round((bytes / 1024) * 100) / 100;

async function runOnce(
  databaseUrl: string,
  flightId: string,
  streams: number,
  options: { rounds: number; niceness?: number; log: (message: string) => void },
): Promise<StreamsRun> {
  const { rounds, niceness, log } = options;
  const prioritise = (pid: number) => {
    if (niceness !== undefined) os.setPriority(pid, niceness);
  };
  const server = await startServer({
    DATABASE_URL: databaseUrl,
    STREAMS_PER_ADDRESS: String(streams + 1000),
    STREAMS_MAX: String(streams + 1000),
  });
  prioritise(server.pid);
  const clientConfig = {
    origin: server.origin,
    path: '/api/sync/flights/stream',
    headers: { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION) },
    concurrency: 200,
    databaseUrl,
    flightId,
    waitMs: 10_000,
  };
  try {
    // Each side holds one socket per stream (Node raises its soft limit to the hard one).
    const needed = streams + 200;
    const checkFiles = (who: string, pid: number) => {
      const limit = maxOpenFiles(pid);
      if (limit < needed)
        throw new Error(
          `${who}: ${limit} open files allowed, ${needed} needed; raise \`ulimit -n\` (hard: \`ulimit -Hn\`)`,
        );
    };
    checkFiles('server', server.pid);
    // Warm up (the feed's LISTEN, the routes' first compilation) so that "before" is steady.
    // A first change through them too: the measured ones find the delivery path compiled, as on
    // a server that has been running.
    const warmup = startClient({ ...clientConfig, streams: 200 });
    await warmup.open();
    await warmup.fire(0);
    await warmup.close();
    await sleep(500);
    const before = await server.memory();

    const client = startClient({ ...clientConfig, streams });
    try {
      prioritise(client.pid);
      checkFiles('client', client.pid);
      log(`streams bench: opening ${streams} streams`);
      const opened = await client.open();
      if (opened.failed > 0)
        log(`streams bench: ${opened.failed} streams failed: ${opened.errors.join('; ')}`);
      await sleep(1000);
      const after = await server.memory();
      const open = opened.opened;
      const results: DeliveryStats[] = [];
      const all: number[] = [];
      let commitMs = 0;
      const cpuTotal = { server: 0, client: 0 };
      for (let round = 1; round <= rounds; round++) {
        await sleep(1000);
        const cpuBefore = { server: cpuMs(server.pid), client: cpuMs(client.pid) };
        const fired = await client.fire(round);
        const cpu = {
          server: cpuMs(server.pid) - cpuBefore.server,
          client: cpuMs(client.pid) - cpuBefore.client,
        };
        all.push(...fired.delays);
        commitMs = Math.max(commitMs, fired.commitMs);
        cpuTotal.server += cpu.server;
        cpuTotal.client += cpu.client;
        results.push(deliveryStats(fired.delays, open, fired.commitMs, cpu));
        const last = results.at(-1)!;
        log(
          `streams bench: ${open} streams, change ${round}: p50 ${last.p50Ms} ms, p95 ${last.p95Ms} ms, ` +
            `max ${last.maxMs} ms, ${(last.within250Ms * 100).toFixed(1)} % within 250 ms, ` +
            `CPU: server ${last.serverCpuMs} ms, client ${last.clientCpuMs} ms`,
        );
      }
      const delivery = deliveryStats(all, open * rounds, commitMs, {
        server: cpuTotal.server / rounds,
        client: cpuTotal.client / rounds,
      });
      delivery.delivered = Math.round(delivery.delivered / rounds);
      delivery.missing = Math.round(delivery.missing / rounds);
      return {
        streams,
        opened: open,
        failed: opened.failed,
        openSeconds: Math.round(opened.ms / 100) / 10,
        memory: {
          before,
          after,
          rssKbPerStream: kb((after.rss - before.rss) / Math.max(1, open)),
          heapKbPerStream: kb(
            (after.heapUsed + after.external - (before.heapUsed + before.external)) /
              Math.max(1, open),
          ),
        },
        rounds: results,
        delivery,
        loadAverage: os.loadavg().map((load) => Math.round(load * 100) / 100),
      };
    } finally {
      await client.close();
    }
  } finally {
    await server.stop();
  }
}

/**
 * Runs the bench at `compareWith` (default 1,000) and at `streams` streams, each on a fresh server
 * process, against `databaseUrl` (a database of the bench's own; see StreamsBenchOptions).
 */
export async function runStreamsBench(options: StreamsBenchOptions): Promise<StreamsReport> {
  const { databaseUrl, log } = options;
  const rounds = options.rounds ?? 3;
  const compareWith = options.compareWith ?? 1000;
  const sql = createSql(databaseUrl, { max: 1 });
  let flightId: string;
  try {
    await migrate(sql);
    const airlineId = await insertAirline(sql, 'Streams Bench Air');
    [flightId] = (await insertFlights(sql, airlineId, 1)) as [string];
  } finally {
    await sql.end({ timeout: 5 });
  }
  const counts = [
    ...(compareWith > 0 && compareWith < options.streams ? [compareWith] : []),
    options.streams,
  ];
  const runs: StreamsRun[] = [];
  for (const streams of counts)
    runs.push(
      await runOnce(databaseUrl, flightId, streams, { rounds, niceness: options.niceness, log }),
    );
  const largest = runs.at(-1)!;
  return {
    cores: os.availableParallelism(),
    node: process.version,
    niceness: options.niceness,
    runs,
    targets: STREAMS_TARGETS,
    pass: {
      streams: largest.opened >= STREAMS_TARGETS.streams,
      delivery: largest.delivery.within250Ms >= STREAMS_TARGETS.deliveredShare,
      memory: largest.memory.rssKbPerStream <= STREAMS_TARGETS.kbPerStream,
    },
  };
}

export function printStreamsBench(report: StreamsReport): void {
  const header = [
    'streams',
    'opened',
    'open s',
    'KiB/stream RSS',
    'KiB/stream heap+ext',
    'p50 ms',
    'p95 ms',
    'p99 ms',
    'max ms',
    '≤250 ms',
    'server CPU ms',
    'client CPU ms',
    'load 1m',
  ];
  const rows = report.runs.map((run) => [
    run.streams,
    run.opened,
    run.openSeconds,
    run.memory.rssKbPerStream,
    run.memory.heapKbPerStream,
    run.delivery.p50Ms,
    run.delivery.p95Ms,
    run.delivery.p99Ms,
    run.delivery.maxMs,
    `${(run.delivery.within250Ms * 100).toFixed(1)} %`,
    run.delivery.serverCpuMs,
    run.delivery.clientCpuMs,
    run.loadAverage[0] ?? NaN,
  ]);
  const widths = header.map((title, i) =>
    Math.max(title.length, ...rows.map((row) => String(row[i]).length)),
  );
  const line = (cells: (string | number)[]) =>
    cells.map((cell, i) => String(cell).padStart(widths[i]!)).join('  ');
  const { targets, pass } = report;
  console.log(
    `\nLive sync streams on one instance (${report.cores} cores, Node ${report.node}` +
      `${report.niceness === undefined ? '' : `, server and client at nice ${report.niceness}`}; ` +
      `server, client and PostgreSQL on the same machine; delivery over ${report.runs[0]?.rounds.length ?? 0} changes)\n`,
  );
  console.log(
    [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n'),
  );
  console.log(
    `\ntargets at ${targets.streams} streams: ${targets.deliveredShare * 100} % within ${targets.deliveryMs} ms ` +
      `(${pass.delivery ? 'pass' : 'FAIL'}), ≤ ${targets.kbPerStream} KiB per stream (${pass.memory ? 'pass' : 'FAIL'}), ` +
      `all open (${pass.streams ? 'pass' : 'FAIL'})`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values } = parseArgs({
    options: {
      streams: { type: 'string', default: '10000' },
      compare: { type: 'string', default: '1000' },
      rounds: { type: 'string', default: '3' },
      nice: { type: 'string' },
    },
  });
  await withStandaloneBenchDatabase('streams', async (databaseUrl) => {
    const report = await runStreamsBench({
      databaseUrl,
      streams: Number(values.streams),
      compareWith: Number(values.compare),
      rounds: Number(values.rounds),
      niceness: values.nice === undefined ? undefined : Number(values.nice),
      log: console.log,
    });
    printStreamsBench(report);
    const dir = path.resolve(import.meta.dirname, '../../bench-results');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'streams-latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  });
}
