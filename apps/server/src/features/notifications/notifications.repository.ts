import { sql } from 'kysely';
import { nowIso } from '../../clock';
import type { DbOrTrx } from '../../db/database';

export interface NotificationInput {
  kind: string;
  message: string;
  link?: string | null;
  /** What it is about (a registration: the registering user's id), so handling it clears every copy. */
  subjectId?: string | null;
}

/** One notification row per recipient, so each reads and clears their own. */
export async function insertNotifications(
  db: DbOrTrx,
  recipientIds: string[],
  input: NotificationInput,
): Promise<void> {
  if (recipientIds.length === 0) return;
  const createdAt = nowIso();
  await db
    .insertInto('notifications')
    .values(
      recipientIds.map((recipientId) => ({
        recipient_id: recipientId,
        kind: input.kind,
        message: input.message,
        link: input.link ?? null,
        subject_id: input.subjectId ?? null,
        created_at: createdAt,
      })),
    )
    .execute();
}

export interface NotificationRow {
  id: number;
  kind: string;
  message: string;
  link: string | null;
  created_at: string;
  read_at: string | null;
}

/** The user's newest notifications, newest first. */
export function listNotifications(db: DbOrTrx, recipientId: string, limit: number): Promise<NotificationRow[]> {
  return db
    .selectFrom('notifications')
    .select(['id', 'kind', 'message', 'link', 'created_at', 'read_at'])
    .where('recipient_id', '=', recipientId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export async function countUnread(db: DbOrTrx, recipientId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('recipient_id', '=', recipientId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function markAllRead(db: DbOrTrx, recipientId: string): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ read_at: nowIso() })
    .where('recipient_id', '=', recipientId)
    .where('read_at', 'is', null)
    .execute();
}

/** Marks every recipient's copy of the notifications about one subject read (it has been dealt with). */
export async function markSubjectRead(db: DbOrTrx, kind: string, subjectId: string): Promise<void> {
  await db
    .updateTable('notifications')
    .set({ read_at: nowIso() })
    .where('kind', '=', kind)
    .where('subject_id', '=', subjectId)
    .where('read_at', 'is', null)
    .execute();
}

/**
 * Whether a stream's session still stands (not signed out, expired or disabled). Read-only on purpose: an
 * open tab must not keep an idle session alive.
 */
export async function isSessionLive(db: DbOrTrx, sessionId: string): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select('sessions.id')
    .where('sessions.id', '=', sessionId)
    .where('sessions.expires_at', '>', nowIso())
    .where('users.disabled', '=', 0)
    .where('users.role', '!=', 'pending')
    .executeTakeFirst();
  return row !== undefined;
}

/** PostgreSQL only: tells every connection LISTENing on `channel` (every server process) about `payload`. */
export async function publishOnChannel(db: DbOrTrx, channel: string, payload: string): Promise<void> {
  await sql`select pg_notify(${channel}, ${payload})`.execute(db);
}
