import { NOTIFICATION_LIST_LIMIT, type NotificationList } from '@tradecraft/shared';
import type { Db } from '../../db/database';
import { countUnread, listNotifications, markAllRead } from './notifications.repository';

// Other features notify users through here: insert inside their transaction, then notifyRecipients after it commits.
export { insertNotifications, type NotificationInput } from './notifications.repository';
export { notifyRecipients } from './notifications.hub';

export async function notificationsOf(db: Db, userId: string): Promise<NotificationList> {
  const [rows, unread] = await Promise.all([
    listNotifications(db, userId, NOTIFICATION_LIST_LIMIT),
    countUnread(db, userId),
  ]);
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
