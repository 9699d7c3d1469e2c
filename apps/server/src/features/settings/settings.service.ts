import {
  DEFAULT_DIFFICULTY,
  MAX_DIFFICULTY,
  MIN_DIFFICULTY,
  SETUP_ITEMS,
  type SetupChecklist,
  type SetupItem,
  SECOND_FACTOR_POLICIES,
  type SecondFactorPolicy,
} from '@tradecraft/shared';
import type { Db, DbOrTrx } from '../../db/database';
import type { User } from '../../db/schema';
import { recordAudit } from '../audit/audit.service';
import { DIFFICULTY_SETTING_KEY, SECOND_FACTOR_POLICY_KEY, SETUP_DISMISSED_SETTING_KEY } from './setting-keys';
import { getSetting, putSetting, setupFacts } from './settings.repository';

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

function dismissedFrom(value: string | undefined): Set<SetupItem> {
  try {
    const parsed: unknown = JSON.parse(value ?? '[]');
    return new Set(SETUP_ITEMS.filter((item) => Array.isArray(parsed) && parsed.includes(item)));
  } catch {
    return new Set();
  }
}

/**
 * The first admin's setup steps, each done (read from what the platform holds) or dismissed (by any admin).
 * "Password changed" is the signed-in admin's own: they have changed their password at least once, or their
 * password is the operator's choice (ADMIN_PASSWORD, which start-up sets on `operatorAdminEmail`).
 */
export async function setupChecklist(
  db: Db,
  admin: User,
  options: { publicOriginSet: boolean; repositoryUrl: string; operatorAdminEmail?: string | null },
): Promise<SetupChecklist> {
  const [facts, dismissedValue] = await Promise.all([
    setupFacts(db, admin.email, DIFFICULTY_SETTING_KEY),
    getSetting(db, SETUP_DISMISSED_SETTING_KEY),
  ]);
  const done: Record<SetupItem, boolean> = {
    ...facts,
    passwordChanged: facts.passwordChanged || options.operatorAdminEmail === admin.email,
    publicOriginSet: options.publicOriginSet,
  };
  const dismissed = dismissedFrom(dismissedValue);
  return {
    configurationGuideUrl: `${options.repositoryUrl}/blob/main/docs/operations.md#configuration`,
    items: SETUP_ITEMS.map((id) => ({ id, done: done[id], dismissed: dismissed.has(id) })),
  };
}

const SETUP_SCREEN = 'Admin Dashboard';

/** Hides one step of the setup checklist for every admin (audited); dismissing it again changes nothing. */
export async function dismissSetupItem(db: Db, admin: User, item: SetupItem): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const dismissed = dismissedFrom(await getSetting(trx, SETUP_DISMISSED_SETTING_KEY));
    if (dismissed.has(item)) return;
    dismissed.add(item);
    await putSetting(trx, SETUP_DISMISSED_SETTING_KEY, JSON.stringify(SETUP_ITEMS.filter((id) => dismissed.has(id))));
    await recordAudit(trx, {
      actor: admin.email,
      action: 'dismiss setup step',
      details: `Dismissed the setup checklist step "${item}"`,
      screen: SETUP_SCREEN,
    });
  });
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
