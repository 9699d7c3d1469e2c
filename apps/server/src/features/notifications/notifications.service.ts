import { NOTIFICATION_LIST_LIMIT, type NotificationList } from '@tradecraft/shared';
import type { Db, DbOrTrx } from '../../db/database';
import { countUnread, listNotifications, markAllRead, markSubjectRead } from './notifications.repository';

/** The kind of the notification every admin gets when someone registers; its subject is the new user's id. */
export const REGISTRATION_KIND = 'registration';
/** The kind of the notification every admin gets when a written answer waits for grading. */
export const REVIEW_PENDING_KIND = 'review_pending';

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

/**
 * A registration was approved or rejected (by any admin): every admin's notification about it is read now.
 * Call inside the transaction that handled it; then notifyRecipients(all admins) after the commit, so open
 * bells and approval queues refresh.
 */
export async function markRegistrationHandled(db: DbOrTrx, userId: string): Promise<void> {
  await markSubjectRead(db, REGISTRATION_KIND, userId);
}
