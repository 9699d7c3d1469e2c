import { difficultySchema, secondFactorPolicySchema } from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import {
  getPlatformDifficulty,
  getSecondFactorPolicy,
  setPlatformDifficulty,
  setSecondFactorPolicy,
} from './settings.service';

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

  app.get(
    '/second-factor-policy',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['settings'],
        operationId: 'getSecondFactorPolicy',
        summary: 'Who must use a second factor',
        description: "'off' (the default: each person decides), 'admins' or 'everyone'.",
        response: { 200: secondFactorPolicySchema },
      },
    },
    async () => ({ policy: await getSecondFactorPolicy(db) }),
  );

  app.put(
    '/second-factor-policy',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['settings'],
        operationId: 'setSecondFactorPolicy',
        summary: 'Set who must use a second factor',
        description:
          'Requires a second factor at sign-in for admins or for everyone, or for no one (audited). People it applies ' +
          'to who have none are asked to enrol one right after signing in.',
        body: secondFactorPolicySchema,
        response: { 200: secondFactorPolicySchema },
      },
    },
    async (request) => ({ policy: await setSecondFactorPolicy(db, currentUser(request), request.body.policy) }),
  );
};
