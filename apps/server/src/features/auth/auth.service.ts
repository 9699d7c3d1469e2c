import { randomBytes, randomUUID } from 'node:crypto';
import {
  AUTH_MESSAGES,
  FAILED_LOGIN_THRESHOLD,
  isAccountEmail,
  SECOND_FACTOR_MESSAGES,
  SPRAY_ACCOUNTS,
  SPRAY_WINDOW_MS,
  type registerInputSchema,
} from '@tradecraft/shared';
import type { z } from 'zod';
import { isoFromNow, nowIso } from '../../clock';
import type { Db } from '../../db/database';
import { isUniqueViolation } from '../../db/errors';
import type { User } from '../../db/schema';
import { AppError, badRequest, tooManyRequests, unauthorized } from '../../errors';
import { distinctFailedAccountsFrom, recordLoginEvent } from '../activity/activity.service';
import { recordAuditAlone } from '../audit/audit.service';
import { endStreamsOfEndedSessions, notifyRecipients } from '../notifications/notifications.hub';
import { insertNotifications, REGISTRATION_KIND } from '../notifications/notifications.service';
import { findUserByEmail, findUserById, insertUser, listAdminIds } from '../users/users.service';
import { claimSignInAttempt, clearFailedAttempts, lockAccount, setPasswordHash } from './auth.repository';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './passwords';
import {
  LOGIN_FAILURES_PER_ACCOUNT,
  LOGIN_PER_ADDRESS,
  PASSWORD_CHANGE_PER_USER,
  REGISTER_PER_ADDRESS,
  assertUnderRateLimit,
  consumeRateLimit,
  incrementRateLimit,
  type RateLimit,
} from './rate-limit';
import {
  createSession,
  deleteSession,
  deleteUserSessions,
  hashToken,
  type NewSession,
} from '../../plugins/sessions.repository';
import {
  deletePendingSignIn,
  deletePendingSignInsOf,
  findPendingSignIn,
  insertPendingSignIn,
} from './second-factors.repository';
import { checkSecondStep, secondFactorNeeds, type RelyingParty } from './second-factor.service';

export interface Client {
  ip: string | null;
  userAgent: string | null;
}

type RegisterInput = z.output<typeof registerInputSchema>;

/**
 * Creates a pending account and tells every admin, in one transaction. An email that already has an account
 * gets the very same answer, so registration never tells who has an account; the account's owner is told
 * through the bell instead.
 */
