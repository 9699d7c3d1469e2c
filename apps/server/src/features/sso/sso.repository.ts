import type { DbOrTrx } from '../../db/database';
import type { SsoLinkRequestsTable, SsoSignInsTable } from '../../db/schema';

export async function insertSsoSignIn(db: DbOrTrx, row: SsoSignInsTable): Promise<void> {
  await db.insertInto('sso_sign_ins').values(row).execute();
}

/**
 * Takes a started sign-in once, and only for the browser that started it (`browserHash`, from its cookie): the
 * row is deleted as it is read, so a callback cannot be replayed; another browser's callback leaves it alone.
 */
export async function takeSsoSignIn(
  db: DbOrTrx,
  state: string,
  browserHash: string,
  now: string,
): Promise<SsoSignInsTable | undefined> {
  const row = await db
    .deleteFrom('sso_sign_ins')
    .where('state', '=', state)
    .where('browser_hash', '=', browserHash)
    .returningAll()
    .executeTakeFirst();
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

export async function insertLinkRequest(db: DbOrTrx, row: SsoLinkRequestsTable): Promise<void> {
  await db.deleteFrom('sso_link_requests').where('expires_at', '<=', row.created_at).execute();
  await db.insertInto('sso_link_requests').values(row).execute();
}

export function findLinkRequest(db: DbOrTrx, id: string, now: string): Promise<SsoLinkRequestsTable | undefined> {
  return db
    .selectFrom('sso_link_requests')
    .selectAll()
    .where('id', '=', id)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

/** Deletes the request; false when it was already gone (used by a parallel request). */
export async function deleteLinkRequest(db: DbOrTrx, id: string): Promise<boolean> {
  const result = await db.deleteFrom('sso_link_requests').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
