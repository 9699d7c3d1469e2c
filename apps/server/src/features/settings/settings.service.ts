import { DEFAULT_DIFFICULTY, MAX_DIFFICULTY, MIN_DIFFICULTY } from '@tradecraft/shared';
import type { Db, DbOrTrx } from '../../db/database';
import type { User } from '../../db/schema';
import { recordAudit } from '../audit/audit.service';
import { DIFFICULTY_SETTING_KEY } from './setting-keys';
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
