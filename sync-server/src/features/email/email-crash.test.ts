import { spawn, type ChildProcess } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, expect, test } from 'vitest';
import { createTestDatabase } from '../../test/database.ts';
import { freePort } from '../../test/free-port.ts';

/**
 * Issue 38, part 4: an email survives the death of the server that was sending it. The server is
 * a real process (main.ts) on a database of its own, mailing through a real SMTP peer that holds
 * the first message's DATA. The server is killed (SIGKILL: no shutdown, no release of the job)
 * while the peer holds the message; then the peer answers it, a new server process starts on the
 * same database, and the job queue delivers the email again once the dead runner's heartbeat is
 * stale (lib/job-queue.ts).
 *
 * How many copies: the killed process never saw an answer, so its job was not completed and runs
 * again: the new process delivers a copy. The peer also answered the held message (to a client
 * already gone); a mail server that keeps a message whose client left before the answer makes that
 * a second copy, which at-least-once delivery allows. So: at least one, at most two, and the one
 * from the new process is always there.
 */

const { url: databaseUrl } = await createTestDatabase();
const children: ChildProcess[] = [];
afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Delivery {
  to: string[];
  subject: string;
  /** Which server process's connection carried it (1 = the killed one). */
  connectionOf: number;
}

test('the server killed while an email is being sent: the email is delivered after the restart', async () => {
  const deliveries: Delivery[] = [];
  let serverGeneration = 1;
  let holdFirst: (() => void) | undefined;
  const firstHeld = new Promise<void>((resolve) => (holdFirst = resolve));
  let releaseFirst!: () => void;
  const released = new Promise<void>((resolve) => (releaseFirst = resolve));

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const generation = serverGeneration;
      simpleParser(stream)
        .then(async (mail) => {
          if (holdFirst) {
            // The first message: read whole, answered only once the test says so.
            const held = holdFirst;
            holdFirst = undefined;
            held();
            await released;
          }
          deliveries.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            subject: mail.subject ?? '',
            connectionOf: generation,
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;

  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const startServer = async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      env: {
        ...process.env,
        NODE_ENV: 'development',
        DATABASE_URL: databaseUrl,
        PORT: String(port),
        HOST: '127.0.0.1',
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        MAIL_FROM: 'Skyport <no-reply@skyport.test>',
        SEED_DEMO: 'never',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        DATABASE_POOL_MAX: '4',
        DATABASE_SYNC_POOL_MAX: '2',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
      const ready = await fetch(`${origin}/api/health/ready`).then(
        (r) => r.ok,
        () => false,
      );
      if (ready) return child;
      if (Date.now() > deadline) throw new Error(`server not ready:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  try {
    const first = await startServer();
    const email = `crash-${Date.now()}@example.test`;
    const registered = await fetch(`${origin}/api/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Origin: origin },
      body: JSON.stringify({
        name: 'Ada',
        lastName: 'Tester',
        image: 'https://images.test/face.png',
        email,
        phone: '1234567890',
        password: 'Secret1!',
        confirmPassword: 'Secret1!',
      }),
    });
    expect(registered.status).toBe(202);

    // The peer holds the message: the server is killed mid-send, then the peer answers.
    await firstHeld;
    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;
    releaseFirst();

    serverGeneration = 2;
    await startServer();
    const deadline = Date.now() + 75_000;
    while (!deliveries.some((d) => d.connectionOf === 2) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // Give a wrong extra copy time to show up.
    await new Promise((resolve) => setTimeout(resolve, 3_000));

    const copies = deliveries.filter((d) => d.to.includes(email));
    expect(copies.every((d) => d.subject === 'Verify your email for Skyport')).toBe(true);
    expect(copies.filter((d) => d.connectionOf === 2)).toHaveLength(1);
    expect(copies.length).toBeGreaterThanOrEqual(1);
    expect(copies.length).toBeLessThanOrEqual(2);
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
}, 150_000);
