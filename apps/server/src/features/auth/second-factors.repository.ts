import type { DbOrTrx } from '../../db/database';
import type { SecondFactorsTable } from '../../db/schema';
import type { Insertable, Selectable } from 'kysely';

export type SecondFactorRow = Selectable<SecondFactorsTable>;

export function listSecondFactors(db: DbOrTrx, userId: string): Promise<SecondFactorRow[]> {
  return db.selectFrom('second_factors').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
}

export async function countSecondFactors(db: DbOrTrx, userId: string): Promise<number> {
  const row = await db
    .selectFrom('second_factors')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertSecondFactor(db: DbOrTrx, row: Insertable<SecondFactorsTable>): Promise<void> {
  await db.insertInto('second_factors').values(row).execute();
}

export function findSecondFactor(db: DbOrTrx, userId: string, id: string): Promise<SecondFactorRow | undefined> {
  return db
    .selectFrom('second_factors')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export function findPasskey(db: DbOrTrx, userId: string, credentialId: string): Promise<SecondFactorRow | undefined> {
  return db
    .selectFrom('second_factors')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', 'passkey')
    .where('credential_id', '=', credentialId)
    .executeTakeFirst();
}

export async function deleteSecondFactor(db: DbOrTrx, userId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('second_factors')
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Accepts a one-time code's time step once: only a step later than the last accepted one is taken. */
export async function claimTotpStep(db: DbOrTrx, id: string, step: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('second_factors')
    .set({ last_totp_step: step, last_used_at: now })
    .where('id', '=', id)
    .where((eb) => eb.or([eb('last_totp_step', 'is', null), eb('last_totp_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function updatePasskeyUse(db: DbOrTrx, id: string, signCount: number, now: string): Promise<void> {
  await db
    .updateTable('second_factors')
    .set({ sign_count: signCount, last_used_at: now })
    .where('id', '=', id)
    .execute();
}

export async function replaceRecoveryCodes(
  db: DbOrTrx,
  userId: string,
  codes: { id: string; code_hash: string }[],
): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('recovery_codes')
    .values(codes.map((code) => ({ ...code, user_id: userId, used_at: null })))
    .execute();
}

export async function deleteRecoveryCodes(db: DbOrTrx, userId: string): Promise<void> {
  await db.deleteFrom('recovery_codes').where('user_id', '=', userId).execute();
}

export function unusedRecoveryCodes(db: DbOrTrx, userId: string): Promise<{ id: string; code_hash: string }[]> {
  return db
    .selectFrom('recovery_codes')
    .select(['id', 'code_hash'])
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

/** Marks a recovery code used, once: false when a parallel request used it first. */
export async function useRecoveryCode(db: DbOrTrx, id: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// Sign-ins between the password and the second step.

export async function insertPendingSignIn(
  db: DbOrTrx,
  row: {
    id: string;
    user_id: string;
    ip: string | null;
    user_agent: string | null;
    created_at: string;
    expires_at: string;
  },
): Promise<void> {
  await db
    .insertInto('pending_sign_ins')
    .values({ ...row, challenge: null })
    .execute();
}

export function findPendingSignIn(db: DbOrTrx, id: string, now: string) {
  return db
    .selectFrom('pending_sign_ins')
    .selectAll()
    .where('id', '=', id)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function setPendingChallenge(db: DbOrTrx, id: string, challenge: string): Promise<void> {
  await db.updateTable('pending_sign_ins').set({ challenge }).where('id', '=', id).execute();
}

export async function deletePendingSignIn(db: DbOrTrx, id: string): Promise<void> {
  await db.deleteFrom('pending_sign_ins').where('id', '=', id).execute();
}

export async function deletePendingSignInsOf(db: DbOrTrx, userId: string): Promise<void> {
  await db.deleteFrom('pending_sign_ins').where('user_id', '=', userId).execute();
}

export async function deleteExpiredPendingSignIns(db: DbOrTrx, now: string): Promise<void> {
  await db.deleteFrom('pending_sign_ins').where('expires_at', '<=', now).execute();
  await db.deleteFrom('enrolment_challenges').where('expires_at', '<=', now).execute();
}

// Enrolment in progress, per session: the one-time-code secret not yet confirmed, the WebAuthn challenge.

export async function putEnrolmentChallenge(
  db: DbOrTrx,
  row: { session_id: string; kind: string; value: string; expires_at: string },
): Promise<void> {
  await db
    .insertInto('enrolment_challenges')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['session_id', 'kind']).doUpdateSet({ value: row.value, expires_at: row.expires_at }),
    )
    .execute();
}

/** Takes the challenge (it works once); undefined when missing or expired. */
export async function takeEnrolmentChallenge(
  db: DbOrTrx,
  sessionId: string,
  kind: string,
  now: string,
): Promise<string | undefined> {
  const row = await db
    .deleteFrom('enrolment_challenges')
    .where('session_id', '=', sessionId)
    .where('kind', '=', kind)
    .returning(['value', 'expires_at'])
    .executeTakeFirst();
  return row && row.expires_at > now ? row.value : undefined;
}

export function peekEnrolmentChallenge(db: DbOrTrx, sessionId: string, kind: string, now: string) {
  return db
    .selectFrom('enrolment_challenges')
    .select('value')
    .where('session_id', '=', sessionId)
    .where('kind', '=', kind)
    .where('expires_at', '>', now)
    .executeTakeFirst();
}

export async function deleteAllSecondFactors(db: DbOrTrx, userId: string): Promise<void> {
  await db.deleteFrom('second_factors').where('user_id', '=', userId).execute();
}
