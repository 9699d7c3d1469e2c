import {
  apiTokenListSchema,
  apiTokenSchema,
  createApiTokenInputSchema,
  createdApiTokenSchema,
} from '@tradecraft/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { currentUser } from '../../plugins/access';
import { errorResponses } from '../../plugins/docs';
import { createToken, listTokensOf, revokeToken } from './api-tokens.service';

// Token management needs a browser session: a token may never mint or revoke tokens.
const config = { access: 'admin', apiTokens: false } as const;

/** `/api/tokens`: the signed-in admin's own API tokens. */
export const apiTokensRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '',
    {
      config,
      schema: {
        tags: ['api tokens'],
        operationId: 'listApiTokens',
        summary: 'List my API tokens',
        description: 'Your tokens, newest first, with when each was last used; revoked and expired ones stay listed.',
        response: { 200: apiTokenListSchema },
      },
    },
    async (request) => ({ tokens: await listTokensOf(db, currentUser(request)) }),
  );

  app.post(
    '',
    {
      config,
      schema: {
        tags: ['api tokens'],
        operationId: 'createApiToken',
        summary: 'Make an API token',
        description:
          'Makes a token for `Authorization: Bearer <token>`. The answer carries the token itself: it is shown this ' +
          'once and stored only as a hash. `read` tokens may only GET. 409 when you already hold 20 live tokens.',
        body: createApiTokenInputSchema,
        response: { 201: createdApiTokenSchema, ...errorResponses(409) },
      },
    },
    async (request, reply) => reply.status(201).send(await createToken(db, currentUser(request), request.body)),
  );

  app.delete(
    '/:id',
    {
      config,
      schema: {
        tags: ['api tokens'],
        operationId: 'revokeApiToken',
        summary: 'Revoke an API token',
        description:
          'Revokes one of your tokens at once (audited); 404 for a token that is not yours or already revoked.',
        params: z.object({ id: z.string().max(64) }),
        response: { 200: apiTokenSchema, ...errorResponses(404) },
      },
    },
    async (request) => revokeToken(db, currentUser(request), request.params.id),
  );
};
