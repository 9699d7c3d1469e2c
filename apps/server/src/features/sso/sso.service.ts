// Single sign-on through an OpenID Connect provider: the authorization code flow with PKCE, state and nonce
// (openid-client does the protocol and every check of the answer), bound to the browser that started it.
// docs/security.md ("Single sign-on") states the rules: what is linked and when, email_verified, the second
// factor, the admin group; README ("Single sign-on") lists the variables.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { SSO_LINK_MESSAGES, type SsoFailure } from '@tradecraft/shared';
import * as oidc from 'openid-client';
import { isoFromNow, nowIso } from '../../clock';
import type { SsoConfig } from '../../config';
import type { Db, DbOrTrx, Trx } from '../../db/database';
import type { User } from '../../db/schema';
import { AppError, badRequest, conflict, unauthorized } from '../../errors';
import { revokeAllApiTokensOf } from '../../plugins/api-tokens.repository';
import { createSession, type NewSession } from '../../plugins/sessions.repository';
import { recordLoginEvent } from '../activity/activity.service';
import { recordAudit } from '../audit/audit.service';
import { completeSecondStep, signIn, startPendingSignIn, type Client, type LockoutPolicy } from '../auth/auth.service';
import { hashPassword } from '../auth/passwords';
import { relyingPartyOf, secondFactorNeeds, secondStepMethods } from '../auth/second-factor.service';
import { insertNotifications, notifyRecipients } from '../notifications/notifications.service';
import {
  findUserByEmail,
  findUserById,
  findUserForUpdate,
  insertUser,
  listAdminIds,
  lockActiveAdminIds,
  updateUserFields,
} from '../users/users.service';
import {
  deleteExpiredSsoSignIns,
  deleteLinkRequest,
  findLinkedUserId,
  findLinkRequest,
  insertLinkRequest,
  insertSsoSignIn,
  linkIdentity,
  takeSsoSignIn,
  touchIdentity,
} from './sso.repository';

/** How long a started sign-in, its browser cookie and a request to link an account last. */
export const SIGN_IN_TTL_MS = 10 * 60_000;
const AUDIT_SCREEN = 'Single sign-on';
const ROLE_KIND = 'role-change';

export class SsoRefusal extends Error {
  constructor(readonly reason: SsoFailure) {
    super(reason);
  }
}

export type SsoClient = Client;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

/** What a finished callback leads to. */
export type SsoOutcome =
  | { kind: 'signed-in'; user: User; session: NewSession; returnTo: string }
  /** A local second factor is still due: the token of a sign-in waiting for it (the auth feature's pending cookie). */
  | { kind: 'second-step'; pendingToken: string; returnTo: string }
  /** The verified email matches an account not yet linked: the token of the link request (its own cookie). */
  | { kind: 'link'; linkToken: string };

/** The claims a sign-in reads, from the ID token and, for what it lacks, from UserInfo. */
interface SignInClaims {
  sub: string;
  email: string | undefined;
  emailVerified: boolean;
  givenName: string | undefined;
  familyName: string | undefined;
  /** Undefined when the provider sent no groups claim at all. */
  groups: string[] | undefined;
  amr: string[];
  acr: string | undefined;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/**
 * The provider's configuration, discovered on first use and kept; a failed discovery is not kept, so a provider
 * that was down at start-up works once it is back.
 */
export class SsoProvider {
  private discovered: Promise<oidc.Configuration> | undefined;

  constructor(
    readonly settings: SsoConfig,
    private readonly redirectUri: string,
  ) {}

  configuration(): Promise<oidc.Configuration> {
    this.discovered ??= oidc
      .discovery(new URL(this.settings.issuer), this.settings.clientId, this.settings.clientSecret, undefined, {
        // http:// is accepted by the configuration only for a provider on this machine.
        execute: this.settings.issuer.startsWith('http://') ? [oidc.allowInsecureRequests] : [],
      })
      .catch((error: unknown) => {
        this.discovered = undefined;
        throw error;
      });
    return this.discovered;
  }

