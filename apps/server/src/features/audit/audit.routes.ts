import { auditExportQuerySchema, auditLogQuerySchema, auditPageSchema } from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { fileResponse } from '../../plugins/docs';
import { sendAttachment, XLSX_MEDIA_TYPE } from '../../plugins/downloads';
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
        operationId: 'listAuditEntries',
        summary: 'List audit entries',
        description:
          'The Admin Audit Log: entries filtered by actor, action, details and screen (contains, case-insensitive) and ' +
          'a whole-day date range in the `tz` offset, sorted and paged.',
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
        operationId: 'exportAuditEntriesXlsx',
        summary: 'Export audit entries as XLSX',
        description:
          `${AUDIT_EXPORT_FILENAME} of every entry from \`start_date\` to \`end_date\` (both required, both included; ` +
          'audited). 400 when either is missing or the end comes before the start.',
        querystring: auditExportQuerySchema,
        response: {
          200: fileResponse({
            mediaType: XLSX_MEDIA_TYPE,
            filename: AUDIT_EXPORT_FILENAME,
            description: 'The workbook.',
          }),
        },
      },
    },
    async (request, reply) => {
      const body = await exportAuditLog(db, currentUser(request), request.query);
      return sendAttachment(reply, { mediaType: XLSX_MEDIA_TYPE, filename: AUDIT_EXPORT_FILENAME, body });
    },
  );
};
