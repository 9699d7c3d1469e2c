import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isDatabaseReachable, type Db } from '../../db/database';

export const healthRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  // Liveness: the process answers; a supervisor restarts it when this stops answering. Never touches the database,
  // so a database outage does not get every server restarted at once.
  app.get(
    '/health/live',
    {
      config: { access: 'public', anyHost: true },
      schema: {
        tags: ['health'],
        operationId: 'getLiveness',
        summary: 'Liveness check',
        description: 'Answers 200 while the server process is up, whatever the database does. Needs no session.',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  // Readiness: the database answers, so a load balancer may send traffic here.
  app.get(
    '/health',
    {
      config: { access: 'public', anyHost: true },
      schema: {
        tags: ['health'],
        operationId: 'getHealth',
        summary: 'Health check (readiness)',
        description: 'Answers 200 when the database is reachable, 503 otherwise. Needs no session.',
        response: {
          200: z.object({ status: z.literal('ok') }),
          503: z.object({ status: z.literal('unavailable'), error: z.string() }),
        },
      },
    },
    async (_request, reply) => {
      if (await isDatabaseReachable(db)) return reply.send({ status: 'ok' as const });
      return reply.status(503).send({ status: 'unavailable' as const, error: 'The database is not reachable.' });
    },
  );
};