  /**
   * Where to send the browser, having stored the state, nonce and PKCE verifier the callback will need, bound to
   * `browserToken` (the value of the short-lived cookie the route sets in this browser).
   */
  async start(db: Db, returnTo: string): Promise<{ url: URL; browserToken: string }> {
    let configuration: oidc.Configuration;
    try {
      configuration = await this.configuration();
    } catch {
      throw new SsoRefusal('unavailable');
    }
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const browserToken = newToken();
    await deleteExpiredSsoSignIns(db, nowIso());
    await insertSsoSignIn(db, {
      state,
      nonce,
      code_verifier: codeVerifier,
      return_to: returnTo,
      expires_at: isoFromNow(SIGN_IN_TTL_MS),
      browser_hash: sha256(browserToken),
    });
    const { trustProviderMfa, mfaAcrValues } = this.settings;
    const url = oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: this.settings.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
      // Asks for the contexts that count as a second factor, so the ID token says which one was used.
      ...(trustProviderMfa && mfaAcrValues.length > 0 ? { acr_values: mfaAcrValues.join(' ') } : {}),
    });
    return { url, browserToken };
  }

  /**
   * Completes a sign-in from the provider's answer (`callbackUrl`, the address the browser came back to), in the
   * browser that started it (`browserToken`, from its cookie): checks it, reads the claims, and signs in the
   * linked account (or asks for its second factor), asks to link an account with the same verified email, or
   * creates an account. Refusals carry the reason to show.
   */
  async finish(db: Db, callbackUrl: URL, browserToken: string | undefined, client: SsoClient): Promise<SsoOutcome> {
    const state = callbackUrl.searchParams.get('state');
    if (!browserToken || browserToken.length > 100) throw new SsoRefusal('other-browser');
    const started = state ? await takeSsoSignIn(db, state, sha256(browserToken), nowIso()) : undefined;
    if (!started) throw new SsoRefusal('expired');
    if (callbackUrl.searchParams.has('error')) throw new SsoRefusal('refused');
    const claims = await this.claimsOf(callbackUrl, started);
    const { issuer } = this.settings;
    const linkedId = await findLinkedUserId(db, issuer, claims.sub);
    if (linkedId) {
      const linked = await findUserById(db, linkedId);
      if (!linked) throw new SsoRefusal('refused');
      return this.signInLinked(db, linked, claims, started.return_to, client);
    }
    // Every decision by email (linking, approval by domain, a new account) needs the provider to vouch for it.
    const email = claims.email?.toLowerCase();
    if (!email || !claims.emailVerified) throw new SsoRefusal('no-email');
    const existing = await findUserByEmail(db, email);
    if (existing) {
      if (existing.disabled === 1) throw new SsoRefusal('disabled');
      if (existing.role === 'pending') throw new SsoRefusal('pending');
      const linkToken = newToken();
      const now = nowIso();
      await insertLinkRequest(db, {
        id: sha256(linkToken),
        issuer,
        subject: claims.sub,
        user_id: existing.id,
        return_to: started.return_to,
        admin_group: this.adminGroupOf(claims) === undefined ? null : this.adminGroupOf(claims) ? 1 : 0,
        created_at: now,
        expires_at: isoFromNow(SIGN_IN_TTL_MS),
      });
      return { kind: 'link', linkToken };
    }
    const user = await this.createAccount(db, claims, email);
    if (user.role === 'pending') throw new SsoRefusal('pending');
    const session = await openSession(db, user, client);
    return { kind: 'signed-in', user, session, returnTo: started.return_to };
  }

  /** The ID token's claims, with what it lacks read from UserInfo (whose `sub` must be the ID token's). */
  private async claimsOf(
    callbackUrl: URL,
    started: { code_verifier: string; state: string; nonce: string },
  ): Promise<SignInClaims> {
    try {
      const configuration = await this.configuration();
      const tokens = await oidc.authorizationCodeGrant(configuration, callbackUrl, {
        pkceCodeVerifier: started.code_verifier,
        expectedState: started.state,
        expectedNonce: started.nonce,
        idTokenExpected: true,
      });
      const idToken = tokens.claims()!;
      const merged: Record<string, unknown> = { ...idToken };
      const wanted = ['email', 'email_verified', 'given_name', 'family_name'];
      if (this.settings.adminGroups.length > 0) wanted.push('groups');
      if (wanted.some((claim) => merged[claim] === undefined) && tokens.access_token) {
        // fetchUserInfo refuses an answer whose `sub` is not the ID token's; checked here again all the same.
        const userInfo = await oidc.fetchUserInfo(configuration, tokens.access_token, idToken.sub);
        if (userInfo.sub !== idToken.sub) throw new Error('UserInfo is about someone else');
        for (const claim of wanted) if (merged[claim] === undefined) merged[claim] = userInfo[claim];
      }
      const groups = merged.groups;
      return {
        sub: idToken.sub,
        email: text(merged.email),
        emailVerified: merged.email_verified === true,
        givenName: text(merged.given_name),
        familyName: text(merged.family_name),
        groups: Array.isArray(groups)
          ? groups.filter((group): group is string => typeof group === 'string')
          : undefined,
        // How the person signed in is the ID token's to say, never UserInfo's.
        amr: Array.isArray(idToken.amr) ? idToken.amr.filter((value) => typeof value === 'string') : [],
        acr: typeof idToken.acr === 'string' ? idToken.acr : undefined,
      };
    } catch {
      throw new SsoRefusal('refused');
    }
  }

  /** In an admin group (true), not (false), or unknown: no groups claim, or no admin groups configured. */
  private adminGroupOf(claims: SignInClaims): boolean | undefined {
    const { adminGroups } = this.settings;
    if (adminGroups.length === 0 || claims.groups === undefined) return undefined;
    return claims.groups.some((group) => adminGroups.includes(group));
  }

  private async signInLinked(
    db: Db,
    linked: User,
    claims: SignInClaims,
    returnTo: string,
    client: SsoClient,
  ): Promise<SsoOutcome> {
    if (linked.disabled === 1) throw new SsoRefusal('disabled');
    if (linked.role === 'pending') throw new SsoRefusal('pending');
    await touchIdentity(db, this.settings.issuer, claims.sub, nowIso());
    const user = await applyAdminGroup(db, linked.id, this.adminGroupOf(claims), this.settings);
    const needs = await secondFactorNeeds(db, user);
    if (needs.enrolled && !providerMfaCounts(claims, this.settings)) {
      return { kind: 'second-step', pendingToken: await startPendingSignIn(db, user.id, client), returnTo };
    }
    const session = await openSession(db, user, client);
    return { kind: 'signed-in', user, session, returnTo };
  }

  private async createAccount(db: Db, claims: SignInClaims, email: string): Promise<User> {
    const { issuer, autoApproveDomains } = this.settings;
    const makesAdmin = this.adminGroupOf(claims) === true;
    const now = nowIso();
    const domain = email.split('@')[1] ?? '';
    const role: User['role'] = makesAdmin ? 'admin' : autoApproveDomains.includes(domain) ? 'student' : 'pending';
    const firstName = claims.givenName ?? email.split('@')[0]!;
    const lastName = claims.familyName ?? '-';
    // A password nobody knows: the account signs in through the provider (an admin may reset it later).
    const passwordHash = await hashPassword(`${randomUUID()}${randomUUID()}`);
    const user: Parameters<typeof insertUser>[1] = {
      id: randomUUID(),
      email,
      password_hash: passwordHash,
      first_name: firstName.slice(0, 80),
      last_name: lastName.slice(0, 80),
      designation: '',
      role,
      disabled: 0,
      failed_attempts: 0,
      locked_until: null,
      must_change_password: 0,
      photo_file_id: null,
      created_at: now,
      updated_at: now,
    };
    let adminIds: string[] = [];
    await db.transaction().execute(async (trx) => {
      await insertUser(trx, user);
      await linkIdentity(trx, issuer, claims.sub, user.id, now);
      await recordAudit(trx, {
        actor: email,
        action: 'register by single sign-on',
        details:
          role === 'pending'
            ? `First sign-in through ${issuer}: the account waits for approval.`
            : `First sign-in through ${issuer}: approved as ${role === 'admin' ? 'an admin (admin group)' : 'a trainee (approved domain)'}.`,
        screen: AUDIT_SCREEN,
      });
      if (role === 'pending') {
        adminIds = await listAdminIds(trx);
        await insertNotifications(trx, adminIds, {
          kind: 'registration',
          message: `${user.first_name} ${user.last_name} (${email}) signed in through single sign-on and awaits approval.`,
          link: '/admin/pending-users',
          subjectId: user.id, // read for every admin once any admin handles it
        });
      }
    });
    if (adminIds.length > 0) await notifyRecipients(db, adminIds);
    return (await findUserById(db, user.id))!;
  }
}

