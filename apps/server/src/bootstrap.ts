import { randomUUID } from 'node:crypto';
import { meetsPasswordRule, PASSWORD_RULE_MESSAGE } from '@tradecraft/shared';
import { nowIso } from './clock';
import type { Db } from './db/database';
import { generatePassword, hashPassword } from './features/auth/passwords';

export interface AdminBootstrap {
  email: string;
  /** Set only when a password was generated: print it once, it is stored nowhere in clear. */
  generatedPassword?: string;
}

/**
 * Makes sure an admin exists: from ADMIN_EMAIL/ADMIN_PASSWORD when given, otherwise admin@localhost with a
 * random password. Returns null when an admin already existed (nothing to print).
 */
export async function ensureAdmin(
  db: Db,
  options: { email?: string | undefined; password?: string | undefined },
): Promise<AdminBootstrap | null> {
  const existing = await db.selectFrom('users').select('id').where('role', '=', 'admin').executeTakeFirst();
  if (existing) return null;

  if (options.password && !meetsPasswordRule(options.password)) {
    throw new Error(`ADMIN_PASSWORD: ${PASSWORD_RULE_MESSAGE}`);
  }
  const email = (options.email ?? 'admin@localhost').trim().toLowerCase();
  const generatedPassword = options.password ? undefined : generatePassword();
  const passwordHash = await hashPassword(options.password ?? generatedPassword!);
  const now = nowIso();

  const user = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (user) {
    // The named account exists (say, registered as pending): make it the admin and give it this password.
    await db
      .updateTable('users')
      .set({ role: 'admin', disabled: 0, failed_attempts: 0, password_hash: passwordHash, updated_at: now })
      .where('id', '=', user.id)
      .execute();
  } else {
    await db
      .insertInto('users')
      .values({
        id: randomUUID(),
        email,
        password_hash: passwordHash,
        first_name: 'Platform',
        last_name: 'Admin',
        designation: 'Administrator',
        role: 'admin',
        disabled: 0,
        failed_attempts: 0,
        photo_file_id: null,
        created_at: now,
        updated_at: now,
      })
      .execute();
  }
  return { email, ...(generatedPassword ? { generatedPassword } : {}) };
}
