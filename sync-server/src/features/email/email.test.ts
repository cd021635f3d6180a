import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp, identityDepsFromConfig } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createLogger } from '../../lib/logger.ts';
import { createTestDatabase } from '../../test/database.ts';
import { createTestApp, json, randomIp, bodyOf } from '../identity/testing.ts';
import { createOutboxMailer, createSmtpMailer, type Mailer } from './mailer.ts';
import {
  escapeHtml,
  passwordResetEmail,
  purchaseReceiptEmail,
  verificationEmail,
} from './templates.ts';

const { sql } = await createTestDatabase();

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

describe('SMTP adapter', () => {
  test('a registration sends the verification email to a real SMTP peer, with text and HTML parts', async () => {
    const { app, background } = createTestApp(sql, {
      mailer: smtpMailer,
      identity: { appOrigins: ['https://skyport.example'] },
    });
    const email = `smtp-${Date.now()}@example.test`;
    const response = await app.request(
      '/api/auth/register',
      json(
        'POST',
        {
          name: 'Zoë <script>',
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
    expect(response.status).toBe(400);

    const ok = await app.request(
      '/api/auth/register',
      json(
        'POST',
        {
          name: 'Zoë',
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
    const verify = await app.request('/api/auth/verify-email', json('POST', { token }));
    expect(verify.status).toBe(200);
  });

  test('SMTP_URL in the environment selects the SMTP adapter and turns the dev outbox off', () => {
    const withSmtp = identityDepsFromConfig(
      loadConfig({ SMTP_URL: `smtp://127.0.0.1:${smtpPort}` }),
      sql,
    );
    expect(withSmtp.mailer?.kind).toBe('smtp');
    expect(withSmtp.identity?.devOutbox).toBe(false);
    const without = identityDepsFromConfig(loadConfig({}), sql);
    expect(without.mailer?.kind).toBe('outbox');
    expect(without.identity?.devOutbox).toBe(true);
    const production = identityDepsFromConfig(
      loadConfig({
        NODE_ENV: 'production',
        ALLOW_TEST_PAYMENTS: 'true',
        APP_ORIGIN: 'https://skyport.example',
      }),
      sql,
    );
    expect(production.identity?.devOutbox).toBe(false);
    expect(production.identity?.appOrigins).toEqual(['https://skyport.example']);
    expect(() => loadConfig({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: 'true' })).toThrow(
      /APP_ORIGIN/,
    );
  });
});

describe('database outbox', () => {
  test('stores both parts, readable at GET /api/dev/outbox in development', async () => {
    const mailer = createOutboxMailer(sql);
    await mailer.send(
      verificationEmail('Outbox@Example.test', {
        name: 'Ana',
        link: 'http://localhost/verify-email?token=x',
        hours: 24,
      }),
    );
    const { app } = createTestApp(sql);
    const response = await app.request('/api/dev/outbox?to=outbox@example.test');
    expect(response.status).toBe(200);
    const [message] = await bodyOf(response);
    expect(message).toMatchObject({
      to: 'Outbox@Example.test',
      subject: 'Verify your email for Skyport',
    });
    expect(message.text).toContain('http://localhost/verify-email?token=x');
    expect(message.html).toContain('<a href="http://localhost/verify-email?token=x"');
    expect((await app.request('/api/dev/outbox?limit=1000')).status).toBe(400);
  });

  test('the outbox answers only to requests from this machine', async () => {
    const { app } = createTestApp(sql);
    const from = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } });
    expect((await app.request('/api/dev/outbox', {}, from('127.0.0.1'))).status).toBe(200);
    expect((await app.request('/api/dev/outbox', {}, from('::1'))).status).toBe(200);
    expect((await app.request('/api/dev/outbox', {}, from('192.168.1.20'))).status).toBe(404);
    expect((await app.request('/api/dev/outbox', {}, from('::ffff:10.0.0.7'))).status).toBe(404);
  });

  test('the outbox endpoint does not exist outside development mode', async () => {
    const app = createApp({ sql, logger: createLogger('silent'), identity: { devOutbox: false } });
    expect((await app.request('/api/dev/outbox')).status).toBe(404);
    const defaults = createApp({ sql, logger: createLogger('silent') });
    expect((await defaults.request('/api/dev/outbox')).status).toBe(404);
  });
});

describe('templates', () => {
  test('every value is escaped in the HTML part', () => {
    expect(escapeHtml(`<img src=x onerror="alert('x')">&`)).toBe(
      '&lt;img src=x onerror=&quot;alert(&#39;x&#39;)&quot;&gt;&amp;',
    );
    const mail = passwordResetEmail('a@b.test', {
      name: '<b>Eve</b>',
      link: 'https://s.test/reset-password?token=a"b',
      minutes: 60,
    });
    expect(mail.html).not.toContain('<b>Eve</b>');
    expect(mail.html).toContain('&lt;b&gt;Eve&lt;/b&gt;');
    expect(mail.html).not.toContain('token=a"b');
    expect(mail.text).toContain('expires in 60 minutes');
  });

  test('the purchase receipt lists the lines and totals in both parts', () => {
    const mail = purchaseReceiptEmail('c@b.test', {
      name: 'Ana',
      orderId: 'order-1',
      paymentId: 'pi_123',
      createdAt: new Date('2031-05-04T10:00:00Z'),
      lines: [
        {
          airlineName: 'Sky <Air>',
          origin: 'Chile',
          destination: 'Peru',
          amount: 2,
          unitPriceCents: 150000,
        },
        {
          airlineName: 'Andes',
          origin: 'Peru',
          destination: 'Chile',
          amount: 1,
          unitPriceCents: 99,
        },
      ],
      subtotalCents: 300099,
      feeCents: 300,
      totalCents: 300399,
      ordersLink: 'https://skyport.example/purchases',
    });
    expect(mail.subject).toBe('Your Skyport order order-1');
    expect(mail.text).toContain('Payment status: confirmed');
    expect(mail.text).toContain('- Sky <Air>: Chile -> Peru, 2 x $1500.00 = $3000.00');
    expect(mail.text).toContain('Total paid: $3003.99');
    expect(mail.html).toContain('Sky &lt;Air&gt;');
    expect(mail.html).toContain('$0.99');
    expect(mail.html).toContain('Total paid: $3003.99');
    expect(mail.html).toContain('2031-05-04');
  });
});
