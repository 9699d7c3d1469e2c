import { nowIso } from '../clock';
import type { DbOrTrx } from '../db/database';
import type { ApiTokensTable, User } from '../db/schema';
import { hashToken } from './sessions.repository';

/** Every token starts so, which lets secret scanners (and people) recognise one. */
export const API_TOKEN_PREFIX = 'tc_';
/** last_used_at is written at most this often, so reads do not turn into writes. */
const TOUCH_INTERVAL_MS = 60 * 1000;

export interface LoadedApiToken {
  user: User;
  token: Pick<ApiTokensTable, 'id' | 'name' | 'scope'>;
}

/**
 * The live token for a bearer value with its owner re-read, or null when unknown, revoked, expired or unusable.
 * A sign-in lock leaves tokens working: it refuses new password sign-ins only (docs/security.md).
 */
export async function loadApiToken(db: DbOrTrx, bearer: string): Promise<LoadedApiToken | null> {
  if (!bearer.startsWith(API_TOKEN_PREFIX) || bearer.length > 100) return null;
  const row = await db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .selectAll('users')
    .select([
      'api_tokens.id as token_id',
      'api_tokens.name as token_name',
      'api_tokens.scope as token_scope',
      'api_tokens.expires_at as token_expires_at',
      'api_tokens.revoked_at as token_revoked_at',
      'api_tokens.last_used_at as token_last_used_at',
    ])
    .where('api_tokens.token_hash', '=', hashToken(bearer))
    .executeTakeFirst();
  if (!row) return null;
  const now = Date.now();
  // Tokens are an admin's: one whose owner is no longer an admin, or is disabled, opens nothing.
  if (row.token_revoked_at !== null || Date.parse(row.token_expires_at) <= now) return null;
  if (row.disabled === 1 || row.role !== 'admin') return null;
  if (row.token_last_used_at === null || now - Date.parse(row.token_last_used_at) > TOUCH_INTERVAL_MS) {
    await db.updateTable('api_tokens').set({ last_used_at: nowIso() }).where('id', '=', row.token_id).execute();
  }
  const {
    token_id: id,
    token_name: name,
    token_scope: scope,
    token_expires_at: _expires,
    token_revoked_at: _revoked,
    token_last_used_at: _lastUsed,
    ...user
  } = row;
  return { user, token: { id, name, scope } };
}

/**
 * Revokes every live token of the user (demotion, a password change, "end all sessions"); returns their names.
 * The one write a caller's transaction needs, so the change and the revocation commit together.
 */
export async function revokeAllApiTokensOf(db: DbOrTrx, userId: string, now: string): Promise<string[]> {
  const rows = await db
    .updateTable('api_tokens')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('name')
    .execute();
  return rows.map((row) => row.name);
}
