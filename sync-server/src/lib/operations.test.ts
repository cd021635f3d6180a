import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { serve } from '@hono/node-server';
import { SYNC_PROTOCOL_VERSION, SYNC_VERSION_HEADER } from '@skyport/shared';
import { afterAll, describe, expect, test } from 'vitest';
import { createSql } from '../db/client.ts';
import {
  cardPayment,
  checkInvariants,
  insertBuyers,
  insertFlight,
  INVARIANTS_HOLD,
  putInCart,
  ticketsOf,
} from '../features/checkout/testing.ts';
import { createPayments, createTestPaymentProvider } from '../payments/index.ts';
import { delay, withFaults } from '../payments/faults.ts';
import { insertUser } from '../test/actors.ts';
import { createTestApp, createTestHarness } from '../test/harness.ts';
import { shutDownGracefully, trackRequests } from './graceful-shutdown.ts';
import { Lifecycle } from './lifecycle.ts';
import { createLogger } from './logger.ts';
import { createMetrics } from './metrics.ts';

const { sql, url } = await createTestHarness();
const silent = createLogger('silent');

/** A logger whose JSON lines the test can read. */
function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger('info', destination), lines };
}

describe('health', () => {
  test('liveness answers while draining; readiness only while serving', async () => {
    const lifecycle = new Lifecycle();
    const { app } = createTestApp(sql, { lifecycle });
    expect((await app.request('/api/health/live')).status).toBe(200);
    expect((await app.request('/api/health/ready')).status).toBe(200);
    expect((await app.request('/api/health')).status).toBe(200);
    lifecycle.beginDrain();
    expect((await app.request('/api/health/live')).status).toBe(200);
    const ready = await app.request('/api/health/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'draining' });
  });

  test('readiness fails while the database is unreachable', async () => {
    const unreachable = createSql('postgres://postgres@127.0.0.1:9/nowhere', { max: 1 });
    const { app } = createTestApp(unreachable);
    const ready = await app.request('/api/health/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ status: 'database_unavailable' });
    expect((await app.request('/api/health/live')).status).toBe(200);
    await unreachable.end({ timeout: 0 });
  });
});

describe('request ids', () => {
  test('every answer carries one, error answers name it, and log lines carry it', async () => {
    const { logger, lines } = capturingLogger();
    const { app } = createTestApp(sql, { logger });
    const missing = await app.request(`/api/flights/${randomUUID()}`);
    const id = missing.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await missing.json()).toMatchObject({ code: 'not_found', requestId: id });
    // A well-formed id from the caller (a proxy's) is kept, so both logs can be joined.
    const traced = await app.request('/api/health/live', {
      headers: { 'X-Request-Id': 'edge-1234abcd' },
    });
    expect(traced.headers.get('x-request-id')).toBe('edge-1234abcd');
    logger.flush();
    await expect.poll(() => lines.some((line) => line.status === 404)).toBe(true);
    expect(lines.find((line) => line.path === '/api/health/live')).toMatchObject({
      requestId: 'edge-1234abcd',
      status: 200,
    });
    expect(lines.find((line) => line.status === 404)).toMatchObject({ requestId: id });
  });
});

describe('metrics', () => {
  test('count answers by route pattern, checkout outcomes, sync requests and open streams', async () => {
    const metrics = createMetrics({ sql, applicationName: 'skyport-metrics-test', poolMax: 7 });
    const { app } = createTestApp(sql, { metrics });
    const airline = await insertUser(sql, { role: 'airline', airlineStatus: 'approved' });
    const flight = await insertFlight(sql, airline.airlineId!, { priceCents: 100_00, tickets: 5 });
    const [buyer] = await insertBuyers(sql, 1);
    await app.request(`/api/flights/${flight}`);
    await app.request(`/api/flights/${randomUUID()}`);
    await putInCart(sql, buyer!.id, flight, 1);
    const paid = await app.request(
      '/api/stripe',
      cardPayment(buyer!.headers, { id: 'pm_card_visa', amount: 100_10 }, randomUUID()),
    );
    expect(paid.status).toBe(200);
    const sync = { headers: { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION) } };
    await app.request('/api/sync/flights/pull?limit=10', sync);
    const controller = new AbortController();
    const stream = await app.request('/api/sync/flights/stream', {
      ...sync,
      signal: controller.signal,
    });
    const reader = stream.body!.getReader();
    await reader.read();

    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'skyport_http_requests_total{method="GET",route="/api/flights/:id",status="200"} 1',
    );
    expect(text).toContain(
      'skyport_http_requests_total{method="GET",route="/api/flights/:id",status="404"} 1',
    );
    expect(text).toContain('skyport_checkout_outcomes_total{outcome="paid"} 1');
    expect(text).toContain('skyport_sync_requests_total{collection="flights",operation="pull"} 1');
    expect(text).toContain('skyport_sync_streams_open 1');
    expect(text).toContain('skyport_db_pool_max 7');
    expect(text).toMatch(
      /skyport_http_request_duration_seconds_count\{method="GET",route="\/api\/flights\/:id"\} 2/,
    );
    await reader.cancel();
    controller.abort();
    await expect
      .poll(async () => await metrics.registry.metrics())
      .toContain('skyport_sync_streams_ended_total{reason="aborted"} 1');
    expect(await metrics.registry.metrics()).toContain('skyport_sync_streams_open 0');
  });
});

