import { PASSWORD_SIGN_IN_OFF, signInMethodsSchema } from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { errorResponses, redirectResponse } from '../../plugins/docs';
import { setSessionCookie } from '../../plugins/session-cookie';
import { sameSitePath, SsoProvider, SsoRefusal } from './sso.service';

export interface SsoRoutesOptions {
  db: Db;
  config: Pick<Config, 'sso' | 'localLogin' | 'publicOrigin' | 'secureCookies'>;
}

const CALLBACK_PATH = '/api/auth/oidc/callback';

/** `/api/auth/methods`, `/api/auth/oidc/start` and `/api/auth/oidc/callback` (registered under `/auth`). */
export const ssoRoutes: FastifyPluginAsyncZod<SsoRoutesOptions> = async (app, { db, config }) => {
  const provider = config.sso ? new SsoProvider(config.sso, `${config.publicOrigin}${CALLBACK_PATH}`) : null;
  const failed = (reason: string) => `/login?sso=${encodeURIComponent(reason)}`;

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
          'Sends the browser to the OpenID Connect provider (authorization code flow with PKCE, state and nonce). ' +
          '`returnTo` is a path on this site to land on afterwards (anything else lands on `/`). 404 when single ' +
          'sign-on is not configured.',
        querystring: z.object({ returnTo: z.string().max(2000).optional() }),
        response: {
          302: redirectResponse('To the provider, or to the sign-in page with `?sso=unavailable`.'),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      if (!provider) return reply.status(404).send({ error: 'Single sign-on is not configured on this server.' });
      try {
        const url = await provider.start(db, sameSitePath(request.query.returnTo));
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
          'The provider sends the browser here with `code` and `state`. Signed in: a session cookie and a redirect to ' +
          'the page the sign-in started from. Refused: a redirect to `/login?sso=<reason>` (pending, disabled, ' +
          'expired, refused, no-email, unavailable).',
        querystring: z
          .object({ code: z.string().optional(), state: z.string().optional(), error: z.string().optional() })
          .loose(),
        response: {
          302: redirectResponse('Signed in (to the page asked for) or refused (to the sign-in page).'),
          ...errorResponses(404),
        },
      },
    },
    async (request, reply) => {
      if (!provider) return reply.status(404).send({ error: 'Single sign-on is not configured on this server.' });
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      try {
        const { session, returnTo } = await provider.finish(
          db,
          new URL(`${config.publicOrigin}${CALLBACK_PATH}${query}`),
          {
            ip: request.ip ?? null,
            userAgent: request.headers['user-agent'] ?? null,
          },
        );
        setSessionCookie(reply, config.secureCookies, session.token);
        return reply.redirect(returnTo, 302);
      } catch (error) {
        if (error instanceof SsoRefusal) return reply.redirect(failed(error.reason), 302);
        throw error;
      }
    },
  );
};
