import { DUE_SOON_MS } from '@tradecraft/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database';
import { insertNotifications, notifyRecipients } from '../notifications/notifications.service';
import { assignmentProgress, outcomesByUser } from './assignment-work';
import { targetsOf } from './programmes.service';
import { assignmentsDueBetween, membersOfCohorts, recordNotices, runsOf } from './programmes.repository';

/** How often the server looks for assignments coming due or overdue. */
export const NOTICE_CHECK_INTERVAL_MS = 60_000;
/** Assignments overdue for longer than this are no longer looked at (their notices went out long ago). */
const OVERDUE_LOOKBACK_MS = 30 * 24 * 60 * 60 * 1000;

export interface NoticeCheckResult {
  dueSoon: number;
  overdue: number;
  overdueAdmin: number;
}

const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;

/**
 * Sends the notices of assignments due within 24 hours and overdue: to each trainee who has not met it (due
 * soon, then overdue) and to the admin who assigned it (who is overdue). Each notice goes out once: the
 * assignment_notices key decides, in the transaction that writes the notification, so concurrent checks (two
 * server processes, a manual check) never send one twice.
 */
export async function checkDueAssignments(db: Db, now = new Date()): Promise<NoticeCheckResult> {
  const nowIso = now.toISOString();
  const rows = await assignmentsDueBetween(
    db,
    new Date(now.getTime() - OVERDUE_LOOKBACK_MS).toISOString(),
    new Date(now.getTime() + DUE_SOON_MS).toISOString(),
  );
  const result: NoticeCheckResult = { dueSoon: 0, overdue: 0, overdueAdmin: 0 };
  if (rows.length === 0) return result;
  const targets = await targetsOf(db, rows);
  const members = await membersOfCohorts(db, [
    ...new Set(rows.flatMap((row) => (row.cohort_id ? [row.cohort_id] : []))),
  ]);
  const usersOf = (row: (typeof rows)[number]) =>
    row.user_id
      ? [row.user_id]
      : members.filter((member) => member.cohort_id === row.cohort_id).map((member) => member.user_id);
  const allUsers = [...new Set(rows.flatMap(usersOf))];
  const allScenarios = [...new Set(rows.flatMap((row) => targets.scenariosOf(row)))];
  const outcomes = outcomesByUser(await runsOf(db, allUsers, allScenarios));

  for (const row of rows) {
    const name = targets.nameOf(row);
    const pending = usersOf(row).filter(
      (userId) => assignmentProgress(row, targets.scenariosOf(row), outcomes.get(userId), nowIso).status !== 'passed',
    );
    if (pending.length === 0) continue;
    const overdue = Date.parse(row.due_at!) <= now.getTime();
    const notified: string[] = [];
    await db.transaction().execute(async (trx) => {
      const fresh = await recordNotices(trx, row.id, pending, overdue ? 'overdue' : 'due_soon', nowIso);
      await insertNotifications(trx, fresh, {
        kind: overdue ? 'assignment_overdue' : 'assignment_due_soon',
        message: overdue
          ? `Overdue: "${name}" was due ${when(row.due_at!)}.`
          : `Due soon: "${name}" is due ${when(row.due_at!)}.`,
        link: '/dashboard',
        subjectId: row.id,
      });
      notified.push(...fresh);
      if (overdue) result.overdue += fresh.length;
      else result.dueSoon += fresh.length;
      if (overdue && row.assigned_by) {
        const admin = await recordNotices(trx, row.id, [row.assigned_by], 'overdue_admin', nowIso);
        await insertNotifications(trx, admin, {
          kind: 'assignment_overdue_members',
          message: `${pending.length} ${pending.length === 1 ? 'trainee has' : 'trainees have'} not completed "${name}", due ${when(row.due_at!)}.`,
          link: row.cohort_id ? `/admin/cohorts/${row.cohort_id}` : '/admin/cohorts',
          subjectId: row.id,
        });
        notified.push(...admin);
        result.overdueAdmin += admin.length;
      }
    });
    await notifyRecipients(db, notified);
  }
  return result;
}

/** Runs the check every minute in this process until the app closes. */
export function startNoticeChecks(db: Db, log: FastifyBaseLogger): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    checkDueAssignments(db)
      .catch((error: unknown) => log.warn({ err: error }, 'assignment due-date check failed'))
      .finally(() => {
        running = false;
      });
  }, NOTICE_CHECK_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}
