import type { DbOrTrx } from '../../db/database';
import type { ApiTokensTable } from '../../db/schema';

export async function insertApiToken(db: DbOrTrx, row: ApiTokensTable): Promise<void> {
  await db.insertInto('api_tokens').values(row).execute();
}

/** The user's tokens, newest first (at most 200: revoked and expired ones stay listed for the record). */
export function listApiTokens(db: DbOrTrx, userId: string): Promise<ApiTokensTable[]> {
  return db
    .selectFrom('api_tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(200)
    .execute();
}

export async function countLiveApiTokens(db: DbOrTrx, userId: string, now: string): Promise<number> {
  const row = await db
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Revokes the user's own live token; undefined when it is not theirs or already revoked. */
export function revokeApiToken(
  db: DbOrTrx,
  userId: string,
  id: string,
  now: string,
): Promise<ApiTokensTable | undefined> {
  return db
    .updateTable('api_tokens')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst();
}
