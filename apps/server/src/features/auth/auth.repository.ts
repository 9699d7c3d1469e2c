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

// The second step keeps its own count in users.second_step_failures: every wrong one-time code, recovery code or
// passkey since the last completed sign-in. A right password does not reset it (only a completed sign-in does), so
// knowing the password buys no fresh guesses. It shares the lock (locked_until) with wrong passwords.

/** The account's second-step count and when its last wrong second step was (for the backoff). */
export function findSecondStepState(db: DbOrTrx, userId: string) {
  return db
    .selectFrom('users')
    .select(['second_step_failures', 'second_step_failed_at', 'locked_until'])
    .where('id', '=', userId)
    .executeTakeFirst();
}

/**
 * Counts one second step before it is checked, in a single statement so parallel attempts each get their own
 * number; it stays counted as a failure until a completed sign-in clears it. Under the threshold every attempt is
 * checked (the caller locks at the threshold's number when it is wrong). At the threshold, after the lock has
 * lifted, one attempt per lock period is checked: `lastAtThresholdBefore` is the end of the previous period, so
 * of a parallel burst only the first is. Returns the number, or undefined while locked or too soon.
 */
export async function claimSecondStepAttempt(
  db: DbOrTrx,
  userId: string,
  options: { now: string; threshold: number; lastAtThresholdBefore: string },
): Promise<number | undefined> {
  const { now, threshold, lastAtThresholdBefore } = options;
  const row = await db
    .updateTable('users')
    .set((eb) => {
      const lockIsOver = eb.and([eb('locked_until', 'is not', null), eb('locked_until', '<=', now)]);
      return {
        second_step_failures: eb
          .case()
          .when('second_step_failures', '>=', threshold)
          .then(threshold)
          .else(eb('second_step_failures', '+', 1))
          .end(),
        // A lock that ran out is lifted, and the password's count starts again with it.
        failed_attempts: eb.case().when(lockIsOver).then(0).else(eb.ref('failed_attempts')).end(),
        locked_until: eb
          .case()
          .when(lockIsOver)
          .then(sql<string | null>`null`)
          .else(eb.ref('locked_until'))
          .end(),
        second_step_failed_at: now,
      };
    })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
    .where((eb) =>
      eb.or([
        eb('second_step_failures', '<', threshold),
        eb('second_step_failed_at', 'is', null),
        eb('second_step_failed_at', '<=', lastAtThresholdBefore),
      ]),
    )
    .returning('second_step_failures')
    .executeTakeFirst();
  return row?.second_step_failures;
}

/** A sign-in was completed: the second step's count starts again. */
export async function clearSecondStepFailures(db: DbOrTrx, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ second_step_failures: 0, second_step_failed_at: null })
    .where('id', '=', userId)
    .execute();
}