describe('graceful shutdown', () => {
  const servers: Server[] = [];
  afterAll(() => servers.forEach((server) => server.close()));

  test('a checkout storm cut by a shutdown loses no accepted checkout, and streams end with a reconnect hint', async () => {
    // A provider that takes 300 ms to authorise: checkouts are in flight when the drain starts.
    const payments = () =>
      createPayments(
        [withFaults(createTestPaymentProvider(), { before: { authorize: delay(300) } })],
        { timeoutMs: 5_000 },
      );
    const start = async () => {
      const appSql = createSql(url, { max: 10 });
      const lifecycle = new Lifecycle();
      const { app } = createTestApp(appSql, { payments: payments(), lifecycle });
      const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }) as Server;
      servers.push(server);
      const requests = trackRequests(server);
      await new Promise((resolve) => server.once('listening', resolve));
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      return { appSql, lifecycle, server, requests, base };
    };
    const first = await start();

    const airline = await insertUser(sql, { role: 'airline', airlineStatus: 'approved' });
    const flight = await insertFlight(sql, airline.airlineId!, {
      priceCents: 50_00,
      tickets: 1000,
    });
    const buyers = await insertBuyers(sql, 30);
    for (const buyer of buyers) await putInCart(sql, buyer.id, flight, 1);
    const keys = buyers.map(() => randomUUID());

    const stream = await fetch(`${first.base}/api/sync/flights/stream`, {
      headers: { [SYNC_VERSION_HEADER]: String(SYNC_PROTOCOL_VERSION) },
    });
    const streamText = stream.text();

    const checkout = (base: string, index: number) =>
      fetch(
        `${base}/api/stripe`,
        cardPayment(buyers[index]!.headers, { id: 'pm_card_visa', amount: 50_05 }, keys[index]),
      ).then(
        (response) => response.status,
        // Refused, or reset while waiting in the listener's backlog: never reached the app.
        () => 'no connection' as const,
      );
    // Half start before the drain, half after it began (the listener is closed by then).
    const before = buyers.slice(0, 15).map((_, i) => checkout(first.base, i));
    // Drain once some checkouts are in the app (the stream is one of the requests in flight).
    await expect.poll(() => first.requests.inFlight() - 1, { timeout: 10_000 }).toBeGreaterThan(3);
    const inFlightAtDrain = first.requests.inFlight() - 1;
    const started = performance.now();
    const shutdown = shutDownGracefully({
      ...first,
      sql: first.appSql,
      logger: silent,
      // Far off: a drain that waited for it would end with drained = false (a stream never ends
      // by itself), so a busy machine slows this test down without failing it.
      timeoutMs: 20_000,
    });
    const after = buyers.slice(15).map((_, i) => checkout(first.base, 15 + i));
    const statuses = await Promise.all([...before, ...after]);
    const { drained } = await shutdown;
    const drainMs = performance.now() - started;

    expect(drained).toBe(true);
    expect(inFlightAtDrain).toBeGreaterThan(0);
    // Every answer is definite: paid, or no connection at all (nothing half done, no 5xx).
    expect(statuses.every((status) => status === 200 || status === 'no connection')).toBe(true);
    // The drain waited for every checkout the app had accepted.
    const paid = statuses.filter((status) => status === 200).length;
    expect(paid).toBeGreaterThanOrEqual(inFlightAtDrain);
    const orderCount = async () =>
      (
        await sql<{ count: number }[]>`
          SELECT count(*)::int AS count FROM orders
          WHERE user_id = ANY(${buyers.map((b) => b.id)}::uuid[])`
      )[0]!.count;
    expect(await orderCount()).toBe(paid);
    // The open stream ended with a reconnect hint rather than being cut.
    expect(await streamText).toMatch(/retry: \d+\n\n$/);

    // The clients retry with their keys on the instance that took over: every purchase is made
    // exactly once, those already paid are answered again without a second charge.
    const second = await start();
    const retried = await Promise.all(buyers.map((_, i) => checkout(second.base, i)));
    expect(retried).toEqual(Array(30).fill(200));
    expect(await orderCount()).toBe(30);
    expect(await ticketsOf(sql, flight)).toBe(1000 - 30);
    expect(await checkInvariants(sql)).toEqual(INVARIANTS_HOLD);
    console.log(
      `shutdown under a checkout storm: ${inFlightAtDrain} in flight at SIGTERM, ${paid} paid before exit, ` +
        `${statuses.length - paid} without a connection (retried elsewhere), drained in ${Math.round(drainMs)} ms`,
    );
    await shutDownGracefully({ ...second, sql: second.appSql, logger: silent, timeoutMs: 2_000 });
  });
});
