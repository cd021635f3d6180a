import nodemailer from 'nodemailer';
import type { Sql } from '../../db/client.ts';

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
  send(mail: OutgoingMail): Promise<void>;
  close(): Promise<void>;
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
