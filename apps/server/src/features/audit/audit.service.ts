import type { Readable } from 'node:stream';
import {
  AUDIT_EXPORT_MESSAGES,
  inclusiveDayRange,
  type AuditPage,
  type auditExportQuerySchema,
  type auditLogQuerySchema,
} from '@tradecraft/shared';
import type { z } from 'zod';
import { nowIso } from '../../clock';
import type { Db, Trx } from '../../db/database';
import type { User } from '../../db/schema';
import { badRequest } from '../../errors';
import { AUDIT_EXPORT_FILENAME, auditWorkbook } from './audit-export';
import { insertAuditEntry, listAuditEntries, type AuditFilters } from './audit.repository';

export interface AuditEntry {
  /** The admin's email, or null for the system itself. */
  actor: string | null;
  action: string;
  details?: string | null;
  /** The screen the action was taken on, e.g. 'Manage Users'. */
  screen?: string | null;
}

/** Writes the audit entry inside the transaction of the change it describes, so both commit or neither. */
export async function recordAudit(trx: Trx, entry: AuditEntry): Promise<void> {
  await insertAuditEntry(trx, {
    actor: entry.actor,
    action: entry.action,
    details: entry.details ?? null,
    screen: entry.screen ?? null,
    at: nowIso(),
  });
}

/** An audit entry for an action that changes nothing else (an export), in a transaction of its own. */
export async function recordAuditAlone(db: Db, entry: AuditEntry): Promise<void> {
  await db.transaction().execute((trx) => recordAudit(trx, entry));
}

type AuditLogQuery = z.output<typeof auditLogQuerySchema>;

function toAuditFilters(query: Omit<AuditLogQuery, 'sort' | 'dir' | 'page' | 'pageSize'>): AuditFilters {
  const { fromIso, toIsoExclusive } = inclusiveDayRange(query.start_date, query.end_date, query.tz);
  return {
    actor: query.actor,
    action: query.action,
    details: query.details,
    screen: query.screen,
    fromIso,
    toIsoExclusive,
  };
}

export async function auditLogPage(db: Db, query: AuditLogQuery): Promise<AuditPage> {
  const { rows, total, totalIsLowerBound } = await listAuditEntries(db, toAuditFilters(query), query);
  return {
    items: rows.map((row) => ({
      id: row.id,
      actor: row.actor,
      action: row.action,
      details: row.details,
      screen: row.screen,
      timestamp: row.at,
    })),
    total,
    totalIsLowerBound,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** audit_logs.xlsx of every entry from start_date to end_date, both whole days included; both are required. */
export async function exportAuditLog(
  db: Db,
  actor: User,
  query: z.output<typeof auditExportQuerySchema>,
): Promise<Readable> {
  const { start_date: start, end_date: end, tz } = query;
  if (!start || !end) throw badRequest(AUDIT_EXPORT_MESSAGES.datesRequired);
  if (end < start) throw badRequest(AUDIT_EXPORT_MESSAGES.endBeforeStart);
  await recordAuditAlone(db, {
    actor: actor.email,
    action: 'export audit log',
    details: `Downloaded ${AUDIT_EXPORT_FILENAME} for ${start} to ${end}`,
    screen: 'Audit Log',
  });
  return auditWorkbook(db, toAuditFilters({ start_date: start, end_date: end, tz }), tz);
}
