import { NOTIFICATION_LIST_LIMIT, type NotificationList } from '@tradecraft/shared';
import type { Db, DbOrTrx } from '../../db/database';
import {
  countUnread,
  insertNotifications as insertNotificationRows,
  listNotifications,
  markAllRead,
  markSubjectRead,
  type NotificationInput,
} from './notifications.repository';

/** The kind of the notification every admin gets when someone registers; its subject is the new user's id. */
export const REGISTRATION_KIND = 'registration';
/** The kind of the notification every admin gets when a written answer waits for grading. */
export const REVIEW_PENDING_KIND = 'review_pending';

// Other features notify users through here: insert inside their transaction, then notifyRecipients after it commits.
export type { NotificationInput } from './notifications.repository';
export { notifyRecipients } from './notifications.hub';

type NotificationCopier = (db: DbOrTrx, recipientIds: string[], input: NotificationInput) => Promise<void>;
let copier: NotificationCopier | undefined;

/**
 * Lets one feature copy every notification, in the transaction that inserts it: the mail feature queues a mail
 * for the recipients who asked for one (docs/operations.md, "Mail"). Returns what removes it again.
 */
export function copyNotificationsTo(copy: NotificationCopier): () => void {
  copier = copy;
  return () => {
    if (copier === copy) copier = undefined;
  };
}

/** One notification per recipient (and its copy, see copyNotificationsTo), in the caller's transaction. */
export async function insertNotifications(
  db: DbOrTrx,
  recipientIds: string[],
  input: NotificationInput,
): Promise<void> {
  await insertNotificationRows(db, recipientIds, input);
  if (copier && recipientIds.length > 0) await copier(db, recipientIds, input);
}

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
