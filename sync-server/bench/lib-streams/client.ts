// The streams bench's client, a process of its own (`node --import tsx client.ts '<config JSON>'`)
// so that reading ten thousand sockets does not share an event loop with the server or the bench
// runner. It opens raw HTTP/1.1 connections (node:net: no fetch, no web streams, a few hundred
// bytes per connection) to one sync stream path, and is driven by JSON lines on stdin:
//   {"open":true}      opens every stream; answers {"opened":n,"failed":n,"ms":n,"errors":[...]}
//                      once each has its `resync` event (or failed)
//   {"fire":round}     commits one change to the bench's flight itself (so that the commit and the
//                      arrivals are timed on one clock) and answers {"round","delays":[ms...],
//                      "missing":n,"commitMs":n} once every stream got its `changes` event (or
//                      after the wait), each delay counted from just before the UPDATE was sent
//   {"close":true}     closes everything and exits
import { connect, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import postgres from 'postgres';

export interface ClientConfig {
  origin: string;
  path: string;
  headers: Record<string, string>;
  streams: number;
  /** Connections being opened at once. */
  concurrency: number;
  databaseUrl: string;
  flightId: string;
  /** How long a round waits for the last stream's event. */
  waitMs: number;
}

interface Connection {
  socket: Socket;
  /** Text received and not yet matched (bounded). */
  text: string;
  open: boolean;
  /** performance.now() when this round's `changes` event was complete; NaN while awaited. */
  arrived: number;
}

const config = JSON.parse(process.argv[2] ?? '{}') as ClientConfig;
const origin = new URL(config.origin);
const request =
  `GET ${config.path} HTTP/1.1\r\nHost: ${origin.host}\r\nAccept: text/event-stream\r\n` +
  Object.entries(config.headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('') +
  '\r\n';

const connections: Connection[] = [];
/** Streams still waiting for this round's event; the round's resolver. */
let awaited = 0;
let roundDone: (() => void) | undefined;

const reply = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);

const CHANGES = Buffer.from('event: changes');
const FLIGHT = Buffer.from(config.flightId);
const EVENT_END = Buffer.from('\n\n');

function arrived(conn: Connection) {
  conn.arrived = performance.now();
  conn.text = '';
  awaited -= 1;
  if (awaited === 0) roundDone?.();
}

function openOne(): Promise<Connection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: origin.hostname, port: Number(origin.port) });
    const conn: Connection = { socket, text: '', open: false, arrived: 0 };
    socket.setNoDelay(true);
    socket.once('connect', () => socket.write(request));
    socket.on('error', (error) => {
      if (!conn.open) reject(error);
    });
    socket.on('close', () => {
      if (!conn.open) reject(new Error('closed before the resync'));
    });
    socket.on('data', (chunk: Buffer) => {
      if (!conn.open) {
        conn.text += chunk.toString('latin1');
        if (!conn.text.startsWith('HTTP/1.1 200')) {
          if (conn.text.includes('\r\n')) {
            reject(new Error(conn.text.split('\r\n')[0]));
            socket.destroy();
          }
          return;
        }
        if (conn.text.includes('event: resync')) {
          conn.open = true;
          conn.text = '';
          resolve(conn);
        }
        return;
      }
      if (!Number.isNaN(conn.arrived)) return; // not awaited: heartbeats
      // The usual case, cheaply: the whole event in one read.
      const at = conn.text === '' ? chunk.indexOf(CHANGES) : -1;
      if (at >= 0 && chunk.indexOf(FLIGHT, at) >= 0 && chunk.indexOf(EVENT_END, at) >= 0) {
        arrived(conn);
        return;
      }
      conn.text += chunk.toString('latin1');
      const textAt = conn.text.indexOf('event: changes');
      if (
        textAt >= 0 &&
        conn.text.indexOf('\n\n', textAt) >= 0 &&
        conn.text.includes(config.flightId)
      ) {
        arrived(conn);
      } else if (textAt < 0 && conn.text.length > 4096) {
        conn.text = conn.text.slice(-64);
      }
    });
  });
}

async function openAll() {
  const started = performance.now();
  let next = 0;
  let failed = 0;
  const errors = new Set<string>();
  const worker = async () => {
    while (next < config.streams) {
      next += 1;
      try {
        connections.push(await openOne());
      } catch (error) {
        failed += 1;
        if (errors.size < 5) errors.add((error as Error).message);
      }
    }
  };
  await Promise.all(Array.from({ length: config.concurrency }, worker));
  reply({
    opened: connections.length,
    failed,
    ms: Math.round(performance.now() - started),
    errors: [...errors],
  });
}

const sql = postgres(config.databaseUrl, { max: 1, onnotice: () => {} });

async function fire(round: number) {
  await sql`SELECT 1`; // the connection is up before the clock starts
  for (const conn of connections) {
    conn.arrived = NaN;
    conn.text = '';
  }
  awaited = connections.length;
  const allArrived = new Promise<void>((resolve) => (roundDone = resolve));
  const sent = performance.now();
  await sql`UPDATE flights SET price_cents = price_cents + 1, updated_at = now()
    WHERE id = ${config.flightId}`;
  const commitMs = performance.now() - sent;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    allArrived,
    new Promise((resolve) => (timer = setTimeout(resolve, config.waitMs))),
  ]);
  clearTimeout(timer);
  roundDone = undefined;
  const delays = connections
    .filter((conn) => !Number.isNaN(conn.arrived))
    .map((conn) => Math.round((conn.arrived - sent) * 10) / 10);
  for (const conn of connections) if (Number.isNaN(conn.arrived)) conn.arrived = 0;
  reply({ round, delays, missing: connections.length - delays.length, commitMs });
}

async function close() {
  for (const conn of connections) conn.socket.destroy();
  await sql.end({ timeout: 1 });
  process.exit(0);
}

createInterface({ input: process.stdin }).on('line', (line) => {
  const command = JSON.parse(line) as { open?: true; fire?: number; close?: true };
  const done = command.open ? openAll() : command.fire !== undefined ? fire(command.fire) : close();
  done.catch((error: unknown) => {
    reply({ error: String((error as Error)?.stack ?? error) });
  });
});
process.stdin.on('end', () => void close());
