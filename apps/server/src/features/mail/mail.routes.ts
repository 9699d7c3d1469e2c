import { mailPreferencesSchema, mailPreferencesUpdateSchema, mailStatusResponseSchema } from '@tradecraft/shared';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { MailConfig } from '../../config';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { copyNotificationsTo } from '../notifications/notifications.service';
import { emailNoticesOf, setEmailNotices } from './mail.repository';
import { MailDelivery, mailStatus, noticeWriter } from './mail.service';

/**
 * Turns mail on when SMTP_URL is set (docs/operations.md, "Mail"): every notification inserted for someone who
 * asked for their notifications by mail puts a notice in the outbox, in the same transaction, and a sender
 * delivers the outbox from the moment the server is ready until it closes. Without SMTP_URL nothing is queued.
 */
export function registerMail(app: FastifyInstance, db: Db, config: MailConfig | null, publicOrigin: string): void {
  const delivery = config ? new MailDelivery(db, config, app.log) : null;
  app.decorate('mailDelivery', delivery);
  if (!config || !delivery) return;
  const write = noticeWriter(publicOrigin);
  const stopCopying = copyNotificationsTo(async (trx, recipientIds, input) => {
    if (await write(trx, recipientIds, input)) delivery.soon();
  });
  app.addHook('onReady', async () => delivery.start());
  app.addHook('onClose', async () => {
    stopCopying();
    await delivery.stop();
  });
}

/** `/api/mail`: each person's mail preferences, and how mail stands (admins). */
export const mailRoutes: FastifyPluginAsyncZod<{ db: Db; config: MailConfig | null }> = async (app, { db, config }) => {
  app.get(
    '/status',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['notifications'],
        operationId: 'getMailStatus',
        summary: 'How mail delivery stands',
        description:
          'Whether mail goes to an SMTP server (SMTP_URL), how many messages wait in the outbox, when the server ' +
          'last accepted one, and the latest error.',
        response: { 200: mailStatusResponseSchema },
      },
    },
    async () => mailStatus(db, config),
  );

  app.get(
    '/preferences',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['notifications'],
        operationId: 'getMailPreferences',
        summary: 'Your mail preferences',
        description: 'Whether you get your notifications by mail too, and whether this server can send mail at all.',
        response: { 200: mailPreferencesSchema },
      },
    },
    async (request) => ({
      configured: config !== null,
      emailNotices: await emailNoticesOf(db, currentUser(request).id),
    }),
  );

  app.put(
    '/preferences',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['notifications'],
        operationId: 'setMailPreferences',
        summary: 'Choose your mail preferences',
        description:
          '"Email me my notifications": every notification of the bell comes by mail too. Kept even while the ' +
          'server has no mail server; nothing is sent until it has one.',
        body: mailPreferencesUpdateSchema,
        response: { 200: mailPreferencesSchema },
      },
    },
    async (request) => {
      const userId = currentUser(request).id;
      await setEmailNotices(db, userId, request.body.emailNotices);
      return { configured: config !== null, emailNotices: await emailNoticesOf(db, userId) };
    },
  );
};

declare module 'fastify' {
  interface FastifyInstance {
    /** The mail sender, when SMTP_URL is set. */
    mailDelivery: MailDelivery | null;
  }
}
