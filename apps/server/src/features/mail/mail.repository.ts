import type { Selectable } from 'kysely';
import { nowIso } from '../../clock';
import type { DbOrTrx } from '../../db/database';
import type { MailOutboxTable } from '../../db/schema';

export type MailRow = Selectable<MailOutboxTable>;

export interface NewMail {
  id: string;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  headers: string;
  created_at: string;
}

/** Writes messages to the outbox, due at once (in the transaction of what caused them). */
export async function insertMails(db: DbOrTrx, rows: NewMail[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('mail_outbox')
    .values(rows.map((row) => ({ ...row, next_attempt_at: row.created_at, attempts: 0 })))
    .execute();
}

/** Messages neither sent nor refused whose time has come (not backing off, not claimed by another sender). */
export function listDueMails(db: DbOrTrx, now: string, limit: number): Promise<MailRow[]> {
  return db
    .selectFrom('mail_outbox')
    .selectAll()
    .where('sent_at', 'is', null)
    .where('rejected_at', 'is', null)
    .where('next_attempt_at', '<=', now)
    .orderBy('next_attempt_at')
    .orderBy('id')
    .limit(limit)
    .execute();
}

/**
 * Takes a message for this sender by moving its `next_attempt_at` to `leaseUntil`, but only if it is still what
 * was read: a message another process claimed in between is left to it. Says whether it was taken.
 */
export async function claimMail(db: DbOrTrx, row: Pick<MailRow, 'id' | 'next_attempt_at'>, leaseUntil: string) {
  const result = await db
    .updateTable('mail_outbox')
    .set({ next_attempt_at: leaseUntil })
    .where('id', '=', row.id)
    .where('next_attempt_at', '=', row.next_attempt_at)
    .where('sent_at', 'is', null)
    .where('rejected_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function markMailSent(db: DbOrTrx, id: string, at: string): Promise<void> {
  await db.updateTable('mail_outbox').set({ sent_at: at }).where('id', '=', id).execute();
}

/** A failed attempt: counted, its error kept, the next one put off until `retryAt`. */
export async function markMailFailed(
  db: DbOrTrx,
  id: string,
  attempts: number,
  retryAt: string,
  error: { message: string; at: string },
): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ attempts, next_attempt_at: retryAt, last_error: error.message, last_error_at: error.at })
    .where('id', '=', id)
    .execute();
}

/** The mail server refused this message for good (a 5xx answer): never tried again. */
export async function markMailRejected(db: DbOrTrx, id: string, error: { message: string; at: string }) {
  await db
    .updateTable('mail_outbox')
    .set({ rejected_at: error.at, last_error: error.message, last_error_at: error.at })
    .where('id', '=', id)
    .execute();
}

/** Deletes messages delivered before `before`. */
export async function purgeSentMails(db: DbOrTrx, before: string): Promise<void> {
  await db.deleteFrom('mail_outbox').where('sent_at', 'is not', null).where('sent_at', '<', before).execute();
}

export async function mailFigures(db: DbOrTrx) {
  const [waiting, delivered, lastError] = await Promise.all([
    db
      .selectFrom('mail_outbox')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('sent_at', 'is', null)
      .where('rejected_at', 'is', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('mail_outbox')
      .select('sent_at')
      .where('sent_at', 'is not', null)
      .orderBy('sent_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom('mail_outbox')
      .select(['last_error', 'last_error_at'])
      .where('last_error_at', 'is not', null)
      .orderBy('last_error_at', 'desc')
      .limit(1)
      .executeTakeFirst(),
  ]);
  return {
    backlog: Number(waiting.count),
    lastDeliveredAt: delivered?.sent_at ?? null,
    lastError:
      lastError?.last_error && lastError.last_error_at
        ? { message: lastError.last_error, at: lastError.last_error_at }
        : null,
  };
}

/** Whether the person asked for their notifications by mail (off when never chosen). */
export async function emailNoticesOf(db: DbOrTrx, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom('mail_preferences')
    .select('email_notices')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.email_notices === 1;
}

export async function setEmailNotices(db: DbOrTrx, userId: string, on: boolean): Promise<void> {
  const values = { user_id: userId, email_notices: on ? 1 : 0, updated_at: nowIso() };
  await db
    .insertInto('mail_preferences')
    .values(values)
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({ email_notices: values.email_notices, updated_at: values.updated_at }),
    )
    .execute();
}

/** The recipients among `userIds` who get their notifications by mail: opted in, active, with their names. */
export function mailRecipientsAmong(db: DbOrTrx, userIds: string[]) {
  return db
    .selectFrom('users')
    .innerJoin('mail_preferences', 'mail_preferences.user_id', 'users.id')
    .select(['users.id', 'users.email', 'users.first_name'])
    .where('users.id', 'in', userIds)
    .where('mail_preferences.email_notices', '=', 1)
    .where('users.disabled', '=', 0)
    .execute();
}
