import type { PendingUser, SessionUser } from '@tradecraft/shared';
import type { DbOrTrx } from '../../db/database';
import type { NewUser, User } from '../../db/schema';

export function findUserByEmail(db: DbOrTrx, email: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
}

export function findUserById(db: DbOrTrx, id: string): Promise<User | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertUser(db: DbOrTrx, user: NewUser): Promise<void> {
  await db.insertInto('users').values(user).execute();
}

export async function listAdminIds(db: DbOrTrx): Promise<string[]> {
  const rows = await db.selectFrom('users').select('id').where('role', '=', 'admin').execute();
  return rows.map((row) => row.id);
}

export function photoUrl(user: Pick<User, 'id' | 'photo_file_id'>): string | null {
  // The file id in the query string changes with every new picture, so browsers may cache each one forever.
  return user.photo_file_id ? `/api/users/${user.id}/photo?v=${user.photo_file_id}` : null;
}

export function toSessionUser(user: User): SessionUser {
  return {
    id: user.id,
    email: user.email,
    firstName: user.first_name,
    lastName: user.last_name,
    designation: user.designation,
    role: user.role,
    photoUrl: photoUrl(user),
    createdAt: user.created_at,
  };
}

/** Everyone awaiting approval, oldest first (the first to register is the first to be answered). */
export async function listPendingUsers(db: DbOrTrx): Promise<PendingUser[]> {
  const rows = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email', 'designation', 'created_at'])
    .where('role', '=', 'pending')
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    designation: row.designation,
    registeredAt: row.created_at,
  }));
}
