import { createHash, randomBytes } from 'node:crypto';
import { isoFromNow, nowIso } from '../clock';
import type { DbOrTrx } from '../db/database';
import { reusableQuery } from '../db/reusable-query';
import type { User } from '../db/schema';

export const SESSION_COOKIE = 'tc_session';
/** A session ends after this long without a request... */
export const SESSION_IDLE_MS = 12 * 60 * 60 * 1000;
/** ...and in any case this long after sign-in. */
export const SESSION_ABSOLUTE_MS = 7 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export interface NewSession {
  token: string;
  id: string;
  expiresAt: string;
}

export async function createSession(
  db: DbOrTrx,
  userId: string,
  client: { ip: string | null; userAgent: string | null },
  /**
   * `authenticated: false` for a session opened without the person proving who they are here and now; every
   * sign-in (password, second factor, single sign-on) counts as a proof.
   */
  options: { secondFactorDue?: boolean; authenticated?: boolean } = {},
): Promise<NewSession> {
  const token = randomBytes(32).toString('base64url');
  const id = hashToken(token);
  const now = nowIso();
  const expiresAt = isoFromNow(SESSION_ABSOLUTE_MS);
  await db
    .insertInto('sessions')
    .values({
      id,
      user_id: userId,
      created_at: now,
      last_seen_at: now,
      expires_at: expiresAt,
      ip: client.ip,
      user_agent: client.userAgent?.slice(0, 300) ?? null,
      second_factor_due: options.secondFactorDue ? 1 : 0,
      authenticated_at: options.authenticated === false ? null : now,
    })
    .execute();
  return { token, id, expiresAt };
}

export interface LoadedSession {
  sessionId: string;
  user: User;
  /** The platform requires a second factor and the person has not enrolled one yet. */
  secondFactorDue: boolean;
  /** When the person last gave their password or a second factor in this session (ISO), or null. */
  authenticatedAt: string | null;
}

// Every signed-in request reads its session: built and compiled once.
const sessionQuery = reusableQuery<
  { id: string },
  User & {
    session_id: string;
    last_seen_at: string;
    expires_at: string;
    second_factor_due: number;
    authenticated_at: string | null;
  }
>((db, param) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select([
      'sessions.id as session_id',
      'sessions.last_seen_at',
      'sessions.expires_at',
      'sessions.second_factor_due',
      'sessions.authenticated_at',
    ])
    .where('sessions.id', '=', param('id')),
);

/**
 * The live session for a cookie token with its user re-read, or null when expired, idle or unusable. A sign-in
 * lock does not end sessions: it refuses new password sign-ins only (docs/security.md).
 */
export async function loadSession(db: DbOrTrx, token: string): Promise<LoadedSession | null> {
  if (token.length < 20 || token.length > 100) return null;
  const id = hashToken(token);
  const [row] = await sessionQuery(db, { id });
  if (!row) return null;
  const now = Date.now();
  const idleFor = now - Date.parse(row.last_seen_at);
  if (Date.parse(row.expires_at) <= now || idleFor > SESSION_IDLE_MS || row.disabled === 1 || row.role === 'pending') {
    await deleteSession(db, id);
    return null;
  }
  if (idleFor > TOUCH_INTERVAL_MS) {
    await db.updateTable('sessions').set({ last_seen_at: nowIso() }).where('id', '=', id).execute();
  }
  const {
    session_id: sessionId,
    last_seen_at: _lastSeen,
    expires_at: _expires,
    second_factor_due: secondFactorDue,
    authenticated_at: authenticatedAt,
    ...user
  } = row;
  return { sessionId, user, secondFactorDue: secondFactorDue === 1, authenticatedAt };
}

/** The person enrolled a second factor: none of their sessions is held back any more. */
export async function clearSecondFactorDue(db: DbOrTrx, userId: string): Promise<void> {
  await db.updateTable('sessions').set({ second_factor_due: 0 }).where('user_id', '=', userId).execute();
}

/** The person proved who they are again in this session (password or second factor): the window starts now. */
export async function markSessionAuthenticated(db: DbOrTrx, sessionId: string, now: string): Promise<void> {
  await db.updateTable('sessions').set({ authenticated_at: now }).where('id', '=', sessionId).execute();
}

export async function deleteSession(db: DbOrTrx, sessionId: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sessionId).execute();
}

/** Ends every session of the user except the one given (password change, disable). */
export async function deleteUserSessions(db: DbOrTrx, userId: string, exceptSessionId?: string): Promise<void> {
  await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .$if(exceptSessionId !== undefined, (qb) => qb.where('id', '!=', exceptSessionId!))
    .execute();
}

export async function deleteExpiredSessions(db: DbOrTrx): Promise<void> {
  const now = nowIso();
  const idleCutoff = new Date(Date.now() - SESSION_IDLE_MS).toISOString();
  await db
    .deleteFrom('sessions')
    .where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<', idleCutoff)]))
    .execute();
}

/** The user's sessions, most recently used first (Settings lists them). */
export function listUserSessions(db: DbOrTrx, userId: string) {
  return db
    .selectFrom('sessions')
    .select(['id', 'ip', 'user_agent', 'created_at', 'last_seen_at'])
    .where('user_id', '=', userId)
    .orderBy('last_seen_at', 'desc')
    .execute();
}

/** Ends one session of the user; false when it is not theirs or already ended. */
export async function deleteSessionOf(db: DbOrTrx, userId: string, sessionId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .where('id', '=', sessionId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
