import {
  approveUserInputSchema,
  dashboardStatsSchema,
  managedUserSchema,
  okSchema,
  pendingUserSchema,
  sessionUserSchema,
  startOfLocalDay,
  startOfLocalWeek,
  timeZoneQuerySchema,
  updateUserInputSchema,
  userIdParamsSchema,
  usersListQuerySchema,
  usersPageSchema,
  userStatsSchema,
} from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { API_TOKEN_MESSAGES, currentUser, refuseApiToken } from '../../plugins/access';
import { errorResponses } from '../../plugins/docs';
import { toSessionUser } from './session-user';
import { dashboardCounts, listManagedUsers, listPendingUsers, toManagedUser, userStats } from './users.repository';
import { approveUser, endUserSessions, rejectUser, updateUser } from './users.service';

export const usersRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        operationId: 'listUsers',
        summary: 'List users',
        description:
          'Manage Users: search, filter, sort and page the approved accounts (`role=pending` lists registrations).',
        querystring: usersListQuerySchema,
        response: { 200: usersPageSchema },
      },
    },
    async (request) => listManagedUsers(db, request.query),
  );

  app.get(
    '/stats',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        operationId: 'getUserStats',
        summary: 'User counts',
        description: 'Counts for the Manage Users cards: approved accounts, active, disabled, pending.',
        response: { 200: userStatsSchema },
      },
    },
    async () => userStats(db),
  );

  app.get(
    '/dashboard-stats',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        operationId: 'getDashboardStats',
        summary: 'Admin Dashboard counts',
        description:
          "Counts for the Admin Dashboard; 'today' and 'this week' (from Monday) are in the IANA time zone `tz`, UTC by default.",
        querystring: timeZoneQuerySchema,
        response: { 200: dashboardStatsSchema },
      },
    },
    async (request) => {
      const now = new Date();
      return dashboardCounts(db, {
        weekStart: startOfLocalWeek(now, request.query.tz).toISOString(),
        dayStart: startOfLocalDay(now, request.query.tz).toISOString(),
      });
    },
  );

  app.patch(
    '/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        operationId: 'updateUser',
        summary: 'Edit a user',
        description:
          'Changes an approved account: names, designation, role (student/admin), disabled (audited). Demoting or ' +
          'disabling an admin revokes their API tokens. 404 for no such user; 409 for a pending account, or when the ' +
          'change would disable or demote yourself or the last admin; 403 for a role change with an API token.',
        params: userIdParamsSchema,
        body: updateUserInputSchema,
        response: { 200: z.object({ user: managedUserSchema }), ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      if (request.body.role !== undefined) refuseApiToken(request, API_TOKEN_MESSAGES.roleGrant);
      return { user: toManagedUser(await updateUser(db, currentUser(request), request.params.id, request.body)) };
    },
  );

  app.get(
    '/pending',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        operationId: 'listPendingUsers',
        summary: 'List registrations awaiting approval',
        description: 'Accounts awaiting approval, oldest first.',
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
        operationId: 'approveUser',
        summary: 'Approve a registration',
        description:
          'Approves a pending account as student or admin (audited); 409 when it is no longer pending. An API token ' +
          'may approve trainees but not admins (403).',
        params: userIdParamsSchema,
        body: approveUserInputSchema,
        response: { 200: z.object({ user: sessionUserSchema }), ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      if (request.body.role === 'admin') refuseApiToken(request, API_TOKEN_MESSAGES.roleGrant);
      return { user: toSessionUser(await approveUser(db, currentUser(request), request.params.id, request.body)) };
    },
  );

  app.delete(
    '/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        operationId: 'rejectUser',
        summary: 'Reject a registration',
        description: 'Rejects a pending registration and deletes it (audited); 409 when it is no longer pending.',
        params: userIdParamsSchema,
        response: { 200: okSchema, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      await rejectUser(db, currentUser(request), request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/:id/end-sessions',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['users'],
        operationId: 'endUserSessions',
        summary: "End a user's sessions",
        description:
          'Signs the user out everywhere (audited); they can sign in again. Ending your own signs you out too. 404 for ' +
          'no such user.',
        params: userIdParamsSchema,
        response: { 200: okSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      await endUserSessions(db, currentUser(request), request.params.id);
      return { ok: true as const };
    },
  );
};
