import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isDatabaseReachable, type Db } from '../../db/database';

export const healthRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/health',
    {
      config: { access: 'public', anyHost: true },
      schema: {
        tags: ['health'],
        summary: 'Answers 200 when the database is reachable, 503 otherwise',
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
