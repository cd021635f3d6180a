import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { identityDepsFromConfig } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { insertSignedInUser } from '../../test/actors.ts';
import {
  bodyOf,
  createTestApp,
  createTestHarness,
  jsonRequest,
  randomIp,
} from '../../test/harness.ts';
import {
  createOutboxMailer,
  createSmtpMailer,
  formatMailForConsole,
  type Mailer,
} from './mailer.ts';
import { verificationEmail } from './templates.ts';

const { sql, app } = await createTestHarness();

/** A real SMTP server on localhost that keeps every message it accepts, parsed. */
let smtp: SMTPServer;
let smtpPort = 0;
const received: { envelopeTo: string[]; mail: ParsedMail }[] = [];
let smtpMailer: Mailer;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  smtpMailer = createSmtpMailer({
    url: `smtp://127.0.0.1:${smtpPort}`,
    from: 'Skyport <no-reply@skyport.test>',
  });
});

afterAll(async () => {
  await smtpMailer.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

/** Production settings: the environment a production start must have, and the public origin. */
const PRODUCTION = {
  NODE_ENV: 'production',
  DATABASE_URL: 'postgres://db.example/skyport',
  ALLOW_TEST_PAYMENTS: 'true',
  APP_ORIGIN: 'https://skyport.example',
};

describe('SMTP adapter', () => {
  test('a registration sends the verification email to a real SMTP peer, with text and HTML parts', async () => {
    const { app, background } = createTestApp(sql, {
      mailer: smtpMailer,
      identity: { appOrigins: ['https://skyport.example'] },
    });
    const email = `smtp-${Date.now()}@example.test`;
    const register = (name: string) =>
      app.request(
        '/api/auth/register',
        jsonRequest(
          'POST',
          {
            name,
            lastName: 'Tester',
            image: 'https://images.test/face.png',
            email,
            phone: '1234567890',
            password: 'Secret1!',
            confirmPassword: 'Secret1!',
          },
          { 'X-Forwarded-For': randomIp() },
        ),
      );
    // "<script>" is not a valid name: the rule refuses it before anything is sent.
    expect((await register('Zoë <script>')).status).toBe(400);

    const ok = await register('Zoë');
    expect(ok.status).toBe(202);
    await background.settled();

    const message = received.find((m) => m.envelopeTo.includes(email));
    expect(message).toBeDefined();
    const mail = message!.mail;
    expect(mail.subject).toBe('Verify your email for Skyport');
    expect(mail.from?.text).toContain('no-reply@skyport.test');
    expect(mail.text).toMatch(/https:\/\/skyport\.example\/verify-email\?token=[A-Za-z0-9_-]{43}/);
    expect(mail.html).toBeTruthy();
    expect(mail.html).toContain('href="https://skyport.example/verify-email?token=');
    expect(mail.html).toContain('Zoë');
    // Nothing went to the database outbox.
    expect(await sql`SELECT 1 FROM email_outbox WHERE to_address = ${email}`).toHaveLength(0);

    // The emailed token verifies the account.
    const token = /token=([A-Za-z0-9_-]{43})/.exec(mail.text ?? '')![1];
    const verify = await app.request('/api/auth/verify-email', jsonRequest('POST', { token }));
    expect(verify.status).toBe(200);
  });

  test('SMTP_URL in the environment selects the SMTP adapter', () => {
    const withSmtp = identityDepsFromConfig(
      loadConfig({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}` }),
      sql,
    );
    expect(withSmtp.mailer?.kind).toBe('smtp');
    const without = identityDepsFromConfig(loadConfig({}), sql);
    expect(without.mailer?.kind).toBe('outbox');
    const production = identityDepsFromConfig(loadConfig(PRODUCTION), sql);
    expect(production.identity?.appOrigins).toEqual(['https://skyport.example']);
    expect(() => loadConfig({ ...PRODUCTION, APP_ORIGIN: undefined })).toThrow(/APP_ORIGIN/);
  });
});

describe('database outbox', () => {
  const outboxMail = () =>
    verificationEmail('Outbox@Example.test', {
      name: 'Ana',
      link: 'http://localhost/verify-email?token=x',
      hours: 24,
    });

  test('stores both parts, readable by a super administrator at GET /api/admin/outbox', async () => {
    await createOutboxMailer(sql).send(outboxMail());
    const admin = await insertSignedInUser(sql, { role: 'super_admin', sessionTtlSeconds: 600 });
    const asAdmin = { headers: admin.headers };
    const response = await app.request('/api/admin/outbox?to=outbox@example.test', asAdmin);
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const [message] = await bodyOf(response);
    expect(message).toMatchObject({
      to: 'Outbox@Example.test',
      subject: 'Verify your email for Skyport',
    });
    expect(message.text).toContain('http://localhost/verify-email?token=x');
    expect(message.html).toContain('<a href="http://localhost/verify-email?token=x"');
    expect((await app.request('/api/admin/outbox?limit=1000', asAdmin)).status).toBe(400);
  });

  test('no request without a super administrator session reads it, from any address or proxy', async () => {
    await createOutboxMailer(sql).send(outboxMail());
    const customer = await insertSignedInUser(sql, { sessionTtlSeconds: 600 });
    const loopback = { incoming: { socket: { remoteAddress: '127.0.0.1' } } };
    const attempts: [string, RequestInit][] = [
      ['/api/admin/outbox', {}],
      ['/api/admin/outbox', { headers: { 'X-Forwarded-For': '127.0.0.1' } }],
      ['/api/admin/outbox', { headers: { Authorization: `Bearer ${customer.token}` } }],
      // The route that used to trust a loopback socket is gone.
      ['/api/dev/outbox?to=outbox@example.test', {}],
      ['/api/dev/outbox', { headers: { 'X-Forwarded-For': '127.0.0.1' } }],
    ];
    for (const [path, init] of attempts) {
      const response = await app.request(path, init, loopback);
      expect([401, 403, 404]).toContain(response.status);
      expect(await response.text()).not.toContain('token=');
    }
  });

  test('in development the outbox also prints each message, links included, to the console', async () => {
    const printed: string[] = [];
    const mailer = createOutboxMailer(sql, {
      print: (mail) => printed.push(formatMailForConsole(mail)),
    });
    await mailer.send(outboxMail());
    expect(printed).toHaveLength(1);
    expect(printed[0]).toContain('Email to Outbox@Example.test: Verify your email for Skyport');
    expect(printed[0]).toContain('http://localhost/verify-email?token=x');
    const development = identityDepsFromConfig(loadConfig({}), sql);
    const production = identityDepsFromConfig(loadConfig(PRODUCTION), sql);
    expect(development.mailer?.kind).toBe('outbox');
    expect(production.mailer?.kind).toBe('outbox');
  });
});
