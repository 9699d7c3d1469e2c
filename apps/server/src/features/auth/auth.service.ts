import { randomBytes, randomUUID } from 'node:crypto';
import {
  AUTH_MESSAGES,
  FAILED_LOGIN_THRESHOLD,
  isAccountEmail,
  REAUTHENTICATION_MESSAGES,
  SECOND_FACTOR_MESSAGES,
  SPRAY_ACCOUNTS,
  SPRAY_WINDOW_MS,
  type ReauthenticateInput,
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
import {
  claimSecondStepAttempt,
  claimSignInAttempt,
  clearFailedAttempts,
  clearSecondStepFailures,
  findSecondStepState,
  lockAccount,
  setPasswordHash,
} from './auth.repository';
import { hashPassword, verifyAgainstNothing, verifyPassword } from './passwords';
import {
  LOGIN_FAILURES_PER_ACCOUNT,
  LOGIN_PER_ADDRESS,
  PASSWORD_CHANGE_PER_USER,
  REAUTHENTICATE_PER_USER,
  REGISTER_PER_ADDRESS,
  SECOND_STEP_PER_ACCOUNT,
  SECOND_STEP_PER_ADDRESS,
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
  markSessionAuthenticated,
  type NewSession,
} from '../../plugins/sessions.repository';
import { revokeAllApiTokensOf } from '../../plugins/api-tokens.repository';
import { recordAudit } from '../audit/audit.service';
import {
  deletePendingSignIn,
  deletePendingSignInsOf,
  findPendingSignIn,
  insertPendingSignIn,
} from './second-factors.repository';
import {
  checkSecondStep,
  secondFactorNeeds,
  secondStepMethods,
  tellOwner,
  type RelyingParty,
} from './second-factor.service';

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
 * checked before the lock, and the third wrong one locks the account's password sign-in for `lockoutMs` (its
 * sessions and API tokens go on working). Until the right password is given, a disabled, locked, known or
 * unknown account all answer alike (by the count of failures alone); so sign-in never tells who has an
 * account or which is disabled. Failures are throttled per address and account together; an address that
 * failed on many accounts hears 429 for its wrong passwords, never for a right one (docs/security.md). A valid
 * session the browser still held is replaced.
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
  /** Records the failure and refuses: with `error`, or with 429 when the address is spraying. */
  const refuse = async (role: string, error: AppError): Promise<never> => {
    await recordFailure(role);
    if (await isSpraying(db, client)) throw sprayThrottled();
    throw error;
  };
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
    return refuse('unknown', count >= FAILED_LOGIN_THRESHOLD ? disabledAccount() : invalidCredentials());
  }

  const attempt = await countSignInAttempt(db, user.id, policy);
  if (attempt === undefined || attempt > FAILED_LOGIN_THRESHOLD) {
    // Locked, or locked just now by this attempt (one of a parallel burst): refused without checking the password.
    if (attempt !== undefined) await lockUser(db, user.id, policy, true);
    return refuse(user.role, disabledAccount());
  }
  if (!(await verifyPassword(user.password_hash, input.password))) {
    if (attempt >= FAILED_LOGIN_THRESHOLD) await lockUser(db, user.id, policy);
    return refuse(user.role, attempt < FAILED_LOGIN_THRESHOLD ? invalidCredentials() : disabledAccount());
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

/**
 * One address failing on many accounts is password spraying. Its wrong passwords then answer 429; a right
 * password is never refused for other accounts' failures (a class behind one address must still sign in), so
 * the attempts themselves are bounded by the per-address rate and each account's own lock.
 */
async function isSpraying(db: Db, client: Client): Promise<boolean> {
  if (!client.ip) return false;
  const since = new Date(Date.now() - SPRAY_WINDOW_MS).toISOString();
  return (await distinctFailedAccountsFrom(db, client.ip, since)) >= SPRAY_ACCOUNTS;
}

const sprayThrottled = () => tooManyRequests(SECOND_FACTOR_MESSAGES.sprayThrottled, SPRAY_WINDOW_MS / 1000);

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

/** After the n-th wrong second step, the next one waits this long (doubling each time) until the lock. */
export const SECOND_STEP_BACKOFF_MS = 2000;

export function secondStepBackoffMs(failures: number): number {
  return failures < 1 ? 0 : SECOND_STEP_BACKOFF_MS * 2 ** (failures - 1);
}

/**
 * Checks a second step against the account's own count of wrong second steps (docs/security.md): each attempt
 * is counted before it is checked and stays counted until a sign-in is completed, so a right password buys no
 * fresh guesses. A wrong one makes the next wait (doubling); the third since the last completed sign-in locks the
 * account and tells every admin; after the lock lifts one try per lock period is checked, and a wrong one locks
 * again.
 * Throws when refused; returns the method that passed.
 */
async function checkSecondStepCounted(
  db: Db,
  user: User,
  proof: Parameters<typeof checkSecondStep>[2],
  rp: RelyingParty,
  client: Client,
  policy: LockoutPolicy,
  /** Called when this attempt finds or leaves the account locked; may name the error to answer instead. */
  onLocked: () => Promise<AppError | void>,
): Promise<'totp' | 'passkey' | 'recovery'> {
  const state = await findSecondStepState(db, user.id);
  const failures = state?.second_step_failures ?? 0;
  const lastFailure = state?.second_step_failed_at ? Date.parse(state.second_step_failed_at) : 0;
  const locked = state?.locked_until ? Date.parse(state.locked_until) > Date.now() : false;
  if (!locked && failures < FAILED_LOGIN_THRESHOLD) {
    const waitMs = lastFailure + secondStepBackoffMs(failures) - Date.now();
    if (waitMs > 0) {
      const seconds = Math.ceil(waitMs / 1000);
      throw tooManyRequests(
        `Wait ${seconds} second${seconds === 1 ? '' : 's'} before trying another code: each wrong one makes the next wait longer.`,
        seconds,
      );
    }
  }
  const attempt = await claimSecondStepAttempt(db, user.id, {
    now: nowIso(),
    threshold: FAILED_LOGIN_THRESHOLD,
    lastAtThresholdBefore: new Date(Date.now() - policy.lockoutMs).toISOString(),
  });
  // Locked, or at the threshold with this lock period's one try already taken: refused unchecked.
  if (attempt === undefined) throw (await onLocked()) ?? disabledAccount();
  const method = await checkSecondStep(db, user, proof, rp);
  if (!method) {
    await recordLoginEvent(db, { email: user.email, role: user.role, event: 'failed_second_factor', ip: client.ip });
    if (attempt < FAILED_LOGIN_THRESHOLD) throw new AppError(401, SECOND_FACTOR_MESSAGES.wrongCode);
    await lockUser(db, user.id, policy);
    throw (await onLocked()) ?? disabledAccount();
  }
  return method;
}

/**
 * The second step: a one-time code, a recovery code or a passkey, limited per address and per account and
 * counted per account (checkSecondStepCounted); the right one ends the pending state and opens the session.
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
  await consumeRateLimit(db, SECOND_STEP_PER_ADDRESS, client.ip ?? 'unknown');
  const { pending, user } = await loadPendingSignIn(db, token);
  await consumeRateLimit(db, SECOND_STEP_PER_ACCOUNT, user.id);
  const method = await checkSecondStepCounted(
    db,
    user,
    'code' in proof ? proof : { response: proof.response, challenge: pending.challenge },
    rp,
    client,
    policy,
    () => deletePendingSignInsOf(db, user.id),
  );
  const fresh = await findUserById(db, user.id);
  // Locked meanwhile by a parallel guess, or disabled by an admin: the right second step may now hear so.
  const lockedNow = fresh?.locked_until ? Date.parse(fresh.locked_until) > Date.now() : false;
  if (!fresh || fresh.disabled === 1 || fresh.role === 'pending' || lockedNow) throw disabledAccount();
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
    await clearSecondStepFailures(trx, fresh.id);
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
 * Locks the account's password sign-in (its sessions and API tokens go on working: three anonymous guesses must
 * not knock its owner out). When this call locked it (or the caller's attempt did), every admin is told by the
 * bell; the notification lets them lift the lock at once.
 */
async function lockUser(db: Db, userId: string, policy: LockoutPolicy, lockedByAttempt = false): Promise<void> {
  const { lockedNow, adminIds } = await db.transaction().execute(async (trx) => {
    const lockedNow = (await lockAccount(trx, userId, isoFromNow(policy.lockoutMs))) || lockedByAttempt;
    const user = lockedNow ? await findUserById(trx, userId) : undefined;
    const adminIds = user ? await listAdminIds(trx) : [];
    if (user) {
      await insertNotifications(trx, adminIds, {
        kind: ACCOUNT_LOCKED_NOTIFICATION,
        message:
          `${user.first_name} ${user.last_name} (${user.email}) was locked out after ${FAILED_LOGIN_THRESHOLD} failed ` +
          `sign-ins: new password sign-ins are refused (sessions and API tokens go on working); the lock lifts by ` +
          `itself in ${Math.round(policy.lockoutMs / 60_000)} minutes.`,
        link: `/admin/users?unlock=${encodeURIComponent(userId)}`,
      });
    }
    return { lockedNow, adminIds };
  });
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
export const SIGNED_OUT_AFTER_WRONG_CODES =
  'The code was wrong too many times, so you have been signed out. Sign in again to continue.';
export const PASSWORD_LOCKED_WHILE_SIGNED_IN =
  'Password sign-in to your account is locked for a while after failed attempts. Try again when the lock lifts, ' +
  'or confirm with a code from your authenticator app.';

/**
 * Checks the signed-in person's password (a password change, a re-authentication). A wrong one counts toward
 * the lockout like a failed sign-in; the third locks password sign-in and ends this session (a stolen session
 * must not guess on). While the lock holds the password is not checked, and the session stays.
 */
async function checkOwnPassword(
  db: Db,
  user: User,
  password: string,
  client: Client,
  policy: LockoutPolicy,
  sessionId: string | null,
  wrongMessage: string,
): Promise<void> {
  const signOut = async () => {
    if (sessionId) await deleteSession(db, sessionId);
    await endStreamsOfEndedSessions(db, [user.id]);
    throw unauthorized(SIGNED_OUT_AFTER_FAILED_CHANGES);
  };
  const attempt = await countSignInAttempt(db, user.id, policy);
  if (attempt === undefined) throw new AppError(403, PASSWORD_LOCKED_WHILE_SIGNED_IN);
  if (attempt > FAILED_LOGIN_THRESHOLD) {
    await lockUser(db, user.id, policy, true);
    return signOut();
  }
  if (!(await verifyPassword(user.password_hash, password))) {
    await recordLoginEvent(db, { email: user.email, role: user.role, event: 'failed_login', ip: client.ip });
    if (attempt < PASSWORD_CHANGE_FAILURES_BEFORE_SIGN_OUT) throw badRequest(wrongMessage);
    await lockUser(db, user.id, policy);
    return signOut();
  }
  await clearFailedAttempts(db, user.id, attempt);
}

/**
 * Verifies the current password, stores the new one, ends the user's other sessions and replaces this one
 * (the new session is returned: its cookie must be set), and unless told otherwise revokes the user's API
 * tokens. Audited, and the owner is told in the bell. A wrong current password counts toward the lockout like
 * a failed sign-in; the third ends the session.
 */
export async function changePassword(
  db: Db,
  user: User,
  input: { currentPassword: string; newPassword: string; revokeApiTokens?: boolean },
  client: Client,
  policy: LockoutPolicy,
  sessionId: string | null,
  /** The session being replaced was held back by the second-factor policy: the replacement is too. */
  secondFactorDue = false,
): Promise<NewSession> {
  await consumeRateLimit(db, PASSWORD_CHANGE_PER_USER, user.id);
  await checkOwnPassword(
    db,
    user,
    input.currentPassword,
    client,
    policy,
    sessionId,
    'The current password is incorrect.',
  );
  const passwordHash = await hashPassword(input.newPassword);
  const session = await db.transaction().execute(async (trx) => {
    const now = nowIso();
    await setPasswordHash(trx, user.id, passwordHash, now);
    await deleteUserSessions(trx, user.id);
    const replacement = await createSession(trx, user.id, client, { secondFactorDue });
    const revoked = input.revokeApiTokens === false ? [] : await revokeAllApiTokensOf(trx, user.id, now);
    await recordLoginEvent(trx, { email: user.email, role: user.role, event: 'password_change', ip: client.ip });
    await recordAudit(trx, {
      actor: user.email,
      action: 'change password',
      details: `Changed their password; ended their other sessions${revokedNote(revoked)}`,
      screen: 'Settings',
    });
    await tellOwner(
      trx,
      user.id,
      `Your password was changed and your other sessions were ended${revokedNote(revoked)}.`,
    );
    return replacement;
  });
  await endStreamsOfEndedSessions(db, [user.id]);
  await notifyRecipients(db, [user.id]);
  return session;
}

/** "; revoked 2 API tokens" for an audit entry or a notice, or nothing when none was revoked. */
export function revokedNote(names: string[]): string {
  if (names.length === 0) return '';
  return `; revoked ${names.length} API token${names.length === 1 ? '' : 's'} (${names.map((name) => `"${name}"`).join(', ')})`;
}

/**
 * Re-authentication: the signed-in person gives their password or a one-time code from an authenticator app, and
 * account-security changes are open to this session for REAUTHENTICATION_WINDOW_MS (plugins/access.ts). Wrong
 * passwords count toward the lockout and wrong codes toward the second-step count, as at sign-in.
 */
export async function reauthenticate(
  db: Db,
  user: User,
  sessionId: string,
  input: ReauthenticateInput,
  client: Client,
  policy: LockoutPolicy,
  rp: RelyingParty,
): Promise<void> {
  await consumeRateLimit(db, REAUTHENTICATE_PER_USER, user.id);
  if (input.password !== undefined) {
    await checkOwnPassword(
      db,
      user,
      input.password,
      client,
      policy,
      sessionId,
      REAUTHENTICATION_MESSAGES.wrongPassword,
    );
  } else {
    const hasApp = (await secondStepMethods(db, user.id)).includes('totp');
    if (!hasApp) throw badRequest('You have no authenticator app: confirm with your password.');
    await checkSecondStepCounted(db, user, { code: input.code ?? '' }, rp, client, policy, async () => {
      await deleteSession(db, sessionId);
      await endStreamsOfEndedSessions(db, [user.id]);
      return unauthorized(SIGNED_OUT_AFTER_WRONG_CODES);
    });
  }
  await markSessionAuthenticated(db, sessionId, nowIso());
}
