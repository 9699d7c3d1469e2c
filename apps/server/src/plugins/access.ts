import { REAUTHENTICATION_MESSAGES, REAUTHENTICATION_REQUIRED, REAUTHENTICATION_WINDOW_MS } from '@tradecraft/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database';
import type { User } from '../db/schema';
import { AppError, forbidden, unauthorized } from '../errors';
import { loadApiToken, type LoadedApiToken } from './api-tokens.repository';
import { loadSession, SESSION_COOKIE } from './sessions.repository';
import { STATE_CHANGING_METHODS } from './security';

/** Who may call a route. Every /api route must declare one; the app refuses to start otherwise. */
export type Access = 'public' | 'signedIn' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * True for the few signed-in routes an account whose password must change may still call (change it, and
     * what its page needs); every other signed-in or admin route answers 403 for it.
     */
    beforePasswordChange?: boolean;
    /**
     * True for the routes a session may still call while the platform requires a second factor the person has
     * not enrolled (enrolling it, and what the Settings page around it needs); every other signed-in route answers 403.
     */
    beforeSecondFactor?: boolean;
    /** Set for every route under /api when it is registered (an API route loads the session). */
    api?: boolean;
    /** false: an API token may not call this route (token management itself); a browser session must. */
    apiTokens?: false;
    /**
     * An account-security route (second factors, recovery codes, passkeys, password, sessions): API tokens are
     * refused, and 'change' also needs the person to have given their password or a second factor in this session
     * within REAUTHENTICATION_WINDOW_MS (docs/security.md).
     */
    accountSecurity?: 'read' | 'change';
    /** A public route that answers for the bearer of an API token too (GET /api/auth/me). */
    readsApiToken?: true;
  }
  interface FastifyInstance {
    /**
     * Every /api route with the access it declared (the authorization matrix test walks it); `hidden` marks an older
     * address kept out of the API document (`schema.hide`), such as an alias kept for one release.
     */
    apiRoutes: { method: string; url: string; access: Access; hidden: boolean }[];
  }
  interface FastifyRequest {
    /** The signed-in user, re-read from the database on this request; null when signed out. */
    user: User | null;
    sessionId: string | null;
    /** The session is held back by the second-factor policy until its person enrols a factor. */
    secondFactorDue: boolean;
    /** The API token the request came with (`Authorization: Bearer`), when it did. */
    apiToken: LoadedApiToken['token'] | null;
    /** When the session's person last gave their password or a second factor (ISO); null for none or a token. */
    authenticatedAt: string | null;
  }
}

/** The answer to an account whose printed first-start password is still its password, on any other route. */
export const PASSWORD_CHANGE_DUE = 'Choose a new password before continuing.';

/** The answer to a session held back by the second-factor policy, on any route but enrolling. */
export const SECOND_FACTOR_DUE =
  'Set up a second factor (an authenticator app or a passkey) in Settings before continuing: this platform requires one.';

/** The signed-in user of a route whose access is 'signedIn' or 'admin'. */
export function currentUser(request: FastifyRequest): User {
  if (!request.user) throw unauthorized();
  return request.user;
}

/**
 * Decides who may call each route from the route the router matched, never from the raw URL: the router matches
 * the percent-decoded path, so a test of `request.url` can be walked round with `/%61pi/users` (docs/architecture.md,
 * "Access control").
 */
export interface AccessOptions {
  /** Called after each state-changing request made with an API token that succeeded (the audit trail records it). */
  onApiTokenChange?: (request: FastifyRequest, statusCode: number) => Promise<void>;
}

export const API_TOKEN_MESSAGES = {
  invalid: 'The API token is unknown, revoked or expired.',
  readOnly: 'This API token is read-only: it may only read (GET).',
  notHere: 'API tokens cannot manage API tokens: sign in with your account to do that.',
  accountSecurity:
    'API tokens cannot read or change account security (second factors, recovery codes, passkeys, password, ' +
    'sessions): sign in with your account to do that.',
  roleGrant: 'API tokens cannot grant or change roles: sign in with your account to do that.',
} as const;

/** Refuses the request when it came with an API token (a route's own rule, such as granting a role). */
export function refuseApiToken(request: FastifyRequest, message: string): void {
  if (request.apiToken) throw forbidden(message);
}

