import { randomUUID } from 'node:crypto';
import { AUTH_MESSAGES, FAILED_LOGIN_THRESHOLD, type registerInputSchema } from '@tradecraft/shared';
import type { z } from 'zod';
import { nowIso } from '../../clock';
import type { Db } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import type { User } from '../../db/schema';
import { AppError, badRequest, conflict } from '../../errors';
import { countUnknownEmailFailures, recordLoginEvent } from '../activity/activity.repository';
import { notifyRecipients } from '../notifications/notifications.hub';
import { insertNotifications } from '../notifications/notifications.repository';
import { findUserByEmail, findUserById, listAdminIds } from '../users/users.repository';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './passwords';
import {
  LOGIN_FAILURES_PER_ACCOUNT,
  LOGIN_PER_ADDRESS,
  REGISTER_PER_ADDRESS,
  assertUnderRateLimit,
  consumeRateLimit,
  incrementRateLimit,
} from './rate-limit';
import { createSession, deleteSession, deleteUserSessions, type NewSession } from '../../plugins/sessions.repository';

export interface Client {
  ip: string | null;
  userAgent: string | null;
}

type RegisterInput = z.output<typeof registerInputSchema>;

/** Creates a pending account and tells every admin, in one transaction. */
export async function registerUser(db: Db, input: RegisterInput, client: Client): Promise<void> {
  await consumeRateLimit(db, REGISTER_PER_ADDRESS, client.ip ?? 'unknown');
  const passwordHash = await hashPassword(input.password);
  const now = nowIso();
  let adminIds: string[] = [];
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('users')
        .values({
          id: randomUUID(),
          email: input.email,
          password_hash: passwordHash,
          first_name: input.firstName,
          last_name: input.lastName,
          designation: input.designation,
          role: 'pending',
          disabled: 0,
          failed_attempts: 0,
          photo_file_id: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
      adminIds = await listAdminIds(trx);
      await insertNotifications(trx, adminIds, {
        kind: 'registration',
        message: `${input.firstName} ${input.lastName} (${input.email}) registered and awaits approval.`,
        link: '/admin/pending-users',
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict(`${AUTH_MESSAGES.registrationFailedPrefix}an account with this email already exists.`);
    }
    throw error;
  }
  await notifyRecipients(db, adminIds); // after the commit: the admins' bells fetch rows that now exist
}

const invalidCredentials = () => new AppError(401, AUTH_MESSAGES.invalidCredentials);
const disabledAccount = () => new AppError(403, AUTH_MESSAGES.disabled);

/**
 * Signs a user in, or refuses with the product's sign-in messages. Wrong passwords count atomically; the third disables
 * the account. An unknown email answers exactly as a wrong password would (and, after three tries, as a
 * disabled account would), so sign-in never tells who has an account.
 */
export async function signIn(
  db: Db,
  input: { email: string; password: string },
  client: Client,
): Promise<{ user: User; session: NewSession }> {
  const email = input.email.trim().toLowerCase();
  const accountKey = `${client.ip ?? 'unknown'}:${email}`;
  await consumeRateLimit(db, LOGIN_PER_ADDRESS, client.ip ?? 'unknown');
  await assertUnderRateLimit(db, LOGIN_FAILURES_PER_ACCOUNT, accountKey);
  const countFailure = () => incrementRateLimit(db, LOGIN_FAILURES_PER_ACCOUNT, accountKey);

  const user = await findUserByEmail(db, email);
  if (!user) {
    await verifyAgainstNothing(input.password);
    await countFailure();
    const earlierFailures = await countUnknownEmailFailures(db, email);
    await recordLoginEvent(db, { email, role: 'unknown', event: 'failed_login', ip: client.ip });
    throw earlierFailures + 1 >= FAILED_LOGIN_THRESHOLD ? disabledAccount() : invalidCredentials();
  }

  if (!(await verifyPassword(user.password_hash, input.password))) {
    await countFailure();
    const counted = await recordFailedSignIn(db, user.id);
    await recordLoginEvent(db, { email, role: user.role, event: 'failed_login', ip: client.ip });
    throw counted.disabled === 1 ? disabledAccount() : invalidCredentials();
  }
  if (user.disabled === 1) {
    await recordLoginEvent(db, { email, role: user.role, event: 'failed_login', ip: client.ip });
    throw disabledAccount();
  }
  if (user.role === 'pending') {
    throw new AppError(403, AUTH_MESSAGES.pending);
  }

  return db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ failed_attempts: 0, disabled: 0 })
      .where('id', '=', user.id)
      .execute();
    const session = await createSession(trx, user.id, client);
    await recordLoginEvent(trx, { email, role: user.role, event: 'login', ip: client.ip });
    return { user: { ...user, failed_attempts: 0 }, session };
  });
}

/** One more failed attempt, counted in a single statement so concurrent attempts all count. */
async function recordFailedSignIn(db: Db, userId: string): Promise<{ failedAttempts: number; disabled: number }> {
  const row = await db
    .updateTable('users')
    .set((eb) => ({
      failed_attempts: eb('failed_attempts', '+', 1),
      disabled: eb
        .case()
        .when('failed_attempts', '>=', FAILED_LOGIN_THRESHOLD - 1)
        .then(1)
        .else(eb.ref('disabled'))
        .end(),
    }))
    .where('id', '=', userId)
    .returning(['failed_attempts', 'disabled'])
    .executeTakeFirstOrThrow();
  if (row.disabled === 1) await deleteUserSessions(db, userId);
  return { failedAttempts: row.failed_attempts, disabled: row.disabled };
}

export async function signOut(db: Db, user: User | null, sessionId: string | null, client: Client): Promise<void> {
  if (!sessionId || !user) return;
  await db.transaction().execute(async (trx) => {
    await deleteSession(trx, sessionId);
    await recordLoginEvent(trx, { email: user.email, role: user.role, event: 'logout', ip: client.ip });
  });
}

/** Verifies the current password, stores the new one and ends the user's other sessions. */
export async function changePassword(
  db: Db,
  user: User,
  sessionId: string,
  input: { currentPassword: string; newPassword: string },
  client: Client,
): Promise<void> {
  const fresh = await findUserById(db, user.id);
  if (!fresh || !(await verifyPassword(fresh.password_hash, input.currentPassword))) {
    throw badRequest('The current password is incorrect.');
  }
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set({ password_hash: passwordHash, updated_at: nowIso() })
      .where('id', '=', user.id)
      .execute();
    await deleteUserSessions(trx, user.id, sessionId);
    await recordLoginEvent(trx, { email: user.email, role: user.role, event: 'password_change', ip: client.ip });
  });
}
