/// <reference types="node" />
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Test helper: starts a real Skyport server on a fresh PostgreSQL database
 * (sync-server/src/sync/test-server.ts) and returns its URL, actors and control API.
 * Node only (PWA unit tests, browser tests, the sync bench).
 */

export interface TestActor {
  id: string | null;
  token: string | null;
  airlineId: string | null;
  email: string | null;
  password: string | null;
}

export interface TestServer {
  url: string;
  airlineId: string;
  flightIds: string[];
  actors: Record<
    | 'guest'
    | 'customer'
    | 'unverifiedCustomer'
    | 'airline'
    | 'otherAirline'
    | 'superAdmin'
    | 'pendingAirline'
    | 'disabledUser',
    TestActor
  >;
  /** Calls the server's /__test control API (JSON in, JSON out). */
  control<T = unknown>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
  stop(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
const syncServerDir = path.resolve(here, '../../../sync-server');

export async function startTestServer(
  options: { flights?: number; publicDir?: string; env?: Record<string, string> } = {},
): Promise<TestServer> {
  const args = ['src/sync/test-server.ts', '--flights', String(options.flights ?? 30)];
  if (options.publicDir) args.push('--public-dir', options.publicDir);
  const child: ChildProcessWithoutNullStreams = spawn(
    path.join(syncServerDir, 'node_modules/.bin/tsx'),
    args,
    {
      cwd: syncServerDir,
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const summary = await new Promise<Omit<TestServer, 'control' | 'stop'>>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const line = stdout.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line && stdout.includes('\n'))
        resolve(JSON.parse(line) as Omit<TestServer, 'control' | 'stop'>);
    });
    child.on('exit', (code) => reject(new Error(`test server exited (${code}): ${stderr}`)));
  });
  return {
    ...summary,
    async control<T>(method: 'GET' | 'POST', controlPath: string, body?: unknown): Promise<T> {
      const response = await fetch(`${summary.url}${controlPath}`, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (!response.ok) throw new Error(`${method} ${controlPath}: ${response.status}`);
      return (await response.json()) as T;
    },
    stop() {
      return new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
      });
    },
  };
}
