import {
  loginActivityFilterSchema,
  loginActivityPageSchema,
  loginActivityQuerySchema,
  loginActivityStatsQuerySchema,
  loginActivityStatsSchema,
  sprayingListSchema,
} from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { fileResponse } from '../../plugins/docs';
import { sendAttachment, SPREADSHEET_MEDIA_TYPES } from '../../plugins/downloads';
import {
  exportLoginActivity,
  LOGIN_ACTIVITY_FILENAMES,
  loginActivityPage,
  loginActivityStats,
  passwordSprayingAddresses,
} from './activity.service';

/** User Monitoring: the sign-in events the auth routes record, for admins. */
export const activityRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/login-activity',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['activity'],
        operationId: 'listSignInEvents',
        summary: 'List sign-in events',
        description:
          'User Monitoring: sign-in events filtered by email (contains, case-insensitive), event and date range (whole ' +
          'days in the `tz` offset), sorted and paged.',
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
        operationId: 'getSignInStats',
        summary: 'Sign-in counts',
        description:
          "Counts for the User Monitoring cards; 'today' is the day in the IANA time zone `tz` (UTC by default).",
        querystring: loginActivityStatsQuerySchema,
        response: { 200: loginActivityStatsSchema },
      },
    },
    async (request) => loginActivityStats(db, request.query.tz),
  );

  for (const format of ['csv', 'xlsx'] as const) {
    const filename = LOGIN_ACTIVITY_FILENAMES[format];
    const mediaType = SPREADSHEET_MEDIA_TYPES[format];
    app.get(
      `/login-activity.${format}`,
      {
        config: { access: 'admin' },
        schema: {
          tags: ['activity'],
          operationId: format === 'csv' ? 'exportSignInEventsCsv' : 'exportSignInEventsXlsx',
          summary: `Export sign-in events as ${format.toUpperCase()}`,
          description:
            `${filename}: Email, Role, Event, Timestamp of every event matching the filters, newest first` +
            `${format === 'csv' ? ' (UTF-8 with a byte-order mark)' : ''}; audited.`,
          querystring: loginActivityFilterSchema,
          response: { 200: fileResponse({ mediaType, filename, description: `The ${format.toUpperCase()} file.` }) },
        },
      },
      async (request, reply) => {
        const body = await exportLoginActivity(db, currentUser(request), request.query, format);
        return sendAttachment(reply, { mediaType, filename, body });
      },
    );
  }

  app.get(
    '/password-spraying',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['activity'],
        operationId: 'listPasswordSpraying',
        summary: 'Addresses failing on many accounts',
        description:
          'Addresses whose failed sign-ins in the last 15 minutes span three or more accounts; at ten accounts the ' +
          'address is throttled (its sign-ins answer 429 until the window passes).',
        response: { 200: sprayingListSchema },
      },
    },
    async () => ({ addresses: await passwordSprayingAddresses(db) }),
  );
};
