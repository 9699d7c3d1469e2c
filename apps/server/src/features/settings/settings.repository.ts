import { nowIso } from '../../clock';
import type { DbOrTrx } from '../../db/database';

export async function getSetting(db: DbOrTrx, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value;
}

/** Inserts or replaces one setting (the same upsert on SQLite and PostgreSQL). */
export async function putSetting(db: DbOrTrx, key: string, value: string): Promise<void> {
  const updatedAt = nowIso();
  await db
    .insertInto('settings')
    .values({ key, value, updated_at: updatedAt })
    .onConflict((conflict) => conflict.column('key').doUpdateSet({ value, updated_at: updatedAt }))
    .execute();
}

/** What the setup checklist asks about the platform: each a yes/no read from the tables. */
export async function setupFacts(
  db: DbOrTrx,
  adminEmail: string,
  difficultyKey: string,
): Promise<{
  passwordChanged: boolean;
  traineeApproved: boolean;
  difficultyChosen: boolean;
  scenarioUploaded: boolean;
}> {
  const [passwordChange, trainee, difficulty, uploaded] = await Promise.all([
    db
      .selectFrom('login_events')
      .select('id')
      .where('email', '=', adminEmail)
      .where('event', '=', 'password_change')
      .limit(1)
      .executeTakeFirst(),
    db.selectFrom('users').select('id').where('role', '=', 'student').limit(1).executeTakeFirst(),
    getSetting(db, difficultyKey),
    db.selectFrom('scenarios').select('id').where('origin', '=', 'upload').limit(1).executeTakeFirst(),
  ]);
  return {
    passwordChanged: passwordChange !== undefined,
    traineeApproved: trainee !== undefined,
    difficultyChosen: difficulty !== undefined,
    scenarioUploaded: uploaded !== undefined,
  };
}
