import { auditExportQuerySchema, auditLogQuerySchema, auditPageSchema } from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { sendAttachment, XLSX_CONTENT_TYPE } from '../../plugins/downloads';
import { AUDIT_EXPORT_FILENAME } from './audit-export';
import { auditLogPage, exportAuditLog } from './audit.service';

/** The Admin Audit Log: every admin action, newest first, and its spreadsheet export. */
export const auditRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/logs',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['audit'],
        summary: 'Audit entries: case-insensitive contains filters, whole-day date range (in tz), sort, paging',
        querystring: auditLogQuerySchema,
        response: { 200: auditPageSchema },
      },
    },
    async (request) => auditLogPage(db, request.query),
  );

  app.get(
    '/export',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['audit'],
        summary: `${AUDIT_EXPORT_FILENAME} of every entry from start_date to end_date (both required, both included)`,
        querystring: auditExportQuerySchema,
      },
    },
    async (request, reply) => {
      const body = await exportAuditLog(db, currentUser(request), request.query);
      return sendAttachment(reply, AUDIT_EXPORT_FILENAME, XLSX_CONTENT_TYPE, body);
    },
  );
};
