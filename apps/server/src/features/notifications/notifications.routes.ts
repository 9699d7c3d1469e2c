import type { OutgoingHttpHeaders } from 'node:http';
import { notificationListSchema, okSchema } from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { NotificationHub, registerHub, unregisterHub } from './notifications.hub';
import { isSessionLive } from './notifications.repository';
import { markNotificationsRead, notificationsOf } from './notifications.service';

/** Proxies drop connections that stay silent for about a minute; a comment line every 25 s keeps it open. */
export const HEARTBEAT_MS = 25_000;
/** Open streams one session may hold (a few tabs); opening another closes the oldest. */
export const STREAMS_PER_SESSION = 3;

export interface NotificationsRoutesOptions {
  db: Db;
  heartbeatMs?: number;
}

export const notificationsRoutes: FastifyPluginAsyncZod<NotificationsRoutesOptions> = async (
  app,
  { db, heartbeatMs = HEARTBEAT_MS },
) => {
  const hub = new NotificationHub(app.dialect === 'postgres' ? app.config.databaseUrl : undefined, app.log);
  await hub.start();
  registerHub(db, hub);
  const openStreams = new Set<() => void>();
  /** This process's open streams per session, oldest first. */
  const streamsBySession = new Map<string, (() => void)[]>();

  // Streams never finish on their own, so end them before the server waits for requests in flight.
  app.addHook('preClose', async () => {
    for (const end of [...openStreams]) end();
  });
  app.addHook('onClose', async () => {
    unregisterHub(db, hub);
    await hub.close();
  });

  app.get(
    '',
    {
      config: { access: 'signedIn', beforeSecondFactor: true },
      schema: {
        tags: ['notifications'],
        operationId: 'listNotifications',
        summary: 'Your notifications',
        description: "The signed-in user's newest notifications, newest first, and the unread count.",
        response: { 200: notificationListSchema },
      },
    },
    async (request) => notificationsOf(db, currentUser(request).id),
  );

  app.post(
    '/read',
    {
      config: { access: 'signedIn', beforeSecondFactor: true },
      schema: {
        tags: ['notifications'],
        operationId: 'markNotificationsRead',
        summary: 'Mark notifications read',
        description: "Marks all of the signed-in user's notifications read.",
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await markNotificationsRead(db, currentUser(request).id);
      return { ok: true as const };
    },
  );

  app.get(
    '/stream',
    {
      config: { access: 'signedIn', beforeSecondFactor: true },
      schema: {
        tags: ['notifications'],
        operationId: 'streamNotifications',
        summary: 'Stream new notifications',
        description:
          'Server-Sent Events: `ready` once, then a `notification` event whenever the user gets one (then fetch the ' +
          'list), and a comment line every 25 s. The stream ends when the session does.',
        response: {
          200: {
            description: 'An endless text/event-stream.',
            content: { 'text/event-stream': { schema: z.string() } },
          },
        },
      },
    },
    (request, reply) => {
      const user = currentUser(request);
      const sessionId = request.sessionId;
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        ...(reply.getHeaders() as OutgoingHttpHeaders),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no', // nginx: do not buffer the stream
      });
      const send = (text: string) => {
        if (!raw.writableEnded && !raw.destroyed) raw.write(text);
      };
      send('retry: 5000\n\nevent: ready\ndata: {}\n\n');

      const unsubscribe = hub.subscribe(user.id, () => send('event: notification\ndata: {}\n\n'));
      // A signed-out, disabled or locked user's stream ends as soon as the hub says a session of theirs ended,
      // and at the latest at the next beat.
      const checkSession = async () => {
        const live = sessionId !== null && (await isSessionLive(db, sessionId).catch(() => true));
        if (!live) end();
        return live;
      };
      const unwatch = hub.watchSessions(user.id, () => void checkSession());
      const heartbeat = setInterval(() => {
        void checkSession().then((live) => {
          if (live) send(': heartbeat\n\n');
        });
      }, heartbeatMs);
      heartbeat.unref();

      function end() {
        if (!openStreams.delete(end)) return;
        clearInterval(heartbeat);
        unsubscribe();
        unwatch();
        const sessionStreams = sessionId === null ? undefined : streamsBySession.get(sessionId);
        if (sessionStreams) {
          sessionStreams.splice(sessionStreams.indexOf(end), 1);
          if (sessionStreams.length === 0) streamsBySession.delete(sessionId!);
        }
        if (!raw.writableEnded) raw.end();
      }
      openStreams.add(end);
      if (sessionId !== null) {
        const sessionStreams = streamsBySession.get(sessionId) ?? [];
        sessionStreams.push(end);
        streamsBySession.set(sessionId, sessionStreams);
        while (sessionStreams.length > STREAMS_PER_SESSION) sessionStreams[0]!();
      }
      // The response's 'close' is the connection going away (the request's fires once its body is read).
      raw.on('close', end);
    },
  );
};
