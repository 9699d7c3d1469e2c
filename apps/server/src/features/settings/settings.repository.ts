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
