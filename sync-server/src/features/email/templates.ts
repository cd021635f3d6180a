import { formatCents } from '@skyport/shared';
import type { OutgoingMail } from './mailer.ts';

/**
 * Skyport's emails, each with a plain-text and an HTML part. Every value put into the HTML is
 * escaped; links are built by the server from its own public URL.
 */

/** Security: escapes the five HTML-significant characters of any value put into a message. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function layout(title: string, bodyHtml: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="font-family:system-ui,sans-serif;background:#f4f6fb;margin:0;padding:24px">
<div style="max-width:560px;margin:auto;background:#fff;border-radius:12px;padding:24px">
<h1 style="font-size:20px;margin-top:0">Skyport</h1>
${bodyHtml}
<p style="color:#6b7280;font-size:12px;margin-top:32px">You receive this email because of an action on your Skyport account.</p>
</div></body></html>`;
}

function button(href: string, label: string): string {
  return `<p><a href="${escapeHtml(href)}" style="display:inline-block;background:#2563eb;color:#fff;padding:10px 16px;border-radius:8px;text-decoration:none">${escapeHtml(label)}</a></p>
<p style="font-size:12px;color:#6b7280">Or open this link: ${escapeHtml(href)}</p>`;
}

function greeting(name: string | null): string {
  return name ? `Hello ${name},` : 'Hello,';
}

export function verificationEmail(
  to: string,
  input: { name: string | null; link: string; hours: number },
): OutgoingMail {
  const subject = 'Verify your email for Skyport';
  return {
    to,
    subject,
    text: `${greeting(input.name)}

Please confirm that this is your email address by opening this link:

${input.link}

The link works once and expires in ${input.hours} hours. If you did not create a Skyport account, ignore this email.
`,
    html: layout(
      subject,
      `<p>${escapeHtml(greeting(input.name))}</p>
<p>Please confirm that this is your email address.</p>
${button(input.link, 'Verify my email')}
<p>The link works once and expires in ${input.hours} hours. If you did not create a Skyport account, ignore this email.</p>`,
    ),
  };
}

export function passwordResetEmail(
  to: string,
  input: { name: string | null; link: string; minutes: number },
): OutgoingMail {
  const subject = 'Reset your Skyport password';
  return {
    to,
    subject,
    text: `${greeting(input.name)}

Someone asked to reset the password of your Skyport account. To choose a new password, open this link:

${input.link}

The link works once and expires in ${input.minutes} minutes. If you did not ask for it, ignore this email: your password stays as it is.
`,
    html: layout(
      subject,
      `<p>${escapeHtml(greeting(input.name))}</p>
<p>Someone asked to reset the password of your Skyport account.</p>
${button(input.link, 'Choose a new password')}
<p>The link works once and expires in ${input.minutes} minutes. If you did not ask for it, ignore this email: your password stays as it is.</p>`,
    ),
  };
}

/** Sent instead of a second account when someone registers with an address that already has one. */
export function accountExistsEmail(
  to: string,
  input: { name: string | null; loginLink: string },
): OutgoingMail {
  const subject = 'Your Skyport account';
  return {
    to,
    subject,
    text: `${greeting(input.name)}

Someone tried to create a Skyport account with this email address, which already has an account. If it was you, log in at ${input.loginLink} or use "Forgot your password" there. Otherwise, ignore this email.
`,
    html: layout(
      subject,
      `<p>${escapeHtml(greeting(input.name))}</p>
<p>Someone tried to create a Skyport account with this email address, which already has an account. If it was you, log in or use "Forgot your password". Otherwise, ignore this email.</p>
${button(input.loginLink, 'Log in')}`,
    ),
  };
}

export interface ReceiptLine {
  airlineName: string;
  origin: string;
  destination: string;
  amount: number;
  unitPriceCents: number;
}

export interface Receipt {
  name: string | null;
  orderId: string;
  paymentId: string;
  createdAt: Date;
  lines: readonly ReceiptLine[];
  subtotalCents: number;
  feeCents: number;
  totalCents: number;
  ordersLink: string;
}

/** The purchase receipt sent after a captured payment. */
export function purchaseReceiptEmail(to: string, receipt: Receipt): OutgoingMail {
  const subject = `Your Skyport order ${receipt.orderId}`;
  const money = (cents: number) => `$${formatCents(cents)}`;
  const date = receipt.createdAt.toISOString().slice(0, 10);
  const textLines = receipt.lines
    .map(
      (line) =>
        `- ${line.airlineName}: ${line.origin} -> ${line.destination}, ${line.amount} x ${money(line.unitPriceCents)} = ${money(line.amount * line.unitPriceCents)}`,
    )
    .join('\n');
  const rows = receipt.lines
    .map(
      (line) =>
        `<tr><td>${escapeHtml(line.airlineName)}</td><td>${escapeHtml(line.origin)} → ${escapeHtml(line.destination)}</td>` +
        `<td style="text-align:right">${line.amount}</td><td style="text-align:right">${money(line.unitPriceCents)}</td>` +
        `<td style="text-align:right">${money(line.amount * line.unitPriceCents)}</td></tr>`,
    )
    .join('\n');
  return {
    to,
    subject,
    text: `${greeting(receipt.name)}

Thank you for your purchase. Payment status: confirmed.

Order: ${receipt.orderId}
Purchase id: ${receipt.paymentId}
Date: ${date}

${textLines}

Subtotal: ${money(receipt.subtotalCents)}
Fee: ${money(receipt.feeCents)}
Total paid: ${money(receipt.totalCents)}

Your orders: ${receipt.ordersLink}
`,
    html: layout(
      subject,
      `<p>${escapeHtml(greeting(receipt.name))}</p>
<p>Thank you for your purchase. Payment status: confirmed.</p>
<p>Order: ${escapeHtml(receipt.orderId)}<br>Purchase id: ${escapeHtml(receipt.paymentId)}<br>Date: ${date}</p>
<table style="width:100%;border-collapse:collapse" cellpadding="4">
<thead><tr><th align="left">Airline</th><th align="left">Flight</th><th>Amount</th><th>Value</th><th>Total</th></tr></thead>
<tbody>
${rows}
</tbody></table>
<p>Subtotal: ${money(receipt.subtotalCents)}<br>Fee: ${money(receipt.feeCents)}<br><strong>Total paid: ${money(receipt.totalCents)}</strong></p>
${button(receipt.ordersLink, 'See your orders')}`,
    ),
  };
}
