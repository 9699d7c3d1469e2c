import {
  LOGIN_ACTIVITY_CSV_FILENAME,
  loginActivityFilterSchema,
  loginActivityPageSchema,
  loginActivityQuerySchema,
  loginActivityStatsQuerySchema,
  loginActivityStatsSchema,
} from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { CSV_CONTENT_TYPE, sendAttachment } from '../../plugins/downloads';
import { loginActivityCsv, loginActivityPage, loginActivityStats } from './activity.service';

/** User Monitoring: the sign-in events the auth routes record, for admins. */
export const activityRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/login-activity',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['activity'],
        summary: 'Sign-in events: email contains (case-insensitive), event, date range (whole days in tz), sort, paging',
        querystring: loginActivityQuerySchema,
        response: { 200: loginActivityPageSchema },
      },
    },
    async (request) => loginActivityPage(db, request.query),
  );

  app.get(
    '/login-activity/stats',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['activity'],
        summary: "Counts for the User Monitoring cards; 'today' is the day in the IANA time zone tz (UTC by default)",
        querystring: loginActivityStatsQuerySchema,
        response: { 200: loginActivityStatsSchema },
      },
    },
    async (request) => loginActivityStats(db, request.query.tz),
  );

  app.get(
    '/login-activity.csv',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['activity'],
        summary: `${LOGIN_ACTIVITY_CSV_FILENAME}: Email, Role, Event, Timestamp of every event matching the filters, newest first`,
        querystring: loginActivityFilterSchema,
      },
    },
    async (request, reply) => {
      const body = await loginActivityCsv(db, currentUser(request), request.query);
      return sendAttachment(reply, LOGIN_ACTIVITY_CSV_FILENAME, CSV_CONTENT_TYPE, body);
    },
  );
};
