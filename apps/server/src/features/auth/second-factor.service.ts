import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  AuthenticatorTransport,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import {
  RECOVERY_CODE_COUNT,
  SECOND_FACTOR_MESSAGES,
  describeUserAgent,
  type AccountSecurity,
  type ActiveSession,
  type SecondFactor,
} from '@tradecraft/shared';
import { generate, generateSecret, generateURI, verify } from 'otplib';
import { isoFromNow, nowIso } from '../../clock';
import type { Db, DbOrTrx } from '../../db/database';
import type { User } from '../../db/schema';
import { AppError, badRequest, notFound } from '../../errors';
import { recordLoginEvent } from '../activity/activity.service';
import { recordAudit } from '../audit/audit.service';
import { endStreamsOfEndedSessions, notifyRecipients } from '../notifications/notifications.hub';
import { insertNotifications } from '../notifications/notifications.service';
import { revokeAllApiTokensOf } from '../../plugins/api-tokens.repository';
import { getSecondFactorPolicy, policyApplies } from '../settings/settings.service';
import {
  clearSecondFactorDue,
  deleteSessionOf,
  deleteUserSessions,
  hashToken,
  listUserSessions,
} from '../../plugins/sessions.repository';
import {
  claimTotpStep,
  countSecondFactors,
  deleteAllSecondFactors,
  deleteRecoveryCodes,
  deleteSecondFactor,
  findPasskey,
  findSecondFactor,
  listSecondFactors,
  putEnrolmentChallenge,
  replaceRecoveryCodes,
  takeEnrolmentChallenge,
  unusedRecoveryCodes,
  insertSecondFactor,
  updatePasskeyUse,
  useRecoveryCode,
  type SecondFactorRow,
} from './second-factors.repository';
import { lazyModule } from '../../plugins/lazy-module';

// Loaded when someone first sets up or uses a second factor (docs/operations.md, "Memory").
const webauthn = lazyModule(() => import('@simplewebauthn/server'));
const qrCodes = lazyModule(() => import('qrcode'));

export interface RelyingParty {
  /** The origin browsers sign in from (PUBLIC_ORIGIN). */
  origin: string;
  /** Its host name: passkeys are bound to it. */
  id: string;
  name: string;
}

export function relyingPartyOf(origin: string): RelyingParty {
  return { origin, id: new URL(origin).hostname, name: 'Tradecraft' };
}

/** The relying party of a request: the page's own origin when the server allows it, else PUBLIC_ORIGIN's. */
export type RelyingPartyFor = (origin: string | undefined) => RelyingParty;

const ENROLMENT_MS = 10 * 60 * 1000;

/** The kind of the bell notification that tells a person of a change to their account's security. */
export const ACCOUNT_SECURITY_NOTIFICATION = 'account-security';

/**
 * Tells the account's owner in the bell of a change to its security, in the change's transaction (call
 * notifyRecipients after the commit), so a change made from a stolen session is seen in every other one.
 */
export function tellOwner(trx: DbOrTrx, userId: string, message: string): Promise<void> {
  return insertNotifications(trx, [userId], {
    kind: ACCOUNT_SECURITY_NOTIFICATION,
    message: `${message} If this was not you, change your password and end your other sessions in Settings.`,
    link: '/settings',
  });
}
const SECURITY_SCREEN = 'Settings';
const TOTP_TOLERANCE_SECONDS = 30;

