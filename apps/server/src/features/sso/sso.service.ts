// Single sign-on through an OpenID Connect provider: the authorization code flow with PKCE, state and nonce
// (openid-client does the protocol and every check of the answer). docs/single-sign-on.md is the operator's
// guide: the variables, who becomes an admin, who waits for approval.
import { randomUUID } from 'node:crypto';
import { type SsoFailure } from '@tradecraft/shared';
import * as oidc from 'openid-client';
import { isoFromNow, nowIso } from '../../clock';
import type { SsoConfig } from '../../config';
import type { Db } from '../../db/database';
import type { User } from '../../db/schema';
import { createSession, type NewSession } from '../../plugins/sessions.repository';
import { recordLoginEvent } from '../activity/activity.service';
import { recordAudit } from '../audit/audit.service';
import { notifyRecipients } from '../notifications/notifications.hub';
import { insertNotifications } from '../notifications/notifications.service';
import { findUserByEmail, findUserById, insertUser, listAdminIds, updateUserFields } from '../users/users.service';
import { hashPassword } from '../auth/passwords';
import {
  deleteExpiredSsoSignIns,
  findLinkedUserId,
  insertSsoSignIn,
  linkIdentity,
  takeSsoSignIn,
  touchIdentity,
} from './sso.repository';

const SIGN_IN_TTL_MS = 10 * 60_000;
const AUDIT_SCREEN = 'Single sign-on';

export class SsoRefusal extends Error {
  constructor(readonly reason: SsoFailure) {
    super(reason);
  }
}

export interface SsoClient {
  ip: string | null;
  userAgent: string | null;
}

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

  /** Where to send the browser, having stored the state, nonce and PKCE verifier the callback will need. */
  async start(db: Db, returnTo: string): Promise<URL> {
    let configuration: oidc.Configuration;
    try {
      configuration = await this.configuration();
    } catch {
      throw new SsoRefusal('unavailable');
    }
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    await deleteExpiredSsoSignIns(db, nowIso());
    await insertSsoSignIn(db, {
      state,
      nonce,
      code_verifier: codeVerifier,
      return_to: returnTo,
      expires_at: isoFromNow(SIGN_IN_TTL_MS),
    });
    return oidc.buildAuthorizationUrl(configuration, {
      redirect_uri: this.redirectUri,
      scope: this.settings.scopes,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
  }

  /**
   * Completes a sign-in from the provider's answer (`callbackUrl`, the address the browser came back to):
   * checks it, finds or creates the account, and opens a session. Refusals carry the reason to show.
   */
  async finish(
    db: Db,
    callbackUrl: URL,
    client: SsoClient,
  ): Promise<{ user: User; session: NewSession; returnTo: string }> {
    const state = callbackUrl.searchParams.get('state');
    const started = state ? await takeSsoSignIn(db, state, nowIso()) : undefined;
    if (!started) throw new SsoRefusal('expired');
    if (callbackUrl.searchParams.has('error')) throw new SsoRefusal('refused');
    let claims: oidc.IDToken;
    try {
      const tokens = await oidc.authorizationCodeGrant(await this.configuration(), callbackUrl, {
        pkceCodeVerifier: started.code_verifier,
        expectedState: started.state,
        expectedNonce: started.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims()!;
    } catch {
      throw new SsoRefusal('refused');
    }
    const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
    if (!email || claims.email_verified === false) throw new SsoRefusal('no-email');
    const user = await this.accountFor(db, claims, email);
    if (user.disabled === 1) throw new SsoRefusal('disabled');
    if (user.role === 'pending') throw new SsoRefusal('pending');
    const session = await db.transaction().execute(async (trx) => {
      const opened = await createSession(trx, user.id, client);
      await recordLoginEvent(trx, { email: user.email, role: user.role, event: 'login', ip: client.ip });
      return opened;
    });
    return { user, session, returnTo: started.return_to };
  }

  private groupsOf(claims: oidc.IDToken): string[] {
    const groups = claims.groups;
    return Array.isArray(groups) ? groups.filter((group): group is string => typeof group === 'string') : [];
  }

  /** The linked account; else the account with that email, linked now; else a new one. */
  private async accountFor(db: Db, claims: oidc.IDToken, email: string): Promise<User> {
    const { issuer, adminGroups, autoApproveDomains } = this.settings;
    const makesAdmin = this.groupsOf(claims).some((group) => adminGroups.includes(group));
    const now = nowIso();
    const linkedId = await findLinkedUserId(db, issuer, claims.sub);
    const existing = linkedId ? await findUserById(db, linkedId) : await findUserByEmail(db, email);
    if (existing) {
      return db.transaction().execute(async (trx) => {
        if (linkedId) await touchIdentity(trx, issuer, claims.sub, now);
        else {
          await linkIdentity(trx, issuer, claims.sub, existing.id, now);
          await recordAudit(trx, {
            actor: existing.email,
            action: 'link single sign-on',
            details: `Signed in through ${issuer} for the first time; the account is linked to that identity.`,
            screen: AUDIT_SCREEN,
          });
        }
        if (!makesAdmin || existing.role === 'admin' || existing.disabled === 1) return existing;
        // Membership of an admin group makes an admin; leaving the group changes nothing here (an admin demotes).
        const promoted = await updateUserFields(trx, existing.id, { role: 'admin', updated_at: now });
        await recordAudit(trx, {
          actor: existing.email,
          action: 'promote by single sign-on',
          details: `Made an admin: the identity provider lists them in an admin group (${adminGroups.join(', ')}).`,
          screen: AUDIT_SCREEN,
        });
        return promoted;
      });
    }

    const domain = email.split('@')[1] ?? '';
    const role: User['role'] = makesAdmin ? 'admin' : autoApproveDomains.includes(domain) ? 'student' : 'pending';
    const firstName = (typeof claims.given_name === 'string' && claims.given_name.trim()) || email.split('@')[0]!;
    const lastName = (typeof claims.family_name === 'string' && claims.family_name.trim()) || '-';
    // A password nobody knows: the account signs in through the provider (an admin may reset it later).
    const passwordHash = await hashPassword(`${randomUUID()}${randomUUID()}`);
    const user: User = {
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
    return user;
  }
}

/** A same-site path to return to after sign-in; anything else (another site, a scheme, a backslash) is `/`. */
export function sameSitePath(value: string | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || /[\\\s]/.test(value)) return '/';
  try {
    const resolved = new URL(value, 'http://same.invalid');
    return resolved.origin === 'http://same.invalid' ? `${resolved.pathname}${resolved.search}${resolved.hash}` : '/';
  } catch {
    return '/';
  }
}
