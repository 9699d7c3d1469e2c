import type { DbOrTrx } from '../../db/database';
import { reusableQuery } from '../../db/reusable-query';

export interface RateLimitCounter {
  count: number;
  window_ends_at: string;
}

// Counters live in the database so every server process behind a load balancer shares them.
/**
 * Counts one more event under `key` and returns the count: a window that has ended by `now` starts again at 1
 * and ends at `windowEndsAt`. One upsert, so two requests at once cannot both read the old count.
 */
const upsertCounterQuery = reusableQuery<{ key: string; windowEndsAt: string; now: string }, RateLimitCounter>(
  (db, param) =>
    db
      .insertInto('rate_limits')
      .values({ key: param('key'), count: 1, window_ends_at: param('windowEndsAt') })
      .onConflict((oc) =>
        oc.column('key').doUpdateSet((eb) => ({
          count: eb
            .case()
            .when('rate_limits.window_ends_at', '<=', param('now'))
            .then(1)
            .else(eb('rate_limits.count', '+', 1))
            .end(),
          window_ends_at: eb
            .case()
            .when('rate_limits.window_ends_at', '<=', param('now'))
            .then(param('windowEndsAt'))
            .else(eb.ref('rate_limits.window_ends_at'))
            .end(),
        })),
      )
      .returning(['count', 'window_ends_at']),
);

export async function upsertRateLimitCounter(
  db: DbOrTrx,
  key: string,
  windowEndsAt: string,
  now: string,
): Promise<RateLimitCounter> {
  const [counter] = await upsertCounterQuery(db, { key, windowEndsAt, now });
  if (!counter) throw new Error('The rate limit upsert returned no row');
  return counter;
}

/** The counter under `key` if its window is still open at `now`. */
export function findLiveRateLimit(db: DbOrTrx, key: string, now: string): Promise<RateLimitCounter | undefined> {
  return db
    .selectFrom('rate_limits')
    .select(['count', 'window_ends_at'])
    .where('key', '=', key)
    .where('window_ends_at', '>', now)
    .executeTakeFirst();
}

export async function deleteRateLimitsEndedBy(db: DbOrTrx, now: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_ends_at', '<=', now).execute();
}
