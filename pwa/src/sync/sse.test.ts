/// <reference types="node" />
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { SyncHttpError } from './http.ts';
import { serverSentEvents, type ServerSentEvent } from './sse.ts';

/**
 * The live stream's client against a real HTTP server that writes what each test needs: events,
 * heartbeat comments, or nothing at all after its headers (a connection that died silently).
 */

let server: Server;
let baseUrl: string;
const open = new Set<ServerResponse>();

beforeAll(async () => {
  server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    open.add(response);
    response.on('close', () => open.delete(response));
    if (request.url === '/heartbeats') {
      response.write('event: resync\ndata: {}\n\n');
      const timer = setInterval(() => response.write(': heartbeat\n\n'), 50);
      response.on('close', () => clearInterval(timer));
    } else if (request.url === '/silent') {
      response.write('event: resync\ndata: {}\n\n');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const response of open) response.destroy();
  await new Promise((resolve) => server.close(resolve));
});

/** Subscribes for `ms` and returns the events and the error, if any. */
function listen(path: string, silenceMs: number, ms: number) {
  return new Promise<{ events: ServerSentEvent[]; error: unknown }>((resolve) => {
    const events: ServerSentEvent[] = [];
    const subscription = serverSentEvents({ baseUrl }, path, silenceMs).subscribe({
      next: (event) => events.push(event),
      error: (error: unknown) => resolve({ events, error }),
    });
    setTimeout(() => {
      subscription.unsubscribe();
      resolve({ events, error: null });
    }, ms);
  });
}

test('a stream that goes silent counts as lost (an offline error), so the engine reconnects', async () => {
  // 300 ms of silence: the error comes then, not with the 45 s default nor never; the listening
  // ends at 10 s, which only a stream not timed at all would reach, busy machine or not.
  const { events, error } = await listen('/silent', 300, 10_000);
  expect(events.map((event) => event.event)).toEqual(['resync']);
  expect(error).toBeInstanceOf(SyncHttpError);
  expect((error as SyncHttpError).offline).toBe(true);
  expect((error as SyncHttpError).message).toBe('The live connection went silent');
  // The client closed its side.
  await expect.poll(() => open.size, { timeout: 10_000 }).toBe(0);
});

test('heartbeat comments keep a quiet stream alive', async () => {
  // A comment every 50 ms, for three times the allowed silence: without comments counting, the
  // stream would have errored after the first second. The silence is 20 times the comments'
  // interval, so that a busy machine's pauses (server and client share this process) do not
  // pass for it.
  const { events, error } = await listen('/heartbeats', 1000, 3000);
  expect(error).toBeNull();
  expect(events.map((event) => event.event)).toEqual(['resync']);
});
