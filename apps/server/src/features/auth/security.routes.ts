import {
  accountSecuritySchema,
  activeSessionsSchema,
  endOtherSessionsInputSchema,
  enrolledSchema,
  factorIdParamsSchema,
  okSchema,
  passkeyRegisterInputSchema,
  recoveryCodesSchema,
  sessionIdParamsSchema,
  totpConfirmInputSchema,
  totpEnrolmentSchema,
} from '@tradecraft/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { errorResponses } from '../../plugins/docs';
import { unauthorized } from '../../errors';
import { clientOf } from './auth.routes';
import {
  accountSecurity,
  activeSessions,
  confirmTotpEnrolment,
  endOtherSessions,
  endSession,
  passkeyRegistrationOptions,
  registerPasskey,
  removeFactor,
  renewRecoveryCodes,
  startTotpEnrolment,
  type RelyingPartyFor,
} from './second-factor.service';

/**
 * A change to account security: never with an API token, and only within REAUTHENTICATION_WINDOW_MS of the
 * session's last password or second factor (plugins/access.ts; docs/security.md, "Re-authentication").
 */
const CHANGE = { access: 'signedIn', beforeSecondFactor: true, accountSecurity: 'change' } as const;

const sessionIdOf = (request: FastifyRequest): string => {
  if (!request.sessionId) throw unauthorized();
  return request.sessionId;
};

/** The signed-in person's second factors, recovery codes and sessions (Settings, "Security"). */
export const securityRoutes: FastifyPluginAsyncZod<{ db: Db; relyingParty: RelyingPartyFor }> = async (
  app,
  { db, relyingParty },
) => {
  app.get(
    '',
    {
      config: { access: 'signedIn', beforeSecondFactor: true, accountSecurity: 'read' },
      schema: {
        tags: ['security'],
        operationId: 'getAccountSecurity',
        summary: 'Your second factors',
        description:
          'The second factors enrolled, how many recovery codes are left, and whether the policy applies to you.',
        response: { 200: accountSecuritySchema },
      },
    },
    async (request) => accountSecurity(db, currentUser(request)),
  );

  app.post(
    '/totp',
    {
      config: CHANGE,
      schema: {
        tags: ['security'],
        operationId: 'startTotpEnrolment',
        summary: 'Start adding an authenticator app',
        description:
          'A new secret with its otpauth URL and QR code (SVG); it is kept for this session for ten minutes, until a ' +
          'code from the app confirms it.',
        response: { 200: totpEnrolmentSchema },
      },
    },
    async (request) => startTotpEnrolment(db, currentUser(request), sessionIdOf(request)),
  );

  app.post(
    '/totp/confirm',
    {
      config: CHANGE,
      schema: {
        tags: ['security'],
        operationId: 'confirmTotpEnrolment',
        summary: 'Finish adding an authenticator app',
        description:
          'Adds the app once a code from it is right (400 when wrong or when enrolment was not started or expired). ' +
          'The first second factor comes with ten recovery codes, shown this once. Logged in the sign-in log.',
        body: totpConfirmInputSchema,
        response: { 201: enrolledSchema, ...errorResponses(429) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await confirmTotpEnrolment(db, currentUser(request), sessionIdOf(request), request.body, clientOf(request)),
        ),
  );

  app.post(
    '/passkeys/options',
    {
      config: CHANGE,
      schema: {
        tags: ['security'],
        operationId: 'getPasskeyRegistrationOptions',
        summary: 'Start adding a passkey',
        description: 'WebAuthn creation options with a challenge kept for this session for ten minutes.',
        response: { 200: z.object({ options: z.record(z.string(), z.unknown()) }) },
      },
    },
    async (request) => ({
      options: (await passkeyRegistrationOptions(
        db,
        currentUser(request),
        sessionIdOf(request),
        relyingParty(request.headers.origin),
      )) as unknown as Record<string, unknown>,
    }),
  );

  app.post(
    '/passkeys',
    {
      config: CHANGE,
      schema: {
        tags: ['security'],
        operationId: 'registerPasskey',
        summary: 'Finish adding a passkey',
        description:
          'Verifies the authenticator’s answer and adds the passkey (400 when it does not verify or the challenge ' +
          'expired). The first second factor comes with ten recovery codes, shown this once. Logged.',
        body: passkeyRegisterInputSchema,
        response: { 201: enrolledSchema, ...errorResponses(429) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await registerPasskey(
            db,
            currentUser(request),
            sessionIdOf(request),
            request.body,
            relyingParty(request.headers.origin),
            clientOf(request),
          ),
        ),
  );

  app.delete(
    '/factors/:id',
    {
      config: CHANGE,
      schema: {
        tags: ['security'],
        operationId: 'removeSecondFactor',
        summary: 'Remove a second factor',
        description:
          'Removes one of your second factors (logged); removing the last one also removes the recovery codes. 404 ' +
          'when it is not yours.',
        params: factorIdParamsSchema,
        response: { 200: okSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      await removeFactor(db, currentUser(request), request.params.id, clientOf(request));
      return { ok: true as const };
    },
  );

  app.post(
    '/recovery-codes',
    {
      config: CHANGE,
      schema: {
        tags: ['security'],
        operationId: 'renewRecoveryCodes',
        summary: 'New recovery codes',
        description:
          'Ten new recovery codes replace the old ones, shown this once; 400 without a second factor. Audited; you ' +
          'are told in the bell. Needs a recent re-authentication (403 `reauthentication-required`).',
        response: { 200: recoveryCodesSchema },
      },
    },
    async (request) => ({ recoveryCodes: await renewRecoveryCodes(db, currentUser(request)) }),
  );

  app.get(
    '/sessions',
    {
      config: { access: 'signedIn', beforeSecondFactor: true, accountSecurity: 'read' },
      schema: {
        tags: ['security'],
        operationId: 'listMySessions',
        summary: 'Your active sessions',
        description:
          'Device (from the user agent), address, start and last use of each session; the current is marked.',
        response: { 200: activeSessionsSchema },
      },
    },
    async (request) => ({ sessions: await activeSessions(db, currentUser(request), sessionIdOf(request)) }),
  );

  app.delete(
    '/sessions/:id',
    {
      config: CHANGE,
      schema: {
        tags: ['security'],
        operationId: 'endMySession',
        summary: 'End one of your other sessions',
        description: '400 for the current session (sign out instead); 404 when it is not yours or already ended.',
        params: sessionIdParamsSchema,
        response: { 200: okSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      await endSession(db, currentUser(request), sessionIdOf(request), request.params.id);
      return { ok: true as const };
    },
  );

  app.post(
    '/sessions/end-others',
    {
      config: CHANGE,
      schema: {
        tags: ['security'],
        operationId: 'endMyOtherSessions',
        summary: 'End all your other sessions',
        description:
          'Signs out every other browser of yours; this one stays signed in. Unless `revokeApiTokens` is false it ' +
          'also revokes your API tokens; the answer says how many. Audited; you are told in the bell. Needs a recent ' +
          're-authentication (403 `reauthentication-required`).',
        body: endOtherSessionsInputSchema.nullish(),
        response: { 200: z.object({ ok: z.literal(true), revokedApiTokens: z.number().int() }) },
      },
    },
    async (request) => {
      const revoked = await endOtherSessions(db, currentUser(request), sessionIdOf(request), {
        revokeApiTokens: request.body?.revokeApiTokens ?? true,
      });
      return { ok: true as const, revokedApiTokens: revoked.length };
    },
  );
};
