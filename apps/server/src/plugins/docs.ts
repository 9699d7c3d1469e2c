import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { forbidden } from '../errors';
import { currentUser } from './access';

/**
 * The API description and its browser are for signed-in admins: the document maps every route, which is
 * nothing an anonymous visitor needs. Runs after session loading, so request.user is known.
 */
async function requireSignedInAdmin(request: FastifyRequest): Promise<void> {
  if (currentUser(request).role !== 'admin') throw forbidden();
}

/** The OpenAPI description, generated from the route schemas and browsable at /api/docs. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Tradecraft API',
        description: 'The JSON API of the Tradecraft CTI training range. Every route uses the session cookie.',
        version: '0.1.0',
      },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'tc_session' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true, uiHooks: { onRequest: requireSignedInAdmin } });
}
