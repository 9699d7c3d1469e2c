import {
  difficultySchema,
  dismissSetupItemInputSchema,
  secondFactorPolicySchema,
  setupChecklistSchema,
} from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import {
  dismissSetupItem,
  getPlatformDifficulty,
  getSecondFactorPolicy,
  setPlatformDifficulty,
  setSecondFactorPolicy,
  setupChecklist,
} from './settings.service';

export const settingsRoutes: FastifyPluginAsyncZod<{
  db: Db;
  publicOriginSet: boolean;
  repositoryUrl: string;
  operatorAdminEmail?: string | null;
}> = async (app, { db, publicOriginSet, repositoryUrl, operatorAdminEmail = null }) => {
  app.get(
    '/setup-checklist',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['settings'],
        operationId: 'getSetupChecklist',
        summary: 'The setup checklist',
        description:
          "The admin dashboard's first steps, each done or dismissed: your password changed, PUBLIC_ORIGIN set, a " +
          'trainee approved, the platform difficulty chosen, a scenario of your own uploaded.',
        response: { 200: setupChecklistSchema },
      },
    },
    async (request) => setupChecklist(db, currentUser(request), { publicOriginSet, repositoryUrl, operatorAdminEmail }),
  );

  app.post(
    '/setup-checklist/dismiss',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['settings'],
        operationId: 'dismissSetupItem',
        summary: 'Dismiss a setup step',
        description: 'Hides one step of the setup checklist for every admin (audited); answers the whole checklist.',
        body: dismissSetupItemInputSchema,
        response: { 200: setupChecklistSchema },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      await dismissSetupItem(db, admin, request.body.item);
      return setupChecklist(db, admin, { publicOriginSet, repositoryUrl, operatorAdminEmail });
    },
  );

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
      config: { access: 'admin', beforeSecondFactor: true },
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
