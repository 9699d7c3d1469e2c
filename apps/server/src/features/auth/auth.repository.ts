import { sql } from 'kysely';
import type { DbOrTrx } from '../../db/database';
import type { User } from '../../db/schema';

// The lockout lives in two columns of users: failed_attempts counts attempts (each one before its password
// is checked), locked_until holds the end of a lock. `disabled` is an admin's decision and never changes here.

/**
 * Counts one sign-in attempt before its password is checked, in a single statement so parallel attempts
 * each get their own number. A lock whose time is up is lifted first (the count starts again at 1). Over
 * the threshold the account is locked at once. Returns the attempt's number, or undefined while locked.
 */
export async function claimSignInAttempt(
  db: DbOrTrx,
  userId: string,
  options: { now: string; lockedUntil: string; threshold: number },
): Promise<number | undefined> {
  const { now, lockedUntil, threshold } = options;
  const row = await db
    .updateTable('users')
    .set((eb) => {
      const lockIsOver = eb.and([eb('locked_until', 'is not', null), eb('locked_until', '<=', now)]);
      return {
        failed_attempts: eb
          .case()
          .when(lockIsOver)
          .then(1)
          .else(eb('failed_attempts', '+', 1))
          .end(),
        locked_until: eb
          .case()
          .when(lockIsOver)
          .then(sql<string | null>`null`)
          .when('failed_attempts', '>=', threshold)
          .then(lockedUntil)
          .else(eb.ref('locked_until'))
          .end(),
      };
    })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .returning('failed_attempts')
    .executeTakeFirst();
  return row?.failed_attempts;
}

/**
 * Locks the account until the given time (the attempt that reached the threshold had a wrong password).
 * True when this call set the lock.
 */
export async function lockAccount(db: DbOrTrx, userId: string, lockedUntil: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ locked_until: lockedUntil })
    .where('id', '=', userId)
    .where('locked_until', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * The right password was given: the count starts again, but only when no lock was set and no other attempt
 * was counted since this one (a guess racing the right password must not clear the lock). Returns the
 * fresh row, or undefined when the condition did not hold.
 */
export async function clearFailedAttempts(db: DbOrTrx, userId: string, attempt: number): Promise<User | undefined> {
  return db
    .updateTable('users')
    .set({ failed_attempts: 0 })
    .where('id', '=', userId)
    .where('locked_until', 'is', null)
    .where('failed_attempts', '<=', attempt)
    .returningAll()
    .executeTakeFirst();
}

/** Stores a new password hash; the count of failed attempts starts again. */
export async function setPasswordHash(db: DbOrTrx, userId: string, passwordHash: string, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, failed_attempts: 0, must_change_password: 0, updated_at: now })
    .where('id', '=', userId)
    .execute();
}
