import nodemailer from 'nodemailer';
import type postgres from 'postgres';
import type { Sql } from '../../db/client.ts';
import type { Jobs } from '../../lib/job-queue.ts';

/** One message with a plain-text and an HTML part. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Where email goes: an SMTP server, or the database outbox that developers read. */
export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  /**
   * Delivers `mail`; the queued mailer (`createQueuedMailer`) enqueues it instead, in `db` (a
   * transaction) when given, so that the mail commits with the data that caused it.
   */
  send(mail: OutgoingMail, options?: { db?: Sql | postgres.TransactionSql }): Promise<void>;
  close(): Promise<void>;
}

/** The job that delivers one message through the instance's mailer. */
export const EMAIL_TASK = 'email';

/**
 * The mailer the features use: `send` enqueues an `email` job (lib/job-queue.ts), which the job
 * runner delivers through `mailer`, retried with backoff when the mail server fails. Delivery is
 * at least once: a crash between the mail server's answer and the job's completion sends it again.
 */
export function createQueuedMailer(jobs: Jobs, mailer: Mailer): Mailer {
  jobs.define<OutgoingMail>(EMAIL_TASK, (mail) => mailer.send(mail), {
    retryLimit: 8,
    retryDelaySeconds: 5,
    retryDelayMaxSeconds: 15 * 60,
    expireInSeconds: 120,
  });
  return {
    kind: mailer.kind,
    send: (mail, options) => jobs.send(EMAIL_TASK, mail, options),
    close: () => mailer.close(),
  };
}

/** A message as the development console shows it: who, what, and its text with the links. */
export function formatMailForConsole(mail: OutgoingMail): string {
  const rule = '-'.repeat(72);
  return `\n${rule}\nEmail to ${mail.to}: ${mail.subject}\n\n${mail.text.trim()}\n${rule}\n`;
}

/** The app's mailer: the one configured, else the database outbox (for features that send mail). */
export function resolveMailer(deps: { sql: Sql; mailer?: Mailer }): Mailer {
  return deps.mailer ?? createOutboxMailer(deps.sql);
}

/**
 * The default without SMTP: messages are stored in `email_outbox`, which a super administrator
 * reads at GET /api/admin/outbox. `print` (development: the server's console) also receives each
 * message, so a developer can follow a verification or reset link without an account.
 */
export function createOutboxMailer(
  sql: Sql,
  options: { print?: (mail: OutgoingMail) => void } = {},
): Mailer {
  return {
    kind: 'outbox',
    async send(mail) {
      await sql`
        INSERT INTO email_outbox (to_address, subject, text_body, html_body)
        VALUES (${mail.to}, ${mail.subject}, ${mail.text}, ${mail.html})`;
      options.print?.(mail);
    },
    async close() {},
  };
}

/**
 * SMTP through nodemailer. `url` is nodemailer's connection URL, e.g.
 * `smtps://user:pass@smtp.example.com:465` or `smtp://localhost:2525`.
 */
export function createSmtpMailer(options: { url: string; from: string }): Mailer {
  const transport = nodemailer.createTransport(options.url);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({
        from: options.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    },
    async close() {
      transport.close();
    },
  };
}
