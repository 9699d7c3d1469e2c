import { nowIso } from '../clock';
import type { DbOrTrx } from '../db/database';
import { tooManyRequests } from '../errors';

export interface RateLimit {
  /** What is limited, e.g. 'login-ip'. */
  name: string;
  max: number;
  windowMs: number;
  message: string;
}

// Counters live in the database so every server process behind a load balancer shares them; each feature
// declares its own limits.
/** Counts one more event in the current window and returns the count. */
export async function incrementRateLimit(
  db: DbOrTrx,
  limit: RateLimit,
  subject: string,
): Promise<{ count: number; window_ends_at: string }> {
  const now = nowIso();
  const windowEndsAt = new Date(Date.now() + limit.windowMs).toISOString();
  return db
    .insertInto('rate_limits')
    .values({ key: `${limit.name}:${subject}`, count: 1, window_ends_at: windowEndsAt })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet((eb) => ({
        count: eb
          .case()
          .when('rate_limits.window_ends_at', '<=', now)
          .then(1)
          .else(eb('rate_limits.count', '+', 1))
          .end(),
        window_ends_at: eb
          .case()
          .when('rate_limits.window_ends_at', '<=', now)
          .then(windowEndsAt)
          .else(eb.ref('rate_limits.window_ends_at'))
          .end(),
      })),
    )
    .returning(['count', 'window_ends_at'])
    .executeTakeFirstOrThrow();
}

/** Counts this request and refuses it (429) once the window's limit is passed. */
export async function consumeRateLimit(db: DbOrTrx, limit: RateLimit, subject: string): Promise<void> {
  const row = await incrementRateLimit(db, limit, subject);
  if (row.count > limit.max) {
    const retryAfterSeconds = Math.max(1, Math.ceil((Date.parse(row.window_ends_at) - Date.now()) / 1000));
    throw tooManyRequests(limit.message, retryAfterSeconds);
  }
}

/** Refuses when the counter is already at its limit, without counting this request (see LOGIN_FAILURES_PER_ACCOUNT). */
export async function assertUnderRateLimit(db: DbOrTrx, limit: RateLimit, subject: string): Promise<void> {
  const row = await db
    .selectFrom('rate_limits')
    .select(['count', 'window_ends_at'])
    .where('key', '=', `${limit.name}:${subject}`)
    .where('window_ends_at', '>', nowIso())
    .executeTakeFirst();
  if (row && row.count >= limit.max) {
    const retryAfterSeconds = Math.max(1, Math.ceil((Date.parse(row.window_ends_at) - Date.now()) / 1000));
    throw tooManyRequests(limit.message, retryAfterSeconds);
  }
}

export async function deleteExpiredRateLimits(db: DbOrTrx): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_ends_at', '<=', nowIso()).execute();
}

export const MINUTE = 60_000;