/**
 * Whether the provider's ID token says the person used a second factor there (`amr` contains `mfa`, or `acr` is one
 * of OIDC_MFA_ACR_VALUES) and the operator lets that stand in for a local second factor (OIDC_TRUST_PROVIDER_MFA).
 */
export function providerMfaCounts(
  claims: { amr: readonly string[]; acr?: string | undefined },
  settings: Pick<SsoConfig, 'trustProviderMfa' | 'mfaAcrValues'>,
): boolean {
  const asserted =
    claims.amr.includes('mfa') || (claims.acr !== undefined && settings.mfaAcrValues.includes(claims.acr));
  return settings.trustProviderMfa && asserted;
}

async function openSession(db: Db, user: User, client: SsoClient): Promise<NewSession> {
  return db.transaction().execute(async (trx) => {
    const opened = await createSession(trx, user.id, client);
    await recordLoginEvent(trx, { email: user.email, role: user.role, event: 'login', ip: client.ip });
    return opened;
  });
}

/**
 * Applies the admin group claim both ways: a member becomes an admin, an admin who is not a member becomes a
 * trainee, except the last enabled admin, who stays one (and is told why). `member` undefined (no groups claim,
 * or no OIDC_ADMIN_GROUPS) changes nothing. The person and the other admins are told in the bell; audited.
 */
