// Personal API tokens: an admin makes one for a script (nightly export, upload from CI), sees when each was last
// used, and revokes it. The token is shown once; only its hash is stored (plugins/api-tokens.repository.ts reads
// it on each request). README, "Automation", has the examples.
import { randomBytes, randomUUID } from 'node:crypto';
import {
  MAX_LIVE_API_TOKENS,
  type ApiToken,
  type CreatedApiToken,
  type createApiTokenInputSchema,
} from '@tradecraft/shared';
import type { z } from 'zod';
import { isoFromNow, nowIso } from '../../clock';
import type { Db } from '../../db/database';
import type { ApiTokensTable, User } from '../../db/schema';
import { AppError, notFound } from '../../errors';
import { API_TOKEN_PREFIX } from '../../plugins/api-tokens.repository';
import { hashToken } from '../../plugins/sessions.repository';
import { recordAudit } from '../audit/audit.service';
import { countLiveApiTokens, insertApiToken, listApiTokens, revokeApiToken } from './api-tokens.repository';

const AUDIT_SCREEN = 'API Tokens';
const DAY_MS = 24 * 60 * 60 * 1000;

function toApiToken(row: ApiTokensTable): ApiToken {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}

export async function listTokensOf(db: Db, user: User): Promise<ApiToken[]> {
  return (await listApiTokens(db, user.id)).map(toApiToken);
}

export async function createToken(
  db: Db,
  user: User,
  input: z.output<typeof createApiTokenInputSchema>,
): Promise<CreatedApiToken> {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const now = nowIso();
  const row: ApiTokensTable = {
    id: randomUUID(),
    user_id: user.id,
    name: input.name,
    token_hash: hashToken(token),
    scope: input.scope,
    created_at: now,
    expires_at: isoFromNow(input.expiresInDays * DAY_MS),
    last_used_at: null,
    revoked_at: null,
  };
  await db.transaction().execute(async (trx) => {
    if ((await countLiveApiTokens(trx, user.id, now)) >= MAX_LIVE_API_TOKENS) {
      throw new AppError(
        409,
        `You already hold ${MAX_LIVE_API_TOKENS} live API tokens: revoke one you no longer use first.`,
      );
    }
    await insertApiToken(trx, row);
    await recordAudit(trx, {
      actor: user.email,
      action: 'create API token',
      details: `"${input.name}", ${input.scope === 'read' ? 'read only' : 'read and write'}, expires ${row.expires_at.slice(0, 10)}`,
      screen: AUDIT_SCREEN,
    });
  });
  return { token, apiToken: toApiToken(row) };
}

export async function revokeToken(db: Db, user: User, id: string): Promise<ApiToken> {
  return db.transaction().execute(async (trx) => {
    const revoked = await revokeApiToken(trx, user.id, id, nowIso());
    if (!revoked) throw notFound('No such API token of yours (or it is already revoked).');
    await recordAudit(trx, {
      actor: user.email,
      action: 'revoke API token',
      details: `"${revoked.name}"`,
      screen: AUDIT_SCREEN,
    });
    return toApiToken(revoked);
  });
}

/** The audit entry of a change made with a token: under the token's name, with what was called. */
export async function recordApiTokenChange(
  db: Db,
  entry: { user: User; tokenName: string; method: string; route: string; statusCode: number },
): Promise<void> {
  await db.transaction().execute((trx) =>
    recordAudit(trx, {
      actor: `${entry.user.email} (API token "${entry.tokenName}")`,
      action: 'API token change',
      details: `${entry.method} ${entry.route} answered ${entry.statusCode}`,
      screen: 'API',
    }),
  );
}
