import { nowIso } from '../../clock';
import type { DbOrTrx, Trx } from '../../db/database';
import type { User } from '../../db/schema';

export interface ProfileFields {
  firstName: string;
  lastName: string;
  designation: string;
}

export function updateProfileFields(db: DbOrTrx, userId: string, fields: ProfileFields): Promise<User | undefined> {
  return db
    .updateTable('users')
    .set({
      first_name: fields.firstName,
      last_name: fields.lastName,
      designation: fields.designation,
      updated_at: nowIso(),
    })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirst();
}

/**
 * The user's current picture file id, read after taking the row's write lock (an update), so two uploads at
 * once cannot both see the same old file and leave one picture orphaned. Works the same on both dialects.
 */
export async function lockPhotoFileId(trx: Trx, userId: string): Promise<{ photoFileId: string | null } | undefined> {
  const locked = await trx
    .updateTable('users')
    .set({ updated_at: nowIso() })
    .where('id', '=', userId)
    .executeTakeFirst();
  if (Number(locked.numUpdatedRows) === 0) return undefined;
  const row = await trx.selectFrom('users').select('photo_file_id').where('id', '=', userId).executeTakeFirstOrThrow();
  return { photoFileId: row.photo_file_id };
}

export function setPhotoFileId(trx: Trx, userId: string, fileId: string | null): Promise<User> {
  return trx
    .updateTable('users')
    .set({ photo_file_id: fileId, updated_at: nowIso() })
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export function findPhotoFileId(db: DbOrTrx, userId: string): Promise<string | null | undefined> {
  return db
    .selectFrom('users')
    .select('photo_file_id')
    .where('id', '=', userId)
    .executeTakeFirst()
    .then((row) => (row ? row.photo_file_id : undefined));
}
