import {
  AUTH_MESSAGES,
  loginInputSchema,
  okSchema,
  passwordChangeInputSchema,
  registerInputSchema,
  sessionUserSchema,
} from '@tradecraft/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { toSessionUser } from '../users/session-user';
import { currentUser } from '../../plugins/access';
import { changePassword, registerUser, signIn, signOut, type Client } from './auth.service';
import { SESSION_ABSOLUTE_MS, SESSION_COOKIE } from '../../plugins/sessions.repository';

export interface AuthRoutesOptions {
  db: Db;
  secureCookies: boolean;
}

function clientOf(request: FastifyRequest): Client {
  return { ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null };
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, { db, secureCookies }) => {
  const cookieOptions = { path: '/', httpOnly: true, sameSite: 'lax', secure: secureCookies } as const;
  const clearSessionCookie = (reply: FastifyReply) => reply.clearCookie(SESSION_COOKIE, cookieOptions);

  app.post(
    '/register',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        summary: 'Register an account; it waits as pending until an admin approves it',
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
        summary: 'Sign in; sets the session cookie',
        body: loginInputSchema,
        response: { 200: z.object({ user: sessionUserSchema }) },
      },
    },
    async (request, reply) => {
      const { user, session } = await signIn(db, request.body, clientOf(request));
      reply.setCookie(SESSION_COOKIE, session.token, { ...cookieOptions, maxAge: SESSION_ABSOLUTE_MS / 1000 });
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
      clearSessionCookie(reply);
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
        summary: 'Change the password; ends every other session of the user',
        body: passwordChangeInputSchema,
        response: { 200: okSchema },
      },
    },
    async (request) => {
      await changePassword(db, currentUser(request), request.sessionId!, request.body, clientOf(request));
      return { ok: true as const };
    },
  );
};
