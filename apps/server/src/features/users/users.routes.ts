import {
  approveUserInputSchema,
  okSchema,
  pendingUserSchema,
  sessionUserSchema,
  userIdParamsSchema,
} from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { currentUser } from '../auth/access';
import { listPendingUsers, toSessionUser } from './users.repository';
import { approveUser, rejectUser } from './users.service';

export const usersRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/pending',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        summary: 'Accounts awaiting approval, oldest first',
        response: { 200: z.object({ users: z.array(pendingUserSchema) }) },
      },
    },
    async () => ({ users: await listPendingUsers(db) }),
  );

  app.post(
    '/:id/approve',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        summary: 'Approve a pending account as student or admin',
        params: userIdParamsSchema,
        body: approveUserInputSchema,
        response: { 200: z.object({ user: sessionUserSchema }) },
      },
    },
    async (request) => ({
      user: toSessionUser(await approveUser(db, currentUser(request), request.params.id, request.body)),
    }),
  );

  app.delete(
    '/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        summary: 'Reject a pending registration (deletes it)',
        params: userIdParamsSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await rejectUser(db, currentUser(request), request.params.id);
      return { ok: true as const };
    },
  );
};
