import {
  PASSWORD_SIGN_IN_OFF,
  sameSitePath,
  secondStepSchema,
  signInMethodsSchema,
  ssoLinkInfoSchema,
  ssoLinkInputSchema,
  ssoLinkResultSchema,
} from '@tradecraft/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { errorResponses, redirectResponse } from '../../plugins/docs';
import {
  clearPendingCookie,
  pendingCookieName,
  setPendingCookie,
  setSessionCookie,
} from '../../plugins/session-cookie';
import { loadPendingSignIn, SECOND_STEP_MS } from '../auth/auth.service';
import { secondStepMethods } from '../auth/second-factor.service';
import { toSessionUser } from '../users/session-user';
import { linkAccount, linkRequestInfo, SIGN_IN_TTL_MS, SsoProvider, SsoRefusal } from './sso.service';

export interface SsoRoutesOptions {
  db: Db;
  config: Pick<Config, 'sso' | 'localLogin' | 'publicOrigin' | 'secureCookies' | 'lockoutMinutes'>;
}

const CALLBACK_PATH = '/api/auth/oidc/callback';
/** The web app's pages a callback may send the browser to (apps/web/src/lib/paths.ts). */
const LINK_PAGE = '/link-account';
const SECOND_STEP_PAGE = '/confirm-sign-in';

/** The cookie binding a started sign-in to this browser, and the one holding a request to link an account. */
const BROWSER_COOKIE = 'tc_sso';
const LINK_COOKIE = 'tc_sso_link';

