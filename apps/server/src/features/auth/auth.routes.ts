import {
  AUTH_MESSAGES,
  loginInputSchema,
  PASSWORD_SIGN_IN_OFF,
  loginResultSchema,
  passkeyAssertInputSchema,
  secondStepCodeInputSchema,
  okSchema,
  passwordChangeInputSchema,
  REAUTHENTICATION_WINDOW_MS,
  reauthenticateInputSchema,
  registerInputSchema,
  sessionUserSchema,
} from '@tradecraft/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { toSessionUser } from '../users/session-user';
import { currentUser } from '../../plugins/access';
import { errorResponses } from '../../plugins/docs';
import { forbidden, unauthorized } from '../../errors';
import {
  changePassword,
  completeSecondStep,
  loadPendingSignIn,
  reauthenticate,
  registerUser,
  SECOND_STEP_MS,
  signIn,
  signOut,
  type Client,
  type LockoutPolicy,
} from './auth.service';
import {
  clearPendingCookie,
  clearSessionCookie,
  pendingCookieName,
  setPendingCookie,
  setSessionCookie,
} from '../../plugins/session-cookie';
import { passkeyAuthenticationOptions, secondStepMethods, type RelyingPartyFor } from './second-factor.service';
import { setPendingChallenge } from './second-factors.repository';

export interface AuthRoutesOptions {
  db: Db;
  secureCookies: boolean;
  lockout: LockoutPolicy;
  /** False when only single sign-on may sign people in (LOCAL_LOGIN=false). */
  localLogin: boolean;
  relyingParty: RelyingPartyFor;
}

export function clientOf(request: FastifyRequest): Client {
  return { ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null };
}

