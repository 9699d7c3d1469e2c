import { nowIso } from '../../clock';
import type { DbOrTrx } from '../../db/database';

export interface NotificationInput {
  kind: string;
  message: string;
  link?: string | null;
}

/** One notification row per recipient, so each reads and clears their own. */
export async function insertNotifications(db: DbOrTrx, recipientIds: string[], input: NotificationInput): Promise<void> {
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
        created_at: createdAt,
      })),
    )
    .execute();
}
