import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

export interface ChildServer {
  baseUrl: string;
  stop(): Promise<void>;
}

/** Printed by a server script on stdout once it listens: `{"ready":<port>}` on a line of its own. */
export function announceReady(port: number): void {
  process.stdout.write(`${JSON.stringify({ ready: port })}\n`);
}

/**
 * Starts a TypeScript server script in its own Node process (so that the load generator and the
 * server do not share an event loop) and resolves once it announces its port.
 */
export async function startChildServer(
  script: string,
  args: readonly string[],
  timeoutMs = 60_000,
): Promise<ChildServer> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: process.env,
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${script} did not start within ${timeoutMs} ms`)),
      timeoutMs,
    );
    child.once('exit', (code) =>
      reject(new Error(`${script} exited with ${code} before it was ready`)),
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const message = JSON.parse(line) as { ready?: number };
        if (typeof message.ready === 'number') {
          clearTimeout(timer);
          resolve(message.ready);
        }
      } catch {
        // Not a control line.
      }
    });
  });
  return { baseUrl: `http://127.0.0.1:${port}`, stop: () => stopChild(child) };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Runs a TypeScript script in its own Node process with `input` on its standard input, calling
 * `onMessage` with every JSON line it prints; resolves when it exits with 0.
 */
export function runScript(
  script: string,
  input: string,
  onMessage: (message: Record<string, unknown>) => void,
): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: process.env,
  });
  createInterface({ input: child.stdout! }).on('line', (line) => {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      return; // Not a control line.
    }
    if (message && typeof message === 'object') onMessage(message as Record<string, unknown>);
  });
  child.stdin!.end(input);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    // 'close', not 'exit': every line of its output has been read by then.
    child.once('close', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${script} exited with ${code ?? signal}`)),
    );
  });
}
