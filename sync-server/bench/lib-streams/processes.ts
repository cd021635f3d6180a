// Child processes for the streams bench: the real server (src/main.ts, as shipped) and the bench's
// stream client, each talking in JSON lines on stdout.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';

export const SERVER_ROOT = path.resolve(import.meta.dirname, '../..');
const GC_HOOK = path.join(import.meta.dirname, 'gc-hook.ts');
const CLIENT = path.join(import.meta.dirname, 'client.ts');

/** A child process whose stdout lines are matched as they come. */
export interface LineChild {
  child: ChildProcess;
  /** Resolves with the first line from now on for which `match` returns a value. */
  next<T>(match: (line: string) => T | undefined, timeoutMs: number, what: string): Promise<T>;
  send(message: unknown): void;
  /** SIGTERM (then SIGKILL after `graceMs`); resolves on exit. */
  stop(graceMs?: number): Promise<void>;
}

function lineChild(command: string[], env: NodeJS.ProcessEnv, stdin: boolean): LineChild {
  const child = spawn(process.execPath, command, {
    cwd: SERVER_ROOT,
    env,
    stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'inherit'],
  });
  const waiters = new Set<(line: string) => void>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    for (const waiter of [...waiters]) waiter(line);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    next(match, timeoutMs, what) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => finish(new Error(`${what}: no answer within ${timeoutMs} ms`)),
          timeoutMs,
        );
        const onExit = () => finish(new Error(`${what}: the process exited (${child.exitCode})`));
        const waiter = (line: string) => {
          try {
            const found = match(line);
            if (found !== undefined) finish(undefined, found);
          } catch (error) {
            finish(error as Error);
          }
        };
        function finish(error: Error | undefined, value?: unknown) {
          clearTimeout(timer);
          waiters.delete(waiter);
          child.off('exit', onExit);
          if (error) reject(error);
          else resolve(value as never);
        }
        waiters.add(waiter);
        child.once('exit', onExit);
      });
    },
    send(message) {
      child.stdin?.write(`${JSON.stringify(message)}\n`);
    },
    async stop(graceMs = 15_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const force = setTimeout(() => child.kill('SIGKILL'), graceMs);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(force);
    },
  };
}

/** JSON lines only (the server's log lines and messages are not). */
export function jsonLine<T>(key: string): (line: string) => T | undefined {
  return (line) => {
    if (!line.startsWith('{')) return undefined;
    try {
      const parsed = JSON.parse(line) as Record<string, unknown>;
      return key in parsed ? (parsed as T) : undefined;
    } catch {
      return undefined;
    }
  };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The process's "Max open files" (soft limit; Node raises it to the hard limit at start). */
export function maxOpenFiles(pid: number | 'self' = 'self'): number {
  const line = readFileSync(`/proc/${pid}/limits`, 'utf8')
    .split('\n')
    .find((text) => text.startsWith('Max open files'));
  return Number(line?.split(/\s+/)[3] ?? NaN);
}

export interface ServerMemory {
  gc: boolean;
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
}

/** CPU time (user + system) a process has used so far, in ms (/proc, clock-tick resolution). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

export interface StreamsServer {
  origin: string;
  pid: number;
  /** Full GC in the server (the bench-only gc-hook), then its memory. */
  memory(): Promise<ServerMemory>;
  stop(): Promise<void>;
}

/**
 * Starts src/main.ts as shipped, on a free port of 127.0.0.1, with `env` on top of the bench's
 * environment; `--expose-gc` and the gc-hook preload are the only additions.
 */
export async function startServer(env: Record<string, string>): Promise<StreamsServer> {
  const port = await freePort();
  const server = lineChild(
    ['--expose-gc', '--import', 'tsx', '--import', GC_HOOK, 'src/main.ts'],
    {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      APP_ORIGIN: `http://127.0.0.1:${port}`,
      ALLOW_TEST_PAYMENTS: 'true',
      SEED_DEMO: 'never',
      LOG_LEVEL: 'warn',
      ...env,
    },
    false,
  );
  try {
    await server.next(
      (line) => (line.includes('Skyport is running at') ? true : undefined),
      60_000,
      'server start',
    );
  } catch (error) {
    await server.stop();
    throw error;
  }
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: server.child.pid!,
    async memory() {
      const answer = server.next(
        jsonLine<{ benchMemory: ServerMemory }>('benchMemory'),
        30_000,
        'server memory',
      );
      server.child.kill('SIGUSR2');
      return (await answer).benchMemory;
    },
    stop: () => server.stop(),
  };
}

export interface StreamClient {
  pid: number;
  open(): Promise<{ opened: number; failed: number; ms: number; errors: string[] }>;
  fire(
    round: number,
  ): Promise<{ round: number; delays: number[]; missing: number; commitMs: number }>;
  close(): Promise<void>;
}

/** Starts the bench's stream client (client.ts) in a process of its own. */
export function startClient(config: import('./client.ts').ClientConfig): StreamClient {
  const client = lineChild(['--import', 'tsx', CLIENT, JSON.stringify(config)], process.env, true);
  const answer = <T>(key: string, timeoutMs: number, what: string) =>
    client.next(
      (line) => {
        const error = jsonLine<{ error: string }>('error')(line);
        if (error) throw new Error(`stream client: ${error.error}`);
        return jsonLine<T>(key)(line);
      },
      timeoutMs,
      what,
    );
  return {
    pid: client.child.pid!,
    async open() {
      const opened = answer<Awaited<ReturnType<StreamClient['open']>>>(
        'opened',
        Math.max(120_000, config.streams * 20),
        'opening streams',
      );
      client.send({ open: true });
      return opened;
    },
    async fire(round) {
      const fired = answer<Awaited<ReturnType<StreamClient['fire']>>>(
        'delays',
        config.waitMs + 30_000,
        'a change',
      );
      client.send({ fire: round });
      return fired;
    },
    async close() {
      client.send({ close: true });
      client.child.stdin?.end();
      await client.stop(5_000);
    },
  };
}
