import {
  AUTH_MESSAGES,
  loginInputSchema,
  PASSWORD_SIGN_IN_OFF,
  okSchema,
  passwordChangeInputSchema,
  registerInputSchema,
  sessionUserSchema,
} from '@tradecraft/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { toSessionUser } from '../users/session-user';
import { currentUser } from '../../plugins/access';
import { errorResponses } from '../../plugins/docs';
import { forbidden } from '../../errors';
import { changePassword, registerUser, signIn, signOut, type Client, type LockoutPolicy } from './auth.service';
import { clearSessionCookie, setSessionCookie } from '../../plugins/session-cookie';

export interface AuthRoutesOptions {
  db: Db;
  secureCookies: boolean;
  lockout: LockoutPolicy;
  /** False when only single sign-on may sign people in (LOCAL_LOGIN=false). */
  localLogin: boolean;
}

function clientOf(request: FastifyRequest): Client {
  return { ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null };
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  { db, secureCookies, lockout, localLogin },
) => {
  const assertPasswordSignInOn = () => {
    if (!localLogin) throw forbidden(PASSWORD_SIGN_IN_OFF);
  };

  app.post(
    '/register',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        operationId: 'registerAccount',
        summary: 'Register an account',
        description:
          'Creates an account that waits as pending until an admin approves it; the answer carries the message to show. ' +
          'A known email gets the same answer (its owner is told through the bell); 429 after 100 registrations an hour ' +
          'from one address.',
        body: registerInputSchema,
        response: { 201: z.object({ message: z.string() }), ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      assertPasswordSignInOn();
      await registerUser(db, request.body, clientOf(request));
      return reply.status(201).send({ message: AUTH_MESSAGES.registrationSucceeded });
    },
  );

  app.post(
    '/login',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        operationId: 'signIn',
        summary: 'Sign in',
        description:
          'Checks the email and password, sets the HttpOnly session cookie that every other operation needs and ends ' +
          'the session the browser held, if any. 401 for a wrong email or password (the same answer for both); 403 for ' +
          'a disabled or pending account (three wrong passwords disable it); 429 when the address or account is over ' +
          'its sign-in limit.',
        body: loginInputSchema,
        response: { 200: z.object({ user: sessionUserSchema }), ...errorResponses(401, 429) },
      },
    },
    async (request, reply) => {
      assertPasswordSignInOn();
      const { user, session } = await signIn(db, request.body, clientOf(request), lockout, request.sessionId);
      setSessionCookie(reply, secureCookies, session.token);
      return { user: toSessionUser(user) };
    },
  );

  app.post(
    '/logout',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        operationId: 'signOut',
        summary: 'Sign out',
        description: 'Ends this session and clears the cookie; answers the same when no one was signed in.',
        response: { 200: okSchema },
      },
    },
    async (request, reply) => {
      await signOut(db, request.user, request.sessionId, clientOf(request));
      clearSessionCookie(reply, secureCookies);
      return { ok: true as const };
    },
  );

  app.get(
    '/me',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        operationId: 'getCurrentUser',
        summary: 'The signed-in user',
        description: 'The user of the session cookie, re-read on every request, or `null` when signed out.',
        response: { 200: z.object({ user: sessionUserSchema.nullable() }) },
      },
    },
    async (request) => ({ user: request.user ? toSessionUser(request.user) : null }),
  );

  app.post(
    '/password',
    {
      config: { access: 'signedIn', beforePasswordChange: true },
      schema: {
        tags: ['auth'],
        operationId: 'changePassword',
        summary: 'Change your password',
        description:
          'Needs the current password (400 when it is wrong); ends every other session of the user and gives this one ' +
          'a new cookie. A wrong current password counts toward the lockout; the third ends the session (401).',
        body: passwordChangeInputSchema,
        response: { 200: okSchema, ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      const session = await changePassword(db, currentUser(request), request.body, clientOf(request), lockout);
      setSessionCookie(reply, secureCookies, session.token);
      return { ok: true as const };
    },
  );
};