const toFactor = (row: SecondFactorRow): SecondFactor => ({
  id: row.id,
  kind: row.kind,
  label: row.label,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

/** Whether sign-in asks this person for a second step: they enrolled one, or the policy requires it. */
export async function secondFactorNeeds(db: DbOrTrx, user: User): Promise<{ enrolled: boolean; required: boolean }> {
  const [count, policy] = await Promise.all([countSecondFactors(db, user.id), getSecondFactorPolicy(db)]);
  return { enrolled: count > 0, required: policyApplies(policy, user.role) };
}

export async function secondStepMethods(db: DbOrTrx, userId: string): Promise<('totp' | 'passkey' | 'recovery')[]> {
  const factors = await listSecondFactors(db, userId);
  const methods: ('totp' | 'passkey' | 'recovery')[] = [];
  if (factors.some((factor) => factor.kind === 'passkey')) methods.push('passkey');
  if (factors.some((factor) => factor.kind === 'totp')) methods.push('totp');
  methods.push('recovery');
  return methods;
}

export async function accountSecurity(db: Db, user: User): Promise<AccountSecurity> {
  const [factors, codes, policy] = await Promise.all([
    listSecondFactors(db, user.id),
    unusedRecoveryCodes(db, user.id),
    getSecondFactorPolicy(db),
  ]);
  return {
    factors: factors.map(toFactor),
    recoveryCodesLeft: factors.length > 0 ? codes.length : 0,
    policy,
    required: policyApplies(policy, user.role),
  };
}

// Recovery codes: ten of 10 characters, shown once, stored as SHA-256 (they are random, so a fast hash suffices).

const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function newRecoveryCode(): string {
  const bytes = randomBytes(10);
  const chars = [...bytes].map((byte) => RECOVERY_ALPHABET[byte % RECOVERY_ALPHABET.length]!);
  return `${chars.slice(0, 5).join('')}-${chars.slice(5).join('')}`;
}

const normaliseRecoveryCode = (code: string) => code.trim().toLowerCase().replace(/[\s-]/g, '');
const hashRecoveryCode = (code: string) => createHash('sha256').update(normaliseRecoveryCode(code)).digest('hex');

async function issueRecoveryCodes(db: DbOrTrx, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await replaceRecoveryCodes(
    db,
    userId,
    codes.map((code) => ({ id: randomUUID(), code_hash: hashRecoveryCode(code) })),
  );
  return codes;
}

/** New recovery codes replace the old ones (audited; the owner is told in the bell). */
export async function renewRecoveryCodes(db: Db, user: User): Promise<string[]> {
  const codes = await db.transaction().execute(async (trx) => {
    if ((await countSecondFactors(trx, user.id)) === 0) {
      throw badRequest('Add a second factor first: recovery codes stand in for one.');
    }
    const issued = await issueRecoveryCodes(trx, user.id);
    await recordAudit(trx, {
      actor: user.email,
      action: 'renew recovery codes',
      details: `Renewed their ${RECOVERY_CODE_COUNT} recovery codes (the old ones no longer work)`,
      screen: SECURITY_SCREEN,
    });
    await tellOwner(trx, user.id, 'New recovery codes were made for your account; the old ones no longer work.');
    return issued;
  });
  await notifyRecipients(db, [user.id]);
  return codes;
}

/** Uses a recovery code once; true when it was one of the person's unused codes. */
export async function redeemRecoveryCode(db: DbOrTrx, userId: string, code: string): Promise<boolean> {
  const wanted = Buffer.from(hashRecoveryCode(code), 'hex');
  for (const row of await unusedRecoveryCodes(db, userId)) {
    if (timingSafeEqual(Buffer.from(row.code_hash, 'hex'), wanted)) return useRecoveryCode(db, row.id, nowIso());
  }
  return false;
}

// One-time codes (RFC 6238: 6 digits, 30 seconds, SHA-1, as every authenticator app expects).

export async function startTotpEnrolment(db: Db, user: User, sessionId: string) {
  const secret = generateSecret();
  await putEnrolmentChallenge(db, {
    session_id: sessionId,
    kind: 'totp',
    value: secret,
    expires_at: isoFromNow(ENROLMENT_MS),
  });
  const otpauthUrl = generateURI({ issuer: 'Tradecraft', label: user.email, secret });
  const qrSvg = await (
    await qrCodes()
  ).default.toString(otpauthUrl, { type: 'svg', margin: 2, errorCorrectionLevel: 'M' });
  return { secret, otpauthUrl, qrSvg };
}

/** The code's time step when it is right for the secret, else undefined. */
async function totpStep(secret: string, code: string): Promise<number | undefined> {
  const result = await verify({ secret, token: code, epochTolerance: TOTP_TOLERANCE_SECONDS });
  return result.valid ? (result as { timeStep: number }).timeStep : undefined;
}

export async function confirmTotpEnrolment(
  db: Db,
  user: User,
  sessionId: string,
  input: { code: string; label: string },
  client: { ip: string | null },
) {
  const secret = await takeEnrolmentChallenge(db, sessionId, 'totp', nowIso());
  if (!secret) throw badRequest(SECOND_FACTOR_MESSAGES.enrolExpired);
  const step = await totpStep(secret, input.code);
  if (step === undefined) {
    // The secret stays for another try.
    await putEnrolmentChallenge(db, {
      session_id: sessionId,
      kind: 'totp',
      value: secret,
      expires_at: isoFromNow(ENROLMENT_MS),
    });
    throw badRequest(SECOND_FACTOR_MESSAGES.wrongCode);
  }
  return addFactor(db, user, client, {
    kind: 'totp',
    label: input.label,
    totp_secret: secret,
    last_totp_step: step,
  });
}

async function addFactor(
  db: Db,
  user: User,
  client: { ip: string | null },
  fields: Partial<SecondFactorRow> & { kind: 'totp' | 'passkey'; label: string },
): Promise<{ factor: SecondFactor; recoveryCodes: string[] | null }> {
  const added = await db.transaction().execute(async (trx) => {
    const first = (await countSecondFactors(trx, user.id)) === 0;
    const now = nowIso();
    const row: SecondFactorRow = {
      id: randomUUID(),
      user_id: user.id,
      totp_secret: null,
      credential_id: null,
      public_key: null,
      sign_count: 0,
      transports: null,
      last_totp_step: null,
      created_at: now,
      last_used_at: null,
      ...fields,
    };
    await insertSecondFactor(trx, row);
    // Enrolled: sessions the second-factor policy held back may now do everything their role allows.
    if (first) await clearSecondFactorDue(trx, user.id);
    const recoveryCodes = first ? await issueRecoveryCodes(trx, user.id) : null;
    await recordLoginEvent(trx, { email: user.email, role: user.role, event: 'second_factor_added', ip: client.ip });
    await recordAudit(trx, {
      actor: user.email,
      action: 'add second factor',
      details: `Added ${row.kind === 'passkey' ? 'a passkey' : 'an authenticator app'} "${row.label}"`,
      screen: SECURITY_SCREEN,
    });
    await tellOwner(
      trx,
      user.id,
      `${row.kind === 'passkey' ? 'A passkey' : 'An authenticator app'} "${row.label}" was added to your account.`,
    );
    return { factor: toFactor(row), recoveryCodes };
  });
  await notifyRecipients(db, [user.id]);
  return added;
}

export async function removeFactor(db: Db, user: User, id: string, client: { ip: string | null }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const factor = await findSecondFactor(trx, user.id, id);
    if (!factor || !(await deleteSecondFactor(trx, user.id, id))) throw notFound(SECOND_FACTOR_MESSAGES.notFound);
    if ((await countSecondFactors(trx, user.id)) === 0) await deleteRecoveryCodes(trx, user.id);
    await recordLoginEvent(trx, { email: user.email, role: user.role, event: 'second_factor_removed', ip: client.ip });
    await recordAudit(trx, {
      actor: user.email,
      action: 'remove second factor',
      details: `Removed ${factor.kind === 'passkey' ? 'a passkey' : 'an authenticator app'} "${factor.label}"`,
      screen: SECURITY_SCREEN,
    });
    await tellOwner(
      trx,
      user.id,
      `${factor.kind === 'passkey' ? 'A passkey' : 'An authenticator app'} "${factor.label}" was removed from your account.`,
    );
  });
  await notifyRecipients(db, [user.id]);
}

