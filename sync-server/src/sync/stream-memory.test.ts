import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, expect, inject, test } from 'vitest';
import { createSql } from '../db/client.ts';
import { withDatabase } from '../test/test-postgres.ts';
import { openStalledReader } from './stalled-reader.ts';
import { syncHeaders } from './test-fixtures.ts';

/**
 * Issue 14: a stream that does not read must not grow the server's memory. A real server in a
 * child process (so its RSS is its own), 50 raw connections to the public flights stream that
 * send the request, take the first bytes and then never read again, and 5,000 flight updates
 * through the database triggers; the same run without the stalled readers is the baseline. A
 * normal client reads the whole time and must get every change.
 */

const STALLED_READERS = 50;
const FLIGHTS = 500;
const ROUNDS = 10; // FLIGHTS × ROUNDS = 5,000 updates
const ROWS_PER_STATEMENT = 100;
const MAX_EXTRA_GROWTH_MB = 50;

const adminUrl = inject('adminDatabaseUrl');
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
});

interface Figures {
  stalled: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  rssAfterUpdatesMb: number;
  rssAfterCloseMb: number;
  /** Stalled connections the server had ended (seen when they read again after the updates). */
  stalledEndedByServer: number;
  /** Of those, the ones that got the slow-reader hint (`retry:`) before the end. */
  stalledHinted: number;
  updates: number;
  seconds: number;
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN);
  return Math.round((kb / 1024) * 10) / 10;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function startServer(): Promise<{
  child: ChildProcess;
  url: string;
  database: string;
  flightIds: string[];
}> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/sync/test-server.ts', '--flights', String(FLIGHTS)],
    {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env: { ...process.env, DATABASE_URL: adminUrl, LOG_LEVEL: 'silent' },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  children.push(child);
  let output = '';
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const line = output.split('\n').find((text) => text.startsWith('{'));
      if (line && output.includes('\n')) {
        const summary = JSON.parse(line) as { url: string; database: string; flightIds: string[] };
        resolve({ child, ...summary });
      }
    });
    child.on('exit', (code) => reject(new Error(`test server exited with ${code}:\n${output}`)));
  });
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.stdin?.end();
  child.kill('SIGTERM');
  await exited;
}

/** A normal client: reads the stream and remembers the highest checkpoint revision it got. */
function openReader(url: string) {
  const controller = new AbortController();
  let revision = 0;
  let documents = 0;
  let resynced = false;
  const done = (async () => {
    const response = await fetch(`${url}/api/sync/flights/stream`, {
      headers: syncHeaders(),
      signal: controller.signal,
    });
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body!) {
        buffer += decoder.decode(chunk as Uint8Array, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.startsWith('event: resync')) resynced = true;
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!block.startsWith('event: changes') || !data) continue;
          const body = JSON.parse(data) as {
            documents: unknown[];
            checkpoint: { revision: number };
          };
          documents += body.documents.length;
          revision = Math.max(revision, body.checkpoint.revision);
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    get revision() {
      return revision;
    },
    get documents() {
      return documents;
    },
    get resynced() {
      return resynced;
    },
    async close() {
      controller.abort();
      await done;
    },
  };
}

async function measure(stalled: number): Promise<Figures> {
  const started = performance.now();
  const server = await startServer();
  const pid = server.child.pid!;
  const sql = createSql(withDatabase(adminUrl, server.database), { max: 2 });
  try {
    const reader = openReader(server.url);
    await expect.poll(() => reader.resynced, { timeout: 20_000 }).toBe(true);
    const origin = new URL(server.url);
    // Distinct loopback addresses: 50 clients, each within the per-address stream limit.
    const readers = await Promise.all(
      Array.from({ length: stalled }, (_, i) =>
        openStalledReader(origin, { localAddress: `127.0.0.${10 + (i % 200)}` }),
      ),
    );
    await sleep(500);
    const rssBeforeMb = await rssMb(pid);
    let rssPeakMb = rssBeforeMb;
    const sampler = setInterval(() => {
      void rssMb(pid).then(
        (mb) => (rssPeakMb = Math.max(rssPeakMb, mb)),
        () => {},
      );
    }, 100);

    let updates = 0;
    for (let round = 0; round < ROUNDS; round++) {
      for (let from = 0; from < server.flightIds.length; from += ROWS_PER_STATEMENT) {
        const ids = server.flightIds.slice(from, from + ROWS_PER_STATEMENT);
        // An airline's edit of price and description (about 1 KB of the 2,000 allowed), so each
        // stalled reader falls several megabytes behind: more than the kernel's socket buffers.
        const rows = await sql`
          UPDATE flights SET price_cents = price_cents + 1, updated_at = now(),
            description = 'Edit ' || ${round} || ': ' || repeat('Updated baggage and meal details. ', 30)
          WHERE id = ANY(${ids}::uuid[]) RETURNING id`;
        updates += rows.length;
      }
    }
    const [head] = await sql<{ revision: string }[]>`SELECT max(revision) AS revision FROM flights`;
    const headRevision = Number(head!.revision);
    // The normal client got every change, however the stalled ones fared.
    await expect.poll(() => reader.revision, { timeout: 60_000 }).toBe(headRevision);
    const rssAfterUpdatesMb = await rssMb(pid);
    // The stalled readers read again: a stream the server gave up on ends (after its slow-reader
    // hint, when the server could still write it); one it still serves stays open.
    const outcomes = await Promise.all(readers.map((reader) => reader.resumeAndWait(3000)));
    const stalledEndedByServer = outcomes.filter((outcome) => outcome.ended).length;
    const stalledHinted = outcomes.filter((outcome) => outcome.hinted).length;
    for (const { socket } of readers) socket.destroy();
    await sleep(1500);
    clearInterval(sampler);
    const rssAfterCloseMb = await rssMb(pid);
    await reader.close();
    return {
      stalled,
      rssBeforeMb,
      rssPeakMb,
      rssAfterUpdatesMb,
      rssAfterCloseMb,
      stalledEndedByServer,
      stalledHinted,
      updates,
      seconds: Math.round((performance.now() - started) / 100) / 10,
    };
  } finally {
    await sql.end({ timeout: 1 });
    await stopServer(server.child);
  }
}

test(`${STALLED_READERS} stalled readers during ${FLIGHTS * ROUNDS} flight updates cost the server under ${MAX_EXTRA_GROWTH_MB} MB more than none`, async () => {
  const without = await measure(0);
  const withStalled = await measure(STALLED_READERS);
  const growth = (figures: Figures) => figures.rssPeakMb - figures.rssBeforeMb;
  console.log(
    'stream memory (MB)',
    JSON.stringify({
      without,
      withStalled,
      extraPeakGrowthMb: Math.round((growth(withStalled) - growth(without)) * 10) / 10,
    }),
  );
  expect(without.updates).toBe(FLIGHTS * ROUNDS);
  // The requirement: stalled readers cost the server next to nothing (the old unbounded queues
  // cost +290 MB here). Whether a stalled reader also falls past its queue bound and is ended
  // depends on how much the kernel's socket buffers absorb first (autotuned, several MB on
  // loopback, and so on the machine's load); when it is ended, it gets the reconnect hint.
  // stream-limits.test.ts ends a slow reader at the queue bound deterministically.
  expect(growth(withStalled) - growth(without)).toBeLessThan(MAX_EXTRA_GROWTH_MB);
  expect(withStalled.stalledHinted).toBe(withStalled.stalledEndedByServer);
}, 240_000);
