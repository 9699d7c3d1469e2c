import { z } from 'zod';

/** How statements to the Learning Record Store stand (the admin dashboard's xAPI card). */
export const xapiStatusResponseSchema = z.object({
  /** XAPI_ENDPOINT is set. */
  enabled: z.boolean(),
  /** Where statements go (without credentials); null when xAPI is off. */
  endpoint: z.string().nullable(),
  /** Statements written and not yet accepted by the LRS. */
  backlog: z.number().int().nonnegative(),
  /** Statements the LRS refused for good (kept for a look, never sent again). */
  rejected: z.number().int().nonnegative(),
  /** When the oldest statement still waiting was written. */
  oldestWaitingSince: z.string().nullable(),
  /** When the LRS last accepted a batch (within the last week). */
  lastDeliveredAt: z.string().nullable(),
  /** The latest failure, whether or not a later attempt succeeded. */
  lastError: z.object({ message: z.string(), at: z.string() }).nullable(),
});
export type XapiStatusResponse = z.infer<typeof xapiStatusResponseSchema>;
