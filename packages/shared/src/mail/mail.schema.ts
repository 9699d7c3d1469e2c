import { z } from 'zod';

/** How mail stands (the admin dashboard's mail card). */
export const mailStatusResponseSchema = z.object({
  /** SMTP_URL is set. */
  enabled: z.boolean(),
  /** The mail server's host and port (never its credentials); null when mail is off. */
  server: z.string().nullable(),
  /** Messages written and not yet accepted by the mail server. */
  backlog: z.number().int().nonnegative(),
  /** When the mail server last accepted a message (within the last week). */
  lastDeliveredAt: z.string().nullable(),
  /** The latest failure, whether or not a later attempt succeeded. */
  lastError: z.object({ message: z.string(), at: z.string() }).nullable(),
});
export type MailStatusResponse = z.infer<typeof mailStatusResponseSchema>;

/** A person's mail preferences, and whether this server can send mail at all. */
export const mailPreferencesSchema = z.object({
  /** SMTP_URL is set: without it nothing is sent, whatever the person chooses. */
  configured: z.boolean(),
  /** "Email me my notifications": every notification of the bell also comes by mail. */
  emailNotices: z.boolean(),
});
export type MailPreferences = z.infer<typeof mailPreferencesSchema>;

export const mailPreferencesUpdateSchema = z.object({ emailNotices: z.boolean() }).strict();
export type MailPreferencesUpdate = z.infer<typeof mailPreferencesUpdateSchema>;
