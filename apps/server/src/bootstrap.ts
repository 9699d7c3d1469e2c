import { randomUUID } from 'node:crypto';
import { meetsPasswordRule, PASSWORD_RULE_MESSAGE } from '@tradecraft/shared';
import { nowIso } from './clock';
import { takeTransactionLock, type Db } from './db/database';
import type { User } from './db/schema';
import { recordAudit } from './features/audit/audit.service';
import { generatePassword, hashPassword, verifyPassword } from './features/auth/passwords';
import { removeAllSecondFactors } from './features/auth/second-factor.service';
import { findAnyAdminId, findUserByEmail, restoreAccess, upsertAdmin } from './features/users/users.repository';
import { deleteUserSessions } from './plugins/sessions.repository';

export interface AdminBootstrap {
  email: string;
  /** 'created' for a new admin; 'restored' when ADMIN_EMAIL's account was re-enabled, unlocked or reset. */
  action: 'created' | 'restored';
  /** Set only when a password was generated: print it once, it is stored nowhere in clear. */
  generatedPassword?: string;
}

const START_UP = 'Start-up';
const ADMIN_COMMAND = 'Admin command';

const normalised = (email: string) => email.trim().toLowerCase();

/**
 * Makes sure an admin exists and can sign in. With ADMIN_EMAIL and ADMIN_PASSWORD, that account is made an
 * enabled, unlocked admin with that password (created when missing; audited when anything changed), so a
 * locked-out admin is recovered by a restart. Otherwise, when no admin exists, ADMIN_EMAIL or
 * admin@localhost is created with a random password. Returns null when there was nothing to do.
 *
 * Safe when several servers start together on one database: the decision and the write happen under one
 * transaction-scoped lock, and the insert gives way to an account that appeared meanwhile.
 */
export async function ensureAdmin(
  db: Db,
  options: { email?: string | undefined; password?: string | undefined },
): Promise<AdminBootstrap | null> {
  if (options.password && !meetsPasswordRule(options.password)) {
    throw new Error(`ADMIN_PASSWORD: ${PASSWORD_RULE_MESSAGE}`);
  }
  const email = normalised(options.email ?? 'admin@localhost');
  if (options.password) return ensureNamedAdmin(db, email, options.password);

  if (await findAnyAdminId(db)) return null; // the usual start: no password hashed
  const generatedPassword = generatePassword();
  const passwordHash = await hashPassword(generatedPassword);
  const created = await db.transaction().execute(async (trx) => {
    await takeTransactionLock(trx, 'first-admin');
    if (await findAnyAdminId(trx)) return false; // another server made one meanwhile
    const now = nowIso();
    // The printed password is for one use: the account can only choose a new one until it does.
    await upsertAdmin(trx, { ...newAdmin(email, passwordHash, now), must_change_password: 1 });
    await recordAudit(trx, {
      actor: null,
      action: 'create admin',
      details: `Created the first admin ${email}`,
      screen: START_UP,
    });
    return true;
  });
  return created ? { email, action: 'created', generatedPassword } : null;
}

/** True when the account already is an enabled, unlocked admin with this password and no failed attempts. */
async function isReadyAdmin(user: User | undefined, password: string): Promise<boolean> {
  if (!user || user.role !== 'admin' || user.disabled !== 0 || user.locked_until !== null || user.failed_attempts !== 0)
    return false;
  return verifyPassword(user.password_hash, password);
}

async function ensureNamedAdmin(db: Db, email: string, password: string): Promise<AdminBootstrap | null> {
  if (await isReadyAdmin(await findUserByEmail(db, email), password)) return null;
  const passwordHash = await hashPassword(password);
  return db.transaction().execute(async (trx) => {
    await takeTransactionLock(trx, 'first-admin');
    const now = nowIso();
    const before = await findUserByEmail(trx, email);
    if (await isReadyAdmin(before, password)) return null; // another server did it meanwhile
    await upsertAdmin(trx, newAdmin(email, passwordHash, now));
    if (before) await deleteUserSessions(trx, before.id); // the password changed: old sessions end
    await recordAudit(trx, {
      actor: null,
      action: before ? 'restore admin' : 'create admin',
      details: before
        ? `ADMIN_EMAIL and ADMIN_PASSWORD at start-up: ${email} is an enabled, unlocked admin with the configured password`
        : `Created the admin ${email} from ADMIN_EMAIL`,
      screen: START_UP,
    });
    const action: AdminBootstrap['action'] = before ? 'restored' : 'created';
    return { email, action };
  });
}

function newAdmin(email: string, passwordHash: string, now: string) {
  return {
    id: randomUUID(),
    email,
    password_hash: passwordHash,
    first_name: 'Platform',
    last_name: 'Admin',
    designation: 'Administrator',
    role: 'admin' as const,
    disabled: 0,
    failed_attempts: 0,
    photo_file_id: null,
    created_at: now,
    updated_at: now,
  };
}

/** A recovery command that cannot be carried out as asked (the message says why). */
export class AccountRecoveryError extends Error {}

const unknownAccount = (email: string) => new AccountRecoveryError(`No account has the email ${email}.`);

/** `npm run admin -- unlock <email>`: re-enables the account and lifts its lock (audited). */
export async function unlockAccount(db: Db, rawEmail: string): Promise<void> {
  const email = normalised(rawEmail);
  await db.transaction().execute(async (trx) => {
    const user = await findUserByEmail(trx, email);
    if (!user) throw unknownAccount(email);
    await restoreAccess(trx, user.id, { now: nowIso() });
    await recordAudit(trx, {
      actor: null,
      action: 'unlock account',
      details: `Re-enabled ${email} and lifted its sign-in lock`,
      screen: ADMIN_COMMAND,
    });
  });
}

/**
 * `npm run admin -- reset-password <email>`: sets the password (a generated one when none is given, returned
 * to print), re-enables and unlocks the account, ends its sessions and removes its second factors (audited).
 */
export async function resetPassword(
  db: Db,
  rawEmail: string,
  password?: string,
): Promise<{ generatedPassword?: string }> {
  const email = normalised(rawEmail);
  if (password !== undefined && !meetsPasswordRule(password)) throw new AccountRecoveryError(PASSWORD_RULE_MESSAGE);
  if (!(await findUserByEmail(db, email))) throw unknownAccount(email);
  const generatedPassword = password === undefined ? generatePassword() : undefined;
  const passwordHash = await hashPassword(password ?? generatedPassword!);
  await db.transaction().execute(async (trx) => {
    const user = await findUserByEmail(trx, email);
    if (!user) throw unknownAccount(email);
    // A generated password is printed, so, like the first start's, it is for one use.
    await restoreAccess(trx, user.id, { passwordHash, oneUse: generatedPassword !== undefined, now: nowIso() });
    await deleteUserSessions(trx, user.id);
    // Recovery for someone who lost both their second factor and their recovery codes.
    const removedFactors = await removeAllSecondFactors(trx, user.id);
    await recordAudit(trx, {
      actor: null,
      action: 'reset password',
      details:
        `Set a new password for ${email}, re-enabled it, lifted its sign-in lock and ended its sessions` +
        (removedFactors > 0 ? `; removed its ${removedFactors} second factor(s) and recovery codes` : ''),
      screen: ADMIN_COMMAND,
    });
  });
  return generatedPassword ? { generatedPassword } : {};
}