/** True when the session's person gave their password or a second factor within the re-authentication window. */
export function recentlyAuthenticated(authenticatedAt: string | null, now = Date.now()): boolean {
  return authenticatedAt !== null && now - Date.parse(authenticatedAt) <= REAUTHENTICATION_WINDOW_MS;
}

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new AppError(401, 'The Authorization header must be "Bearer <token>".');
  return match[1];
}

export function registerAccess(app: FastifyInstance, db: Db, options: AccessOptions = {}): void {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.decorateRequest('apiToken', null);
  app.decorateRequest('secondFactorDue', false);
  app.decorateRequest('authenticatedAt', null);
  const apiRoutes: FastifyInstance['apiRoutes'] = [];
  app.decorate('apiRoutes', apiRoutes);

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const isApi = route.url === '/api' || route.url.startsWith('/api/');
    if (route.url.startsWith('/api/docs')) {
      route.config = { ...route.config, access: 'public', api: true };
      return;
    }
    if (!isApi) {
      // The web app's files and pages: public by nature, and they never load a session.
      route.config = { ...route.config, access: route.config?.access ?? 'public', api: false };
      return;
    }
    route.config = { ...route.config, api: true };
    if (methods.every((method) => method === 'HEAD')) return;
    const access = route.config.access;
    if (!access) {
      throw new Error(`Route ${methods.join(',')} ${route.url} must declare config.access`);
    }
    const hidden = (route.schema as { hide?: boolean } | undefined)?.hide === true;
    for (const method of methods) if (method !== 'HEAD') apiRoutes.push({ method, url: route.url, access, hidden });
  });

  app.addHook('onRequest', async (request) => {
    // No matched route: the not-found handler answers, and it gives nothing away.
    if (request.routeOptions.url === undefined) return;
    const { access, api, apiTokens, accountSecurity, readsApiToken } = request.routeOptions.config;
    if (!api) return;
    // Public routes ignore an Authorization header: a token only ever opens what needs signing in.
    const bearer = access === 'public' && !readsApiToken ? undefined : bearerOf(request);
    const token = request.cookies[SESSION_COOKIE];
    if (bearer !== undefined) {
      // A token speaks for itself: the cookie is not consulted, and a bad token never falls back to it.
      if (apiTokens === false) throw forbidden(API_TOKEN_MESSAGES.notHere);
      if (accountSecurity) throw forbidden(API_TOKEN_MESSAGES.accountSecurity);
      const loaded = await loadApiToken(db, bearer);
      if (!loaded) throw new AppError(401, API_TOKEN_MESSAGES.invalid);
      if (loaded.token.scope === 'read' && STATE_CHANGING_METHODS.has(request.method)) {
        throw forbidden(API_TOKEN_MESSAGES.readOnly);
      }
      request.user = loaded.user;
      request.apiToken = loaded.token;
    } else if (token) {
      const loaded = await loadSession(db, token);
      if (loaded) {
        request.user = loaded.user;
        request.sessionId = loaded.sessionId;
        request.secondFactorDue = loaded.secondFactorDue;
        request.authenticatedAt = loaded.authenticatedAt;
      }
    }
    // Deny by default: a matched API route that somehow declares nothing is refused, never opened.
    if (access === undefined) throw forbidden();
    if (access === 'public') return;
    if (!request.user) throw unauthorized();
    if (request.user.must_change_password === 1 && !request.routeOptions.config.beforePasswordChange) {
      throw forbidden(PASSWORD_CHANGE_DUE);
    }
    if (request.secondFactorDue && !request.routeOptions.config.beforeSecondFactor) throw forbidden(SECOND_FACTOR_DUE);
    if (access === 'admin' && request.user.role !== 'admin') throw forbidden();
    if (accountSecurity === 'change' && !recentlyAuthenticated(request.authenticatedAt)) {
      throw new AppError(403, REAUTHENTICATION_MESSAGES.required, { code: REAUTHENTICATION_REQUIRED });
    }
  });

  const { onApiTokenChange } = options;
  if (onApiTokenChange) {
    // Before the answer leaves (not after it): a script that reads the audit trail next finds the entry there.
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.apiToken && STATE_CHANGING_METHODS.has(request.method) && reply.statusCode < 400) {
        await onApiTokenChange(request, reply.statusCode);
      }
      return payload;
    });
  }
}