async function applyAdminGroup(
  db: Db,
  userId: string,
  member: boolean | undefined,
  settings: Pick<SsoConfig, 'adminGroups'>,
): Promise<User> {
  const groups = settings.adminGroups.join(', ');
  const told: string[] = [];
  const user = await db.transaction().execute(async (trx) => {
    const activeAdminIds = member === false ? await lockActiveAdminIds(trx) : [];
    const current = await findUserForUpdate(trx, userId);
    if (!current) throw new SsoRefusal('refused');
    if (member === undefined || current.disabled === 1) return current;
    const name = `${current.first_name} ${current.last_name} (${current.email})`;
    const tell = async (recipients: string[], message: string) => {
      await insertNotifications(trx, recipients, { kind: ROLE_KIND, message, link: null });
      told.push(...recipients);
    };
    if (member && current.role !== 'admin') {
      const promoted = await updateUserFields(trx, current.id, { role: 'admin', updated_at: nowIso() });
      await recordAudit(trx, {
        actor: current.email,
        action: 'promote by single sign-on',
        details: `Made an admin: the identity provider lists them in an admin group (${groups}).`,
        screen: AUDIT_SCREEN,
      });
      const others = (await listAdminIds(trx)).filter((id) => id !== current.id);
      await tell([current.id], `You are now an admin: the identity provider lists you in an admin group (${groups}).`);
      await tell(others, `${name} is now an admin: the identity provider lists them in an admin group (${groups}).`);
      return promoted;
    }
    if (!member && current.role === 'admin') {
      const others = activeAdminIds.filter((id) => id !== current.id);
      if (others.length === 0) {
        await recordAudit(trx, {
          actor: current.email,
          action: 'keep last admin',
          details: `The identity provider no longer lists them in an admin group (${groups}), but they are the last admin, so they stay one.`,
          screen: AUDIT_SCREEN,
        });
        await tell(
          [current.id],
          `The identity provider no longer lists you in an admin group (${groups}), but you are the last admin here, so ` +
            'you stay one. Make someone else an admin (or rejoin the group) to settle it.',
        );
        return current;
      }
      const demoted = await updateUserFields(trx, current.id, { role: 'student', updated_at: nowIso() });
      // Their API tokens are revoked, as a demotion under Manage Users does (docs/security.md, "API tokens").
      const revoked = await revokeAllApiTokensOf(trx, current.id, nowIso());
      const tokens =
        revoked.length > 0 ? ` Revoked ${revoked.length} API token${revoked.length === 1 ? '' : 's'}.` : '';
      await recordAudit(trx, {
        actor: current.email,
        action: 'demote by single sign-on',
        details: `Made a trainee: the identity provider no longer lists them in an admin group (${groups}).${tokens}`,
        screen: AUDIT_SCREEN,
      });
      await tell(
        [current.id],
        `You are no longer an admin: the identity provider no longer lists you in an admin group (${groups}).`,
      );
      await tell(
        others,
        `${name} is no longer an admin: the identity provider no longer lists them in an admin group (${groups}).`,
      );
      return demoted;
    }
    return current;
  });
  if (told.length > 0) await notifyRecipients(db, told);
  return user;
}