/** `/api/auth/methods`, `/api/auth/oidc/*` (registered under `/auth`). docs/security.md, "Single sign-on". */
export const ssoRoutes: FastifyPluginAsyncZod<SsoRoutesOptions> = async (app, { db, config }) => {
  const provider = config.sso ? new SsoProvider(config.sso, `${config.publicOrigin}${CALLBACK_PATH}`) : null;
  const failed = (reason: string) => `/login?sso=${encodeURIComponent(reason)}`;
  const secure = config.secureCookies;
  // `__Host-` on https: Secure, path /, no Domain, so no sibling subdomain can plant or read it.
  const cookieName = (name: string) => (secure ? `__Host-${name}` : name);
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax', secure } as const;
  const setCookie = (reply: FastifyReply, name: string, value: string) =>
    void reply.setCookie(cookieName(name), value, { ...cookieOptions, maxAge: SIGN_IN_TTL_MS / 1000 });
  const clearCookie = (reply: FastifyReply, name: string) => void reply.clearCookie(cookieName(name), cookieOptions);
  const cookieOf = (request: FastifyRequest, name: string) => request.cookies[cookieName(name)];
  const clientOf = (request: FastifyRequest) => ({
    ip: request.ip ?? null,
    userAgent: request.headers['user-agent'] ?? null,
  });
  const notConfigured = (reply: FastifyReply) =>
    reply.status(404).send({ error: 'Single sign-on is not configured on this server.' });

  app.get(
    '/methods',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        operationId: 'getSignInMethods',
        summary: 'How to sign in',
        description: `Whether password sign-in is on, and the single sign-on provider's name when there is one. With password sign-in off, password sign-in and registration answer 403 "${PASSWORD_SIGN_IN_OFF}"`,
        response: { 200: signInMethodsSchema },
      },
    },
    async () => ({ password: config.localLogin, sso: config.sso ? { displayName: config.sso.displayName } : null }),
  );

  app.get(
    '/oidc/start',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        operationId: 'startSingleSignOn',
        summary: 'Sign in through the identity provider',
        description:
          'Sends the browser to the OpenID Connect provider (authorization code flow with PKCE, state and nonce), ' +
          'and sets a ten-minute HttpOnly cookie binding that sign-in to this browser: the callback signs nobody in ' +
          'without it. `returnTo` is a path on this site to land on afterwards, normalised first (anything that is not ' +
          'a same-site path lands on `/`). 404 when single sign-on is not configured.',
        querystring: z.object({ returnTo: z.string().max(2000).optional() }),
        response: {
          302: redirectResponse('To the provider, or to the sign-in page with `?sso=unavailable`.'),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      if (!provider) return notConfigured(reply);
      try {
        const { url, browserToken } = await provider.start(db, sameSitePath(request.query.returnTo) ?? '/');
        setCookie(reply, BROWSER_COOKIE, browserToken);
        return reply.redirect(url.href, 302);
      } catch (error) {
        if (error instanceof SsoRefusal) return reply.redirect(failed(error.reason), 302);
        throw error;
      }
    },
  );

  app.get(
    '/oidc/callback',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        operationId: 'finishSingleSignOn',
        summary: 'Return from the identity provider',
        description:
          'The provider sends the browser here with `code` and `state`; only the browser that started the sign-in (its ' +
          'cookie) may finish it. Signed in: a session cookie and a redirect to the page the sign-in started from. A ' +
          'local second factor still due: the five-minute pending cookie and a redirect to `/confirm-sign-in`. The ' +
          'verified email matches an account not yet linked: a ten-minute link cookie and a redirect to `/link-account`, ' +
          'where the person enters that account’s password. Refused: a redirect to `/login?sso=<reason>` (pending, ' +
          'disabled, expired, refused, no-email, unavailable, other-browser).',
        querystring: z
          .object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() })
          .loose(),
        response: {
          302: redirectResponse(
            'Signed in (to the page asked for), a step still due, or refused (to the sign-in page).',
          ),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      if (!provider) return notConfigured(reply);
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      const browserToken = cookieOf(request, BROWSER_COOKIE);
      clearCookie(reply, BROWSER_COOKIE);
      try {
        const outcome = await provider.finish(
          db,
          new URL(`${config.publicOrigin}${CALLBACK_PATH}${query}`),
          browserToken,
          clientOf(request),
        );
        if (outcome.kind === 'link') {
          setCookie(reply, LINK_COOKIE, outcome.linkToken);
          return reply.redirect(LINK_PAGE, 302);
        }
        if (outcome.kind === 'second-step') {
          setPendingCookie(reply, secure, outcome.pendingToken, SECOND_STEP_MS);
          return reply.redirect(`${SECOND_STEP_PAGE}?next=${encodeURIComponent(outcome.returnTo)}`, 302);
        }
        setSessionCookie(reply, secure, outcome.session.token);
        return reply.redirect(sameSitePath(outcome.returnTo) ?? '/', 302);
      } catch (error) {
        if (error instanceof SsoRefusal) return reply.redirect(failed(error.reason), 302);
        throw error;
      }
    },
  );

  app.get(
    '/oidc/link',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        operationId: 'getSingleSignOnLink',
        summary: 'The account a single sign-on would be linked to',
        description:
          'For the "Link your account" page: the email of the account whose verified email matched, the provider’s ' +
          'name, and the second factors the account has (the page then asks for a code too). 400 when the link ' +
          'request (its cookie) has expired or was used.',
        response: { 200: ssoLinkInfoSchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      if (!provider || !config.sso) return notConfigured(reply);
      const info = await linkRequestInfo(db, cookieOf(request, LINK_COOKIE));
      return { ...info, provider: config.sso.displayName };
    },
  );

  app.post(
    '/oidc/link',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        operationId: 'linkSingleSignOn',
        summary: 'Link the identity to your account',
        description:
          'Proves the account is yours once: its password and, when it has a second factor, a code from the ' +
          'authenticator app or a recovery code. Checked like a password sign-in (the same throttles, lockout and ' +
          'sign-in log). Linked: the session cookie and where to go next; from then on the provider signs you in. ' +
          '400 when the request expired or a code is missing; 401 for a wrong password or code; 403 for a locked or ' +
          'disabled account; 429 when throttled.',
        body: ssoLinkInputSchema,
        response: { 200: ssoLinkResultSchema, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request, reply) => {
      if (!provider || !config.sso) return notConfigured(reply);
      const { user, session, returnTo, mustEnrol } = await linkAccount(
        db,
        cookieOf(request, LINK_COOKIE),
        request.body,
        clientOf(request),
        {
          lockout: { lockoutMs: config.lockoutMinutes * 60_000 },
          publicOrigin: config.publicOrigin,
          settings: config.sso,
        },
        request.sessionId,
      );
      clearCookie(reply, LINK_COOKIE);
      clearPendingCookie(reply, secure);
      setSessionCookie(reply, secure, session.token);
      return {
        user: toSessionUser(user),
        returnTo: sameSitePath(returnTo) ?? '/',
        ...(mustEnrol ? { mustEnrol } : {}),
      };
    },
  );

  app.get(
    '/oidc/second-step',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        operationId: 'getSingleSignOnSecondStep',
        summary: 'The second step a single sign-on still needs',
        description:
          'After a single sign-on to an account with a second factor (when the provider did not vouch for one, or ' +
          'the server does not trust it): the methods the account may use. The step itself is the password ' +
          'sign-in’s (`/api/auth/login/code`, `/api/auth/login/passkey`). 400 when no sign-in is waiting.',
        response: { 200: secondStepSchema, ...errorResponses(400, 404) },
      },
    },
    async (request, reply) => {
      if (!provider) return notConfigured(reply);
      const { user } = await loadPendingSignIn(db, request.cookies[pendingCookieName(secure)]);
      return { methods: await secondStepMethods(db, user.id) };
    },
  );
};