export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (
  app,
  { db, secureCookies, lockout, localLogin, relyingParty },
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
          'its sign-in limit, or when the address failed on many accounts (password spraying). When the account has ' +
          'a second factor, the answer has `user: null` and `secondStep` (the methods it may use) and sets a ' +
          'five-minute pending cookie instead: the session starts after the second step.',
        body: loginInputSchema,
        response: { 200: loginResultSchema, ...errorResponses(401, 429) },
      },
    },
    async (request, reply) => {
      assertPasswordSignInOn();
      const result = await signIn(db, request.body, clientOf(request), lockout, request.sessionId);
      if (result.pendingToken !== undefined) {
        setPendingCookie(reply, secureCookies, result.pendingToken, SECOND_STEP_MS);
        return { user: null, secondStep: { methods: await secondStepMethods(db, result.user.id) } };
      }
      setSessionCookie(reply, secureCookies, result.session.token);
      return { user: toSessionUser(result.user), ...(result.mustEnrol ? { mustEnrol: true } : {}) };
    },
  );

  const pendingToken = (request: FastifyRequest) => request.cookies[pendingCookieName(secureCookies)];

  /** Checks the second step and, when right, swaps the pending cookie for the session cookie. */
  async function finishSecondStep(
    request: FastifyRequest,
    reply: FastifyReply,
    proof: { code: string } | { response: Record<string, unknown> },
  ) {
    const { user, session } = await completeSecondStep(
      db,
      pendingToken(request),
      proof,
      clientOf(request),
      lockout,
      relyingParty(request.headers.origin),
      request.sessionId,
    );
    clearPendingCookie(reply, secureCookies);
    setSessionCookie(reply, secureCookies, session.token);
    return { user: toSessionUser(user) };
  }

  app.post(
    '/login/code',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        operationId: 'signInWithCode',
        summary: 'Second step: a one-time code or a recovery code',
        description:
          'Completes a sign-in waiting for its second step with a 6-digit code from the authenticator app or one of ' +
          'the recovery codes (each works once; using one is logged). 401 for a wrong code; 400 when no sign-in is ' +
          'waiting (it lasts five minutes). Wrong second steps are counted per account until a sign-in is completed ' +
          '(a right password does not reset the count): each makes the next wait longer (429 with Retry-After) and ' +
          'the third locks new sign-ins (403). 429 past 120 second steps a minute from one address or 20 in 15 ' +
          'minutes for one account.',
        body: secondStepCodeInputSchema,
        response: { 200: z.object({ user: sessionUserSchema }), ...errorResponses(401, 429) },
      },
    },
    async (request, reply) => finishSecondStep(request, reply, { code: request.body.code }),
  );

  app.post(
    '/login/passkey-options',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        operationId: 'getSignInPasskeyOptions',
        summary: 'Second step: the passkey challenge',
        description:
          'WebAuthn request options (a fresh challenge and the account’s passkeys) for the sign-in waiting for its ' +
          'second step; 400 when none is waiting.',
        response: { 200: z.object({ options: z.record(z.string(), z.unknown()) }), ...errorResponses(401, 429) },
      },
    },
    async (request) => {
      const { pending, user } = await loadPendingSignIn(db, pendingToken(request));
      const options = await passkeyAuthenticationOptions(db, user.id, relyingParty(request.headers.origin));
      await setPendingChallenge(db, pending.id, options.challenge);
      return { options: options as unknown as Record<string, unknown> };
    },
  );

  app.post(
    '/login/passkey',
    {
      config: { access: 'public' },
      schema: {
        tags: ['auth'],
        operationId: 'signInWithPasskey',
        summary: 'Second step: a passkey',
        description:
          'Completes the waiting sign-in with the passkey’s answer to the challenge. 401 when it does not verify ' +
          '(counted, limited and locked like a wrong code); 400 when no sign-in is waiting.',
        body: passkeyAssertInputSchema,
        response: { 200: z.object({ user: sessionUserSchema }), ...errorResponses(401, 429) },
      },
    },
    async (request, reply) => finishSecondStep(request, reply, { response: request.body.response }),
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
      config: { access: 'public', readsApiToken: true },
      schema: {
        tags: ['auth'],
        operationId: 'getCurrentUser',
        summary: 'The signed-in user',
        description:
          'The user of the session cookie, or the owner of the API token sent as `Authorization: Bearer`, re-read on ' +
          'every request; `null` when signed out. 401 for an unknown, revoked or expired token.',
        response: { 200: z.object({ user: sessionUserSchema.nullable() }), ...errorResponses(401) },
      },
    },
    async (request) => ({ user: request.user ? toSessionUser(request.user) : null }),
  );

  app.post(
    '/password',
    {
      // The current password in the body is its own re-authentication.
      config: { access: 'signedIn', beforePasswordChange: true, beforeSecondFactor: true, accountSecurity: 'read' },
      schema: {
        tags: ['auth'],
        operationId: 'changePassword',
        summary: 'Change your password',
        description:
          'Needs the current password (400 when it is wrong); ends every other session of the user, gives this one ' +
          'a new cookie and, unless `revokeApiTokens` is false, revokes the user’s API tokens. Audited; the owner is ' +
          'told in the bell. A wrong current password counts toward the lockout; the third ends the session (401). ' +
          '403 for an API token, or while password sign-in is locked.',
        body: passwordChangeInputSchema,
        response: { 200: okSchema, ...errorResponses(429) },
      },
    },
    async (request, reply) => {
      const session = await changePassword(
        db,
        currentUser(request),
        request.body,
        clientOf(request),
        lockout,
        request.sessionId,
        request.secondFactorDue,
      );
      setSessionCookie(reply, secureCookies, session.token);
      return { ok: true as const };
    },
  );

  app.post(
    '/reauthenticate',
    {
      config: { access: 'signedIn', beforeSecondFactor: true, accountSecurity: 'read' },
      schema: {
        tags: ['auth'],
        operationId: 'reauthenticate',
        summary: 'Confirm it is you',
        description:
          `Gives the password, or a code from an enrolled authenticator app, again: for ${REAUTHENTICATION_WINDOW_MS / 60_000} ` +
          'minutes this session may change account security (second factors, recovery codes, passkeys, sessions), ' +
          'which otherwise answers 403 with `code: "reauthentication-required"`. 400 for a wrong password or code ' +
          '(counted toward the lockout as at sign-in; the third ends the session, 401); 403 for an API token or while ' +
          'password sign-in is locked; 429 after 10 tries in 15 minutes.',
        body: reauthenticateInputSchema,
        response: { 200: okSchema, ...errorResponses(429) },
      },
    },
    async (request) => {
      if (!request.sessionId) throw unauthorized();
      await reauthenticate(
        db,
        currentUser(request),
        request.sessionId,
        request.body,
        clientOf(request),
        lockout,
        relyingParty(request.headers.origin),
      );
      return { ok: true as const };
    },
  );
};
