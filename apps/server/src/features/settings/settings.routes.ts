import { difficultySchema } from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { getPlatformDifficulty, setPlatformDifficulty } from './settings.service';

export const settingsRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/difficulty',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['settings'],
        operationId: 'getPlatformDifficulty',
        summary: 'The platform difficulty',
        description:
          'The platform difficulty (1 to 5, default 3); the scenario picker recommends scenarios of this difficulty.',
        response: { 200: difficultySchema },
      },
    },
    async () => ({ difficulty: await getPlatformDifficulty(db) }),
  );

  app.put(
    '/difficulty',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['settings'],
        operationId: 'setPlatformDifficulty',
        summary: 'Set the platform difficulty',
        description: 'Sets the difficulty the scenario picker recommends, for everyone (audited).',
        body: difficultySchema,
        response: { 200: difficultySchema },
      },
    },
    async (request) => ({
      difficulty: await setPlatformDifficulty(db, currentUser(request), request.body.difficulty),
    }),
  );
};