export async function registerUser(db: Db, input: RegisterInput, client: Client): Promise<void> {
  await consumeRateLimit(db, REGISTER_PER_ADDRESS, client.ip ?? 'unknown');
  const passwordHash = await hashPassword(input.password);
  const now = nowIso();
  let adminIds: string[] = [];
  const id = randomUUID();
  try {
    await db.transaction().execute(async (trx) => {
      await insertUser(trx, {
        id,
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
      });
      adminIds = await listAdminIds(trx);
      await insertNotifications(trx, adminIds, {
        kind: REGISTRATION_KIND,
        message: `${input.firstName} ${input.lastName} (${input.email}) registered and awaits approval.`,
        link: '/admin/pending-users',
        subjectId: id,
      });
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await tellOwnerOfRegistrationAttempt(db, input.email);
    return;
  }
  await notifyRecipients(db, adminIds); // after the commit: the admins' bells fetch rows that now exist
}

async function tellOwnerOfRegistrationAttempt(db: Db, email: string): Promise<void> {
  const owner = await findUserByEmail(db, email);
  if (!owner) return;
  await insertNotifications(db, [owner.id], {
    kind: 'registration-attempt',
    message:
      'Someone tried to register a new account with your email address. If it was you, sign in with your ' +
      'password instead; if not, you need do nothing.',
    link: null,
  });
  await notifyRecipients(db, [owner.id]);
}

const invalidCredentials = () => new AppError(401, AUTH_MESSAGES.invalidCredentials);
const disabledAccount = () => new AppError(403, AUTH_MESSAGES.disabled);

export interface LockoutPolicy {
  /** How long the third wrong password locks the account. */
  lockoutMs: number;
}

/** What the sign-in log keeps as the email of an attempt on an unknown account. */
export const NOT_AN_EMAIL = '(not an email)';

/** Free text typed into the email field (a password, say) must not end up in the sign-in log. */
export function loggableEmail(email: string): string {
  return isAccountEmail(email) ? email : NOT_AN_EMAIL;
}

/**
 * Signs a user in, or refuses with the product's sign-in messages. Every attempt is counted before its
 * password is checked, so parallel guesses cannot get round the count: at most three passwords are ever
 * checked before the lock, and the third wrong one locks the account for `lockoutMs`. Until the right
 * password is given, a disabled, locked, known or unknown account all answer alike (by the count of
 * failures alone); so sign-in never tells who has an account or which is disabled. A valid session the
 * browser still held is replaced.
 */
export async function signIn(
  db: Db,
  input: { email: string; password: string },
  client: Client,
  policy: LockoutPolicy,
  replacedSessionId: string | null = null,
): Promise<SignInResult> {
  const email = input.email.trim().toLowerCase();
  const accountKey = `${client.ip ?? 'unknown'}:${email}`;
  await consumeRateLimit(db, LOGIN_PER_ADDRESS, client.ip ?? 'unknown');
  await assertUnderRateLimit(db, LOGIN_FAILURES_PER_ACCOUNT, accountKey);
  await assertNotSpraying(db, client);
  const recordFailure = async (role: string) => {
    await incrementRateLimit(db, LOGIN_FAILURES_PER_ACCOUNT, accountKey);
    await recordLoginEvent(db, {
      email: role === 'unknown' ? loggableEmail(email) : email,
      role,
      event: 'failed_login',
      ip: client.ip,
    });
  };

  const user = await findUserByEmail(db, email);
  if (!user) {
    await verifyAgainstNothing(input.password);
    // The same count and lock period as a real account, kept per typed email.
    const { count } = await incrementRateLimit(db, unknownAccountFailures(policy), email);
    await recordFailure('unknown');
    throw count >= FAILED_LOGIN_THRESHOLD ? disabledAccount() : invalidCredentials();
  }

  const attempt = await countSignInAttempt(db, user.id, policy);
  if (attempt === undefined || attempt > FAILED_LOGIN_THRESHOLD) {
    // Locked, or locked just now by this attempt (one of a parallel burst): refused without checking the password.
    if (attempt !== undefined) await lockUser(db, user.id, policy, true);
    await recordFailure(user.role);
    throw disabledAccount();
  }
  if (!(await verifyPassword(user.password_hash, input.password))) {
    await recordFailure(user.role);
    if (attempt < FAILED_LOGIN_THRESHOLD) throw invalidCredentials();
    await lockUser(db, user.id, policy);
    throw disabledAccount();
  }

  const fresh = await clearFailedAttempts(db, user.id, attempt);
  if (!fresh || fresh.disabled === 1) {
    // Locked by a parallel guess, or disabled by an admin: the right password may now hear so.
    await recordLoginEvent(db, { email, role: user.role, event: 'failed_login', ip: client.ip });
    throw disabledAccount();
  }
  if (fresh.role === 'pending') {
    throw new AppError(403, AUTH_MESSAGES.pending);
  }

  const needs = await secondFactorNeeds(db, fresh);
  if (needs.enrolled) return { user: fresh, pendingToken: await startPendingSignIn(db, fresh.id, client) };
  // Required but not enrolled: the session may only enrol until a factor is added (plugins/access.ts).
  return {
    ...(await completeSignIn(db, fresh, client, replacedSessionId, { secondFactorDue: needs.required })),
    mustEnrol: needs.required,
  };
}

export type SignInResult =
  | { user: User; session: NewSession; mustEnrol: boolean; pendingToken?: undefined }
  | { user: User; pendingToken: string; session?: undefined };

/** One address failing on many accounts is password spraying: it waits, whichever account it tries next. */
async function assertNotSpraying(db: Db, client: Client): Promise<void> {
  if (!client.ip) return;
  const since = new Date(Date.now() - SPRAY_WINDOW_MS).toISOString();
  if ((await distinctFailedAccountsFrom(db, client.ip, since)) >= SPRAY_ACCOUNTS) {
    throw tooManyRequests(SECOND_FACTOR_MESSAGES.sprayThrottled, SPRAY_WINDOW_MS / 1000);
  }
}

/** How long the second step may take after the right password. */
export const SECOND_STEP_MS = 5 * 60 * 1000;

/** Starts a sign-in waiting for its second step (its token goes in the pending cookie); single sign-on uses it too. */
export async function startPendingSignIn(db: Db, userId: string, client: Client): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await insertPendingSignIn(db, {
    id: hashToken(token),
    user_id: userId,
    ip: client.ip,
    user_agent: client.userAgent?.slice(0, 300) ?? null,
    created_at: nowIso(),
    expires_at: isoFromNow(SECOND_STEP_MS),
  });
  return token;
}

/** The pending sign-in of a cookie token with its user, or a 400 that sends the person back to the password. */
export async function loadPendingSignIn(db: Db, token: string | undefined) {
  const pending = token && token.length <= 100 ? await findPendingSignIn(db, hashToken(token), nowIso()) : undefined;
  const user = pending ? await findUserById(db, pending.user_id) : undefined;
  if (!pending || !user) throw badRequest(SECOND_FACTOR_MESSAGES.expired);
  return { pending, user };
}

/**
 * The second step: a one-time code, a recovery code or a passkey. Each attempt counts toward the lockout like a
 * wrong password (the third locks the account); the right one ends the pending state and opens the session.
 */
export async function completeSecondStep(
  db: Db,
  token: string | undefined,
  proof: { code: string } | { response: Record<string, unknown> },
  client: Client,
  policy: LockoutPolicy,
  rp: RelyingParty,
  replacedSessionId: string | null = null,
): Promise<{ user: User; session: NewSession }> {
  const { pending, user } = await loadPendingSignIn(db, token);
  const attempt = await countSignInAttempt(db, user.id, policy);
  if (attempt === undefined || attempt > FAILED_LOGIN_THRESHOLD) {
    if (attempt !== undefined) await lockUser(db, user.id, policy, true);
    await deletePendingSignIn(db, pending.id);
    throw disabledAccount();
  }
  const method = await checkSecondStep(
    db,
    user,
    'code' in proof ? proof : { response: proof.response, challenge: pending.challenge },
    rp,
  );
  if (!method) {
    await recordLoginEvent(db, { email: user.email, role: user.role, event: 'failed_second_factor', ip: client.ip });
    if (attempt < FAILED_LOGIN_THRESHOLD) throw new AppError(401, SECOND_FACTOR_MESSAGES.wrongCode);
    await lockUser(db, user.id, policy);
    await deletePendingSignInsOf(db, user.id);
    throw disabledAccount();
  }
  const fresh = await clearFailedAttempts(db, user.id, attempt);
  if (!fresh || fresh.disabled === 1 || fresh.role === 'pending') throw disabledAccount();
  await deletePendingSignIn(db, pending.id);
  if (method === 'recovery') {
    await recordLoginEvent(db, { email: user.email, role: user.role, event: 'recovery_code_used', ip: client.ip });
    await recordAuditAlone(db, {
      actor: user.email,
      action: 'use recovery code',
      details: 'Signed in with a recovery code',
      screen: 'Sign in',
    });
  }
  return completeSignIn(db, fresh, client, replacedSessionId);
}

async function completeSignIn(
  db: Db,
  fresh: User,
  client: Client,
  replacedSessionId: string | null,
  options: { secondFactorDue?: boolean } = {},
): Promise<{ user: User; session: NewSession }> {
  const email = fresh.email;
  const signedIn = await db.transaction().execute(async (trx) => {
    if (replacedSessionId) await deleteSession(trx, replacedSessionId);
    const session = await createSession(trx, fresh.id, client, options);
    await recordLoginEvent(trx, { email, role: fresh.role, event: 'login', ip: client.ip });
    return { user: fresh, session };
  });
  if (replacedSessionId) await endStreamsOfEndedSessions(db, [fresh.id]);
  return signedIn;
}

const unknownAccountFailures = (policy: LockoutPolicy): RateLimit => ({
  name: 'unknown-account-failures',
  max: FAILED_LOGIN_THRESHOLD,
  windowMs: policy.lockoutMs,
  message: AUTH_MESSAGES.disabled,
});

function countSignInAttempt(db: Db, userId: string, policy: LockoutPolicy): Promise<number | undefined> {
  return claimSignInAttempt(db, userId, {
    now: nowIso(),
    lockedUntil: isoFromNow(policy.lockoutMs),
    threshold: FAILED_LOGIN_THRESHOLD,
  });
}

/**
 * Locks the account and ends its sessions (and their notification streams). When this call locked it (or the
 * caller's attempt did), every admin is told by the bell; the notification lets them lift the lock at once.
 */
async function lockUser(db: Db, userId: string, policy: LockoutPolicy, lockedByAttempt = false): Promise<void> {
  const { lockedNow, adminIds } = await db.transaction().execute(async (trx) => {
    const lockedNow = (await lockAccount(trx, userId, isoFromNow(policy.lockoutMs))) || lockedByAttempt;
    await deleteUserSessions(trx, userId);
    const user = lockedNow ? await findUserById(trx, userId) : undefined;
    const adminIds = user ? await listAdminIds(trx) : [];
    if (user) {
      await insertNotifications(trx, adminIds, {
        kind: ACCOUNT_LOCKED_NOTIFICATION,
        message:
          `${user.first_name} ${user.last_name} (${user.email}) was locked out after ${FAILED_LOGIN_THRESHOLD} failed ` +
          `sign-ins; the lock lifts by itself in ${Math.round(policy.lockoutMs / 60_000)} minutes.`,
        link: `/admin/users?unlock=${encodeURIComponent(userId)}`,
      });
    }
    return { lockedNow, adminIds };
  });
  await endStreamsOfEndedSessions(db, [userId]);
  if (lockedNow) await notifyRecipients(db, adminIds);
}

/** The kind of the bell notification an admin gets when an account is locked out. */
export const ACCOUNT_LOCKED_NOTIFICATION = 'account-locked';

export async function signOut(db: Db, user: User | null, sessionId: string | null, client: Client): Promise<void> {
  if (!sessionId || !user) return;
  await db.transaction().execute(async (trx) => {
    await deleteSession(trx, sessionId);
    await recordLoginEvent(trx, { email: user.email, role: user.role, event: 'logout', ip: client.ip });
  });
  await endStreamsOfEndedSessions(db, [user.id]);
}

/** Failed password changes that end the session (they count toward the lockout as well). */
export const PASSWORD_CHANGE_FAILURES_BEFORE_SIGN_OUT = FAILED_LOGIN_THRESHOLD;
export const SIGNED_OUT_AFTER_FAILED_CHANGES =
  'The current password was wrong too many times, so you have been signed out. Sign in again to continue.';

/**
 * Verifies the current password, stores the new one, ends the user's other sessions and replaces this one
 * (the new session is returned: its cookie must be set). A wrong current password counts toward the
 * lockout like a failed sign-in; the third ends the session.
 */
export async function changePassword(
  db: Db,
  user: User,
  input: { currentPassword: string; newPassword: string },
  client: Client,
  policy: LockoutPolicy,
  /** The session being replaced was held back by the second-factor policy: the replacement is too. */
  secondFactorDue = false,
): Promise<NewSession> {
  await consumeRateLimit(db, PASSWORD_CHANGE_PER_USER, user.id);
  const attempt = await countSignInAttempt(db, user.id, policy);
  if (attempt === undefined || attempt > FAILED_LOGIN_THRESHOLD) {
    await lockUser(db, user.id, policy); // ends this session too
    throw unauthorized(SIGNED_OUT_AFTER_FAILED_CHANGES);
  }
  if (!(await verifyPassword(user.password_hash, input.currentPassword))) {
    await recordLoginEvent(db, { email: user.email, role: user.role, event: 'failed_login', ip: client.ip });
    if (attempt < PASSWORD_CHANGE_FAILURES_BEFORE_SIGN_OUT) throw badRequest('The current password is incorrect.');
    await lockUser(db, user.id, policy);
    throw unauthorized(SIGNED_OUT_AFTER_FAILED_CHANGES);
  }
  const passwordHash = await hashPassword(input.newPassword);
  const session = await db.transaction().execute(async (trx) => {
    await setPasswordHash(trx, user.id, passwordHash, nowIso());
    await deleteUserSessions(trx, user.id);
    const replacement = await createSession(trx, user.id, client, { secondFactorDue });
    await recordLoginEvent(trx, { email: user.email, role: user.role, event: 'password_change', ip: client.ip });
    return replacement;
  });
  await endStreamsOfEndedSessions(db, [user.id]);
  return session;
}
