import type { DbOrTrx } from '../../db/database';
import type { SsoSignInsTable } from '../../db/schema';

export async function insertSsoSignIn(db: DbOrTrx, row: SsoSignInsTable): Promise<void> {
  await db.insertInto('sso_sign_ins').values(row).execute();
}

/** Takes a started sign-in once: the row is deleted as it is read, so a callback cannot be replayed. */
export async function takeSsoSignIn(db: DbOrTrx, state: string, now: string): Promise<SsoSignInsTable | undefined> {
  const row = await db.deleteFrom('sso_sign_ins').where('state', '=', state).returningAll().executeTakeFirst();
  return row && row.expires_at > now ? row : undefined;
}

export async function deleteExpiredSsoSignIns(db: DbOrTrx, now: string): Promise<void> {
  await db.deleteFrom('sso_sign_ins').where('expires_at', '<=', now).execute();
}

export function findLinkedUserId(db: DbOrTrx, issuer: string, subject: string): Promise<string | undefined> {
  return db
    .selectFrom('sso_identities')
    .select('user_id')
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .executeTakeFirst()
    .then((row) => row?.user_id);
}

export async function linkIdentity(
  db: DbOrTrx,
  issuer: string,
  subject: string,
  userId: string,
  now: string,
): Promise<void> {
  await db
    .insertInto('sso_identities')
    .values({ issuer, subject, user_id: userId, created_at: now, last_sign_in_at: now })
    .execute();
}

export async function touchIdentity(db: DbOrTrx, issuer: string, subject: string, now: string): Promise<void> {
  await db
    .updateTable('sso_identities')
    .set({ last_sign_in_at: now })
    .where('issuer', '=', issuer)
    .where('subject', '=', subject)
    .execute();
}
