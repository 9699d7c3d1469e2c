import {
  AUTH_MESSAGES,
  loginInputSchema,
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
import { changePassword, registerUser, signIn, signOut, type Client, type LockoutPolicy } from './auth.service';
import { clearSessionCookie, setSessionCookie } from '../../plugins/session-cookie';

export interface AuthRoutesOptions {
  db: Db;
  secureCookies: boolean;
  lockout: LockoutPolicy;
}

function clientOf(request: FastifyRequest): Client {
  return { ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null };
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { db, secureCookies, lockout }) => {
  app.post(
    '/register',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary:
          'Register an account; it waits as pending until an admin approves it. A known email gets the same ' +
          'answer (its owner is told through the bell)',
        body: registerInputSchema,
        response: { 201: z.object({ message: z.string() }) },
      },
    },
    async (request, reply) => {
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
        summary: 'Sign in; sets the session cookie and ends the session the browser held, if any',
        body: loginInputSchema,
        response: { 200: z.object({ user: sessionUserSchema }) },
      },
    },
    async (request, reply) => {
      const { user, session } = await signIn(db, request.body, clientOf(request), lockout, request.sessionId);
      setSessionCookie(reply, secureCookies, session.token);
      return { user: toSessionUser(user) };
    },
  );

  app.post(
    '/logout',
    {
      config: { access: 'public' },
      schema: { tags: ['auth'], summary: 'Sign out and end this session', response: { 200: okSchema } },
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
        summary: 'The signed-in user, or null',
        response: { 200: z.object({ user: sessionUserSchema.nullable() }) },
      },
    },
    async (request) => ({ user: request.user ? toSessionUser(request.user) : null }),
  );

  app.post(
    '/password',
    {
      config: { access: 'signedIn' },
      schema: {
        tags: ['auth'],
        summary:
          'Change the password; ends every other session of the user and gives this one a new cookie. A wrong ' +
          'current password counts toward the lockout; the third ends the session (401)',
        body: passwordChangeInputSchema,
        response: { 200: okSchema },
      },
    },
    async (request, reply) => {
      const session = await changePassword(db, currentUser(request), request.body, clientOf(request), lockout);
      setSessionCookie(reply, secureCookies, session.token);
      return { ok: true as const };
    },
  );
};