// Passkeys (WebAuthn).

const transportsOf = (row: SecondFactorRow) =>
  row.transports ? (JSON.parse(row.transports) as AuthenticatorTransport[]) : undefined;

export async function passkeyRegistrationOptions(db: Db, user: User, sessionId: string, rp: RelyingParty) {
  const existing = (await listSecondFactors(db, user.id)).filter((row) => row.kind === 'passkey');
  const options = await (
    await webauthn()
  ).generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: `${user.first_name} ${user.last_name}`,
    userID: new TextEncoder().encode(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((row) => ({ id: row.credential_id!, transports: transportsOf(row) })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await putEnrolmentChallenge(db, {
    session_id: sessionId,
    kind: 'passkey',
    value: options.challenge,
    expires_at: isoFromNow(ENROLMENT_MS),
  });
  return options;
}

export async function registerPasskey(
  db: Db,
  user: User,
  sessionId: string,
  input: { response: Record<string, unknown>; label: string },
  rp: RelyingParty,
  client: { ip: string | null },
) {
  const challenge = await takeEnrolmentChallenge(db, sessionId, 'passkey', nowIso());
  if (!challenge) throw badRequest(SECOND_FACTOR_MESSAGES.enrolExpired);
  let verification;
  try {
    verification = await (
      await webauthn()
    ).verifyRegistrationResponse({
      response: input.response as unknown as RegistrationResponseJSON,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch {
    throw badRequest(SECOND_FACTOR_MESSAGES.passkeyFailed);
  }
  if (!verification.verified) throw badRequest(SECOND_FACTOR_MESSAGES.passkeyFailed);
  const { credential } = verification.registrationInfo;
  return addFactor(db, user, client, {
    kind: 'passkey',
    label: input.label,
    credential_id: credential.id,
    public_key: Buffer.from(credential.publicKey).toString('base64url'),
    sign_count: credential.counter,
    transports: credential.transports ? JSON.stringify(credential.transports) : null,
  });
}

export async function passkeyAuthenticationOptions(db: DbOrTrx, userId: string, rp: RelyingParty) {
  const passkeys = (await listSecondFactors(db, userId)).filter((row) => row.kind === 'passkey');
  return (await webauthn()).generateAuthenticationOptions({
    rpID: rp.id,
    allowCredentials: passkeys.map((row) => ({ id: row.credential_id!, transports: transportsOf(row) })),
    userVerification: 'preferred',
  });
}

/** Checks a second step: a one-time code, a recovery code or a passkey's answer to the challenge. */
export async function checkSecondStep(
  db: Db,
  user: User,
  proof: { code: string } | { response: Record<string, unknown>; challenge: string | null },
  rp: RelyingParty,
): Promise<'totp' | 'passkey' | 'recovery' | null> {
  if ('code' in proof) {
    const code = proof.code.trim();
    if (/^\d{6}$/.test(code)) {
      for (const row of (await listSecondFactors(db, user.id)).filter((factor) => factor.kind === 'totp')) {
        const step = await totpStep(row.totp_secret!, code);
        if (step !== undefined && (await claimTotpStep(db, row.id, step, nowIso()))) return 'totp';
      }
      return null;
    }
    return (await redeemRecoveryCode(db, user.id, code)) ? 'recovery' : null;
  }
  if (!proof.challenge) return null;
  const response = proof.response as unknown as AuthenticationResponseJSON;
  const row = typeof response.id === 'string' ? await findPasskey(db, user.id, response.id) : undefined;
  if (!row) return null;
  try {
    const verification = await (
      await webauthn()
    ).verifyAuthenticationResponse({
      response,
      expectedChallenge: proof.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: row.credential_id!,
        publicKey: new Uint8Array(Buffer.from(row.public_key!, 'base64url')),
        counter: row.sign_count,
        transports: transportsOf(row),
      },
      requireUserVerification: false,
    });
    if (!verification.verified) return null;
    await updatePasskeyUse(db, row.id, verification.authenticationInfo.newCounter, nowIso());
    return 'passkey';
  } catch {
    return null;
  }
}

/** A code for a secret, as an authenticator app would show it now (tests and the e2e suite use it). */
export function currentTotpCode(secret: string): Promise<string> {
  return generate({ secret });
}

// Sessions the person can see and end.

export async function activeSessions(db: Db, user: User, currentSessionId: string): Promise<ActiveSession[]> {
  const rows = await listUserSessions(db, user.id);
  return rows.map((row) => ({
    id: row.id, // the token's hash: it cannot be turned back into a cookie
    device: describeUserAgent(row.user_agent),
    ip: row.ip,
    startedAt: row.created_at,
    lastSeenAt: row.last_seen_at,
    current: row.id === currentSessionId,
  }));
}

/** Ends one of the person's other sessions (audited; the owner is told in the bell). */
export async function endSession(db: Db, user: User, currentSessionId: string, sessionId: string): Promise<void> {
  if (sessionId === currentSessionId) throw badRequest('This is the session you are using: sign out instead.');
  await db.transaction().execute(async (trx) => {
    if (!(await deleteSessionOf(trx, user.id, sessionId))) throw notFound('No such session.');
    await recordAudit(trx, {
      actor: user.email,
      action: 'end own session',
      details: 'Ended one of their other sessions',
      screen: SECURITY_SCREEN,
    });
    await tellOwner(trx, user.id, 'One of your sessions was ended from Settings.');
  });
  await endStreamsOfEndedSessions(db, [user.id]);
  await notifyRecipients(db, [user.id]);
}

/**
 * Ends every other session of the person and, unless told otherwise, revokes their API tokens (audited; the
 * owner is told in the bell). Returns the names of the tokens revoked.
 */
export async function endOtherSessions(
  db: Db,
  user: User,
  currentSessionId: string,
  options: { revokeApiTokens: boolean },
): Promise<string[]> {
  const revoked = await db.transaction().execute(async (trx) => {
    const now = nowIso();
    await deleteUserSessions(trx, user.id, currentSessionId);
    const names = options.revokeApiTokens ? await revokeAllApiTokensOf(trx, user.id, now) : [];
    const tokens = names.length > 0 ? ` and revoked ${names.length} API token${names.length === 1 ? '' : 's'}` : '';
    await recordAudit(trx, {
      actor: user.email,
      action: 'end own sessions',
      details: `Ended all their other sessions${tokens}${names.length > 0 ? ` (${names.map((name) => `"${name}"`).join(', ')})` : ''}`,
      screen: SECURITY_SCREEN,
    });
    await tellOwner(trx, user.id, `All your other sessions were ended${tokens}.`);
    return names;
  });
  await endStreamsOfEndedSessions(db, [user.id]);
  await notifyRecipients(db, [user.id]);
  return revoked;
}

/** The pending sign-in's row id for a cookie token. */
export const pendingIdOf = (token: string) => hashToken(token);

export const secondStepFailed = () => new AppError(401, SECOND_FACTOR_MESSAGES.wrongCode);

/** Removes every second factor and recovery code of the user (account recovery); returns how many factors. */
export async function removeAllSecondFactors(db: DbOrTrx, userId: string): Promise<number> {
  const count = await countSecondFactors(db, userId);
  await deleteAllSecondFactors(db, userId);
  await deleteRecoveryCodes(db, userId);
  return count;
}