/** The request to link an account, from the token in the browser's link cookie; a 400 when gone or expired. */
async function loadLinkRequest(db: DbOrTrx, token: string | undefined) {
  const request = token && token.length <= 100 ? await findLinkRequest(db, sha256(token), nowIso()) : undefined;
  const user = request ? await findUserById(db, request.user_id) : undefined;
  if (!request || !user) throw badRequest(SSO_LINK_MESSAGES.expired);
  return { request, user };
}

/** What the "Link your account" page shows: the account's email and the second factors it has. */
export async function linkRequestInfo(db: Db, token: string | undefined) {
  const { user } = await loadLinkRequest(db, token);
  const { enrolled } = await secondFactorNeeds(db, user);
  return { email: user.email, secondFactor: enrolled ? await secondStepMethods(db, user.id) : [] };
}

/**
 * Links the identity of a link request to its account once the person proves the account is theirs: its password
 * and, when it has one, its second factor (a code or a recovery code), checked by the password sign-in itself
 * (its throttles, lockout and sign-in log apply). Opens the session; the link signs them in from then on.
 */
export async function linkAccount(
  db: Db,
  token: string | undefined,
  input: { password: string; code?: string | undefined },
  client: Client,
  options: { lockout: LockoutPolicy; publicOrigin: string; settings: Pick<SsoConfig, 'adminGroups'> },
  replacedSessionId: string | null,
): Promise<{ user: User; session: NewSession; returnTo: string; mustEnrol: boolean }> {
  const { request, user } = await loadLinkRequest(db, token);
  const code = input.code?.trim();
  if ((await secondFactorNeeds(db, user)).enrolled && !code) throw badRequest(SSO_LINK_MESSAGES.codeNeeded);
  let signedIn;
  try {
    signedIn = await signIn(
      db,
      { email: user.email, password: input.password },
      client,
      options.lockout,
      replacedSessionId,
    );
  } catch (error) {
    // The password sign-in's "Incorrect email or password": here only the password can be wrong.
    if (error instanceof AppError && error.statusCode === 401) throw unauthorized(SSO_LINK_MESSAGES.wrongPassword);
    throw error;
  }
  let session: NewSession;
  let mustEnrol = false;
  if (signedIn.pendingToken !== undefined) {
    if (!code) throw badRequest(SSO_LINK_MESSAGES.codeNeeded); // a factor added meanwhile
    ({ session } = await completeSecondStep(
      db,
      signedIn.pendingToken,
      { code },
      client,
      options.lockout,
      relyingPartyOf(options.publicOrigin),
      replacedSessionId,
    ));
  } else {
    session = signedIn.session;
    mustEnrol = signedIn.mustEnrol;
  }
  await db.transaction().execute(async (trx: Trx) => {
    if (!(await deleteLinkRequest(trx, request.id))) return; // a parallel request linked it
    const linkedTo = await findLinkedUserId(trx, request.issuer, request.subject);
    if (linkedTo && linkedTo !== user.id) throw conflict(SSO_LINK_MESSAGES.alreadyLinked);
    if (linkedTo) return;
    await linkIdentity(trx, request.issuer, request.subject, user.id, nowIso());
    await recordAudit(trx, {
      actor: user.email,
      action: 'link single sign-on',
      details: `Linked to the identity ${request.subject} of ${request.issuer} after entering the account's password${code ? ' and second factor' : ''}.`,
      screen: AUDIT_SCREEN,
    });
  });
  const member = request.admin_group === null ? undefined : request.admin_group === 1;
  const updated = await applyAdminGroup(db, user.id, member, options.settings);
  return { user: updated, session, returnTo: request.return_to, mustEnrol };
}
