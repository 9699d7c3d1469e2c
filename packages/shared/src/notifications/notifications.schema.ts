import { z } from 'zod';

export const notificationSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  message: z.string(),
  link: z.string().nullable(),
  createdAt: z.string(),
  read: z.boolean(),
});
export type AppNotification = z.infer<typeof notificationSchema>;

/** The newest notifications of the signed-in user and how many of all of theirs are unread. */
export const notificationListSchema = z.object({
  items: z.array(notificationSchema),
  unread: z.number().int(),
});
export type NotificationList = z.infer<typeof notificationListSchema>;

export const NOTIFICATION_LIST_LIMIT = 30;
