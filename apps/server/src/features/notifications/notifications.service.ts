import { NOTIFICATION_LIST_LIMIT, type NotificationList } from '@tradecraft/shared';
import type { Db, DbOrTrx } from '../../db/database';
import { notifyRecipients } from './notifications.hub';
import { countUnread, insertNotifications, listNotifications, markAllRead, type NotificationInput } from './notifications.repository';

export async function notificationsOf(db: Db, userId: string): Promise<NotificationList> {
  const [rows, unread] = await Promise.all([listNotifications(db, userId, NOTIFICATION_LIST_LIMIT), countUnread(db, userId)]);
  return {
    items: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      message: row.message,
      link: row.link,
      createdAt: row.created_at,
      read: row.read_at !== null,
    })),
    unread,
  };
}

export async function markNotificationsRead(db: Db, userId: string): Promise<void> {
  await markAllRead(db, userId);
}

/**
 * Puts a notification in each recipient's bell inside the caller's transaction; call `announceNotifications`
 * after the commit so open bells fetch rows that exist.
 */
export async function addNotifications(trx: DbOrTrx, recipientIds: string[], input: NotificationInput): Promise<void> {
  await insertNotifications(trx, recipientIds, input);
}

/** Tells the recipients' open bells (every server process) that they have something new. */
export async function announceNotifications(db: Db, recipientIds: readonly string[]): Promise<void> {
  await notifyRecipients(db, recipientIds);
}
