import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailStatusResponse } from '@tradecraft/shared';
import { DeliveryLoop } from '../../plugins/delivery-loop';
import { nowIso } from '../../clock';
import type { MailConfig } from '../../config';
import type { Db, DbOrTrx } from '../../db/database';
import type { NotificationInput } from '../notifications/notifications.service';
import {
  claimMail,
  insertMails,
  listDueMails,
  mailFigures,
  mailRecipientsAmong,
  markMailFailed,
  markMailRejected,
  markMailSent,
  purgeSentMails,
  type MailRow,
} from './mail.repository';

// Mail (docs/operations.md, "Mail"): messages are written to the outbox in the transaction of what caused them,
// then sent here one by one, retried with backoff while the mail server is away, and never lost by a restart:
// the outbox is the only queue. Several server processes share it through leases.

/** How long a claimed message is this sender's before another process may take it (a crash mid-send). */
const LEASE_MS = 2 * 60_000;
/** The first retry waits this long; each failure doubles it, up to MAX_BACKOFF_MS. */
const FIRST_BACKOFF_MS = 30_000;
const MAX_BACKOFF_MS = 60 * 60_000;
const POLL_MS = 10_000;
const BATCH = 20;
const KEEP_SENT_MS = 7 * 24 * 60 * 60_000;
/** Where a person turns mail off (the List-Unsubscribe header and every notice's footer point here). */
export const SETTINGS_PATH = '/settings';

export function mailBackoffMs(attempts: number): number {
  return Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.max(0, attempts - 1));
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The address a notification's link opens, on PUBLIC_ORIGIN (its home page when it has no link). */
function linkOf(publicOrigin: string, link: string | null | undefined): string {
  return link?.startsWith('/') && !link.startsWith('//') ? `${publicOrigin}${link}` : `${publicOrigin}/`;
}

/** A notice: the notification's words, a link to it, and how to stop these mails. Text and HTML. */
export function renderNotice(publicOrigin: string, firstName: string, input: NotificationInput) {
  const link = linkOf(publicOrigin, input.link);
  const settings = `${publicOrigin}${SETTINGS_PATH}`;
  const subject = input.message.length > 120 ? `${input.message.slice(0, 119)}…` : input.message;
  const text = [
    `Hello ${firstName},`,
    '',
    input.message,
    '',
    `Open it in Tradecraft: ${link}`,
    '',
    '--',
    'You get this mail because you asked for your notifications by mail.',
    `To stop them, turn off "Email me my notifications" in Settings: ${settings}`,
    '',
  ].join('\n');
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
    `<p>Hello ${escapeHtml(firstName)},</p>`,
    `<p>${escapeHtml(input.message)}</p>`,
    `<p><a href="${escapeHtml(link)}">Open it in Tradecraft</a></p>`,
    '<hr>',
    '<p style="font-size: 0.9em; color: #555">You get this mail because you asked for your notifications by mail. ',
    `To stop them, turn off “Email me my notifications” in <a href="${escapeHtml(settings)}">Settings</a>.</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html, headers: { 'List-Unsubscribe': `<${settings}>` } };
}

/** The notification copier: a notice in the outbox for each recipient who asked for their notifications by mail. */
export function noticeWriter(publicOrigin: string) {
  return async (db: DbOrTrx, recipientIds: string[], input: NotificationInput): Promise<boolean> => {
    const recipients = await mailRecipientsAmong(db, recipientIds);
    const createdAt = nowIso();
    await insertMails(
      db,
      recipients.map((recipient) => {
        const notice = renderNotice(publicOrigin, recipient.first_name, input);
        return {
          id: randomUUID(),
          recipient: recipient.email,
          subject: notice.subject,
          text_body: notice.text,
          html_body: notice.html,
          headers: JSON.stringify(notice.headers),
          created_at: createdAt,
        };
      }),
    );
    return recipients.length > 0;
  };
}

/** Sends the outbox to the mail server. One per server process; several processes share the outbox by leases. */
export class MailDelivery {
  private readonly transport: Transporter;
  private readonly loop: DeliveryLoop;

  constructor(
    private readonly db: Db,
    private readonly config: MailConfig,
    private readonly log: FastifyBaseLogger,
  ) {
    // smtp:// upgrades with STARTTLS when the server offers it; smtps:// speaks TLS from the start.
    this.transport = nodemailer.createTransport(config.smtpUrl);
    const onError = (error: unknown) => this.log.error({ err: error }, 'mail delivery failed');
    this.loop = new DeliveryLoop((now) => this.deliverPass(now), onError, POLL_MS);
  }

  start(): void {
    this.loop.start();
  }

  /** New messages were written: send them shortly (after the transaction that wrote them has committed). */
  soon(): void {
    this.loop.soon();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    this.transport.close();
  }

  /**
   * Sends every message due by `now` until none is due or the mail server fails; returns how many this pass
   * delivered (plugins/delivery-loop.ts runs one pass at a time). Tests call it with a later `now` to step over a
   * backoff.
   */
  deliverDue(now: Date = new Date()): Promise<number> {
    return this.loop.deliverDue(now);
  }

  private async deliverPass(now: Date): Promise<number> {
    let delivered = 0;
    for (;;) {
      const due = await listDueMails(this.db, now.toISOString(), BATCH);
      if (due.length === 0) break;
      let failed = false;
      for (const row of due) {
        if (!(await claimMail(this.db, row, new Date(now.getTime() + LEASE_MS).toISOString()))) continue;
        const outcome = await this.send(row, now);
        if (outcome === 'sent') delivered += 1;
        if (outcome === 'failed') {
          failed = true;
          break;
        }
      }
      if (failed) break;
    }
    await purgeSentMails(this.db, new Date(now.getTime() - KEEP_SENT_MS).toISOString());
    return delivered;
  }

  private async send(row: MailRow, now: Date): Promise<'sent' | 'refused' | 'failed'> {
    try {
      await this.transport.sendMail({
        from: this.config.from,
        to: row.recipient,
        subject: row.subject,
        text: row.text_body,
        html: row.html_body,
        headers: JSON.parse(row.headers) as Record<string, string>,
      });
    } catch (error) {
      const at = nowIso();
      const { responseCode, code, message } = error as { responseCode?: number; code?: string; message: string };
      const reason = responseCode
        ? `The mail server answered ${responseCode}: ${message}`
        : `The mail server could not be reached (${code ?? message}).`;
      if (responseCode !== undefined && responseCode >= 500) {
        this.log.warn({ mailId: row.id, reason }, 'the mail server refused a message');
        await markMailRejected(this.db, row.id, { message: reason.slice(0, 500), at });
        return 'refused';
      }
      this.log.warn({ mailId: row.id, reason }, 'a mail could not be sent');
      const attempts = row.attempts + 1;
      await markMailFailed(this.db, row.id, attempts, new Date(now.getTime() + mailBackoffMs(attempts)).toISOString(), {
        message: reason.slice(0, 500),
        at,
      });
      return 'failed';
    }
    await markMailSent(this.db, row.id, nowIso());
    return 'sent';
  }
}

/** The mail server's host and port, never its credentials. */
function serverOf(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  return `${url.protocol}//${url.host}`;
}

export async function mailStatus(db: Db, config: MailConfig | null): Promise<MailStatusResponse> {
  if (!config) return { enabled: false, server: null, backlog: 0, lastDeliveredAt: null, lastError: null };
  return { enabled: true, server: serverOf(config.smtpUrl), ...(await mailFigures(db)) };
}
