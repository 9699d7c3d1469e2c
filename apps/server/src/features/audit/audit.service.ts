import { nowIso } from '../../clock';
import type { Trx } from '../../db/database';

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
  await trx
    .insertInto('audit_log')
    .values({
      actor: entry.actor,
      action: entry.action,
      details: entry.details ?? null,
      screen: entry.screen ?? null,
      at: nowIso(),
    })
    .execute();
}
