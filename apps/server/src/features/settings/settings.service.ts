import {
  DEFAULT_DIFFICULTY,
  MAX_DIFFICULTY,
  MIN_DIFFICULTY,
  SECOND_FACTOR_POLICIES,
  type SecondFactorPolicy,
} from '@tradecraft/shared';
import type { Db, DbOrTrx } from '../../db/database';
import type { User } from '../../db/schema';
import { recordAudit } from '../audit/audit.service';
import { DIFFICULTY_SETTING_KEY, SECOND_FACTOR_POLICY_KEY } from './setting-keys';
import { getSetting, putSetting } from './settings.repository';

const DIFFICULTY_SCREEN = 'Difficulty Adjuster';

/** A stored difficulty, or the default when none is stored (or the stored text is not a difficulty). */
export function difficultyFromSetting(value: string | null | undefined): number {
  const difficulty = Number(value);
  return Number.isInteger(difficulty) && difficulty >= MIN_DIFFICULTY && difficulty <= MAX_DIFFICULTY
    ? difficulty
    : DEFAULT_DIFFICULTY;
}

export async function getPlatformDifficulty(db: DbOrTrx): Promise<number> {
  return difficultyFromSetting(await getSetting(db, DIFFICULTY_SETTING_KEY));
}

/** Saves the difficulty for the whole platform; the audit entry commits with it. */
export async function setPlatformDifficulty(db: Db, admin: User, difficulty: number): Promise<number> {
  await db.transaction().execute(async (trx) => {
    const previous = await getPlatformDifficulty(trx);
    await putSetting(trx, DIFFICULTY_SETTING_KEY, String(difficulty));
    await recordAudit(trx, {
      actor: admin.email,
      action: 'set difficulty',
      details: `Changed the platform difficulty from ${previous} to ${difficulty}`,
      screen: DIFFICULTY_SCREEN,
    });
  });
  return difficulty;
}

const SECURITY_SCREEN = 'Settings';

/** The second-factor policy; off unless an admin turned it on. */
export async function getSecondFactorPolicy(db: DbOrTrx): Promise<SecondFactorPolicy> {
  const value = await getSetting(db, SECOND_FACTOR_POLICY_KEY);
  return SECOND_FACTOR_POLICIES.find((policy) => policy === value) ?? 'off';
}

/** Whether the policy asks this role for a second factor. */
export function policyApplies(policy: SecondFactorPolicy, role: User['role']): boolean {
  return policy === 'everyone' || (policy === 'admins' && role === 'admin');
}

export async function setSecondFactorPolicy(
  db: Db,
  admin: User,
  policy: SecondFactorPolicy,
): Promise<SecondFactorPolicy> {
  await db.transaction().execute(async (trx) => {
    const previous = await getSecondFactorPolicy(trx);
    await putSetting(trx, SECOND_FACTOR_POLICY_KEY, policy);
    await recordAudit(trx, {
      actor: admin.email,
      action: 'set second-factor policy',
      details: `Changed who must use a second factor from ${previous} to ${policy}`,
      screen: SECURITY_SCREEN,
    });
  });
  return policy;
}
