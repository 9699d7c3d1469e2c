import type { Readable } from 'node:stream';
import swagger, { type SwaggerTransform } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { apiErrorSchema } from '@tradecraft/shared';
import type { FastifyInstance, FastifyRequest, FastifySchema, RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden } from '../errors';
import { currentUser } from './access';
import { STATE_CHANGING_METHODS, BODY_METHODS } from './security';
import { SESSION_COOKIE } from './sessions.repository';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A multipart upload: the document describes its `file` field and size limit (the route reads it). */
    upload?: { maxBytes: number; description: string };
  }
}

/**
 * Every error body: `error` a sentence a person can read, `issues` what is wrong field by field. Some errors
 * add a field (`retryAfterSeconds`, an upload's `problems`), so the serializer keeps extra keys.
 */
export const errorResponseSchema = apiErrorSchema.loose().meta({ id: 'Error' });

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'The request is invalid: `error` says what is wrong and `issues` lists each field.',
  401: 'Not signed in, or the session has ended.',
  403: 'Not allowed: the role is not enough, the account may not do this (or must first choose a new password), or the request came from another origin.',
  404: 'No such record (or not one the caller may see).',
  409: 'The request conflicts with the current state (`error` says how).',
  410: 'The record is gone for good.',
  413: 'The body or the file is larger than the limit.',
  421: 'The request named a host this server does not answer for.',
  415: 'The body is not JSON (or multipart/form-data for an upload).',
  429: 'Too many attempts; `Retry-After` says how many seconds to wait.',
  503: 'The database is busy or unreachable; try again shortly (after `Retry-After` seconds when it is given).',
};

const SUCCESS_DESCRIPTIONS: Record<number, string> = { 200: 'OK.', 201: 'Created.' };

const RETRY_AFTER = { 'Retry-After': { type: 'integer', description: 'Seconds to wait before trying again.' } };

/** The route's own error statuses, each with the shared error body, for a schema's `response`. */
export function errorResponses<const S extends keyof typeof ERROR_DESCRIPTIONS & number>(
  ...statuses: S[]
): Record<S, typeof errorResponseSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorResponseSchema])) as Record<
    S,
    typeof errorResponseSchema
  >;
}

/**
 * A file's bytes. Fastify sends a stream, a Buffer or a string as it is and never runs a serializer on them, so
 * the schema only describes the body (as a binary string) and types what the handler may send.
 */
const fileBody = z.string().meta({ format: 'binary' }) as unknown as z.ZodType<string | Buffer | Readable>;

/**
 * A file's 200 response: its media type, the body, and Content-Disposition (an attachment with the file name
 * when `filename` is given, `inline` otherwise).
 */
/** A redirect (302): the browser is sent to `Location`; there is no body. */
export function redirectResponse(description: string) {
  return z.null().describe(`${description} The \`Location\` header says where; there is no body.`);
}

export function fileResponse<T extends z.ZodType = typeof fileBody>(options: {
  mediaType: string;
  filename?: string;
  description: string;
  schema?: T;
}) {
  const disposition = options.filename ? `attachment; filename="${options.filename}"` : 'inline';
  return {
    description: options.description,
    content: { [options.mediaType]: { schema: options.schema ?? fileBody } },
    headers: {
      'Content-Disposition': { type: 'string', description: `\`${disposition}\`` },
    },
  };
}

/**
 * The statuses any route can answer whatever it does, from what it is: its access (401, 403), its method (the
 * CSRF rule's 403 and 415, the body limit's 413), a Host check's 421 (unless the route answers any host), and for every route 400 (a NUL character is refused in any
 * query, even one the route ignores) and 503 (the database busy or unreachable).
 */
function standardErrorStatuses(route: RouteOptions): number[] {
  const methods = [route.method].flat();
  const access = route.config?.access ?? 'public';
  const statuses = new Set<number>([400, 503]);
  if (!route.config?.anyHost) statuses.add(421);
  if (access !== 'public') statuses.add(401);
  // Any signed-in route answers 403 to an account that must first choose a new password.
  if (access !== 'public' || methods.some((method) => STATE_CHANGING_METHODS.has(method))) statuses.add(403);
  if (methods.some((method) => BODY_METHODS.has(method))) {
    statuses.add(413);
    statuses.add(415);
  }
  return [...statuses];
}

type JsonObject = Record<string, unknown>;

/**
 * Completes each operation from what the route already declares: security from its access, the standard error
 * statuses, descriptions and headers of error responses, the multipart body of an upload, and the
 * Content-Disposition headers that the zod transform drops.
 */
const transform: SwaggerTransform = (input) => {
  const original = (input.schema ?? {}) as FastifySchema & { response?: Record<string, unknown> };
  const response: Record<string, unknown> = { ...original.response };
  for (const status of standardErrorStatuses(input.route)) response[status] ??= errorResponseSchema;
  const converted = jsonSchemaTransform({ ...input, schema: { ...original, response } as typeof input.schema });
  const schema = converted.schema as JsonObject & { hide?: boolean; response?: Record<string, JsonObject> };
  if (schema.hide) return converted;

  const access = input.route.config?.access ?? 'public';
  schema.security =
    access === 'public'
      ? []
      : input.route.config?.apiTokens === false
        ? [{ session: [] }]
        : [{ session: [] }, { apiToken: [] }];

  for (const [status, body] of Object.entries(schema.response ?? {})) {
    const declared = original.response?.[status] as { headers?: JsonObject } | undefined;
    if (declared?.headers) body.headers = declared.headers;
    const code = Number(status);
    // @fastify/swagger reads a response's description from `x-response-description` and keeps it out of the
    // body's schema, except beside a $ref, where it reads `description` (and the $ref stays bare).
    const descriptionKey = '$ref' in body ? 'description' : 'x-response-description';
    if (code < 300 && body.description === undefined) body[descriptionKey] = SUCCESS_DESCRIPTIONS[code] ?? 'Success.';
    if (code >= 400 && body.description === undefined) {
      body[descriptionKey] = ERROR_DESCRIPTIONS[code] ?? 'Error.';
      if ((code === 429 || code === 503) && '$ref' in body)
        body.headers = { ...RETRY_AFTER, ...(body.headers as JsonObject | undefined) };
    }
  }

  // The same path written with a trailing slash (`/api/users/`) answers 308 to this one, same method and body,
  // for one release: the not-found handler serves it for every operation whose path has no parameter
  // (plugins/error-handler.ts).
  if (input.url.startsWith('/api/') && !input.url.includes(':')) {
    const description =
      `Only for \`${input.url}/\`, the path with a trailing slash: a permanent redirect to \`${input.url}\` that ` +
      'keeps the method and the body. The `Location` header says where; there is no body.';
    schema.response = {
      ...schema.response,
      308: {
        type: 'null',
        description,
        'x-response-description': description,
        headers: { Location: { type: 'string', description: 'The path without its trailing slash.' } },
      },
    };
  }

  const upload = input.route.config?.upload;
  if (upload) {
    schema.body = {
      type: 'object',
      required: ['file'],
      properties: {
        file: {
          type: 'string',
          format: 'binary',
          description: `${upload.description}; at most ${upload.maxBytes.toLocaleString('en')} bytes (${upload.maxBytes / 1024 / 1024} MB).`,
        },
      },
    };
  }
  return converted;
};

/**
 * OpenAPI 3.0 wants a `type` beside `nullable`; a nullable union of objects (a step of one of several kinds, or
 * none) comes out of zod as `{ oneOf: [...], nullable: true }`. Such a union is an object, so it says so.
 */
function withTypedNullableUnions(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withTypedNullableUnions);
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.fromEntries(
    Object.entries(value).map(([key, entry]) => [key, withTypedNullableUnions(entry)]),
  ) as JsonObject;
  const members = (entries.oneOf ?? entries.anyOf) as JsonObject[] | undefined;
  if (entries.nullable === true && entries.type === undefined && Array.isArray(members)) {
    const allObjects = members.every((member) => member.type === 'object' || typeof member.$ref === 'string');
    if (allObjects) return { type: 'object', ...entries };
  }
  return entries;
}

/** Components nothing refers to (the zod registry adds an input twin of every named schema). */
function withoutUnusedSchemas(document: JsonObject): JsonObject {
  const components = document.components as { schemas?: Record<string, unknown> } | undefined;
  if (!components?.schemas) return document;
  const text = JSON.stringify({ ...document, components: { ...components, schemas: {} } });
  const used = Object.fromEntries(
    Object.entries(components.schemas).filter(([name]) => text.includes(`"#/components/schemas/${name}"`)),
  );
  return { ...document, components: { ...components, schemas: used } };
}

const TAGS = [
  { name: 'health', description: 'Whether the server and its database answer (for load balancers and monitors).' },
  {
    name: 'auth',
    description:
      'Registration, sign-in and sign-out (the session cookie), single sign-on, the current user, password changes.',
  },
  { name: 'users', description: 'Manage Users and registrations awaiting approval (admins).' },
  { name: 'profile', description: 'Your own profile and picture; anyone’s picture for signed-in users.' },
  {
    name: 'meta',
    description: 'Public facts for the help screens: where the code lives, which ATT&CK release applies.',
  },
  { name: 'activity', description: 'User Monitoring: every sign-in event, its counts and its exports (admins).' },
  { name: 'audit', description: 'The Admin Audit Log of every admin action and its spreadsheet export (admins).' },
  { name: 'notifications', description: 'The bell: your notifications and a live event stream of new ones.' },
  { name: 'scenarios', description: 'The scenario library: list, read, publish and delete scenarios.' },
  {
    name: 'settings',
    description:
      'Platform settings: the difficulty the scenario picker recommends, the setup checklist, who must use a second factor.',
  },
  {
    name: 'security',
    description: 'Your second factors (authenticator apps, passkeys), recovery codes and active sessions.',
  },
  { name: 'runs', description: 'Playing a scenario: start a run, answer each step, move on, end it.' },
  { name: 'reviews', description: 'The instructor review queue: grade written answers by rubric (admins).' },
  {
    name: 'programmes',
    description:
      'Training programmes: cohorts, learning paths, assignments with due dates, certificates, remediation and item analysis.',
  },
  { name: 'api tokens', description: 'Your personal API tokens for scripts: make, list and revoke them (admins).' },
  {
    name: 'progress',
    description: 'Progress and reporting: dashboards, Training Progress, after-action reports, ATT&CK skills.',
  },
  { name: 'xapi', description: 'Statements to a Learning Record Store (xAPI 1.0.3): how delivery stands (admins).' },
];

/**
 * The API description and its browser are for signed-in admins: the document maps every route, which is
 * nothing an anonymous visitor needs. Runs after session loading, so request.user is known.
 */
async function requireSignedInAdmin(request: FastifyRequest): Promise<void> {
  if (currentUser(request).role !== 'admin') throw forbidden();
}

/** The OpenAPI description, generated from the route schemas and browsable at /api/docs. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  const { publicOrigin, repositoryUrl } = app.config;
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Tradecraft API',
        description:
          'The JSON API of the Tradecraft CTI training range. Sign in with `POST /api/auth/login`; the answer sets the ' +
          `\`${SESSION_COOKIE}\` cookie that every other operation needs. State-changing requests send JSON (or ` +
          'multipart/form-data for an upload) and no foreign `Origin`. Errors answer `{ error, issues? }`.',
        version: '0.1.0',
        contact: { name: 'Tradecraft', url: repositoryUrl },
        // The project publishes no open-source licence: its code is all rights reserved.
        license: { name: 'All rights reserved', url: repositoryUrl },
      },
      servers: [{ url: publicOrigin, description: 'This server (PUBLIC_ORIGIN)' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          session: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE,
            description: 'The session cookie set by `POST /api/auth/login`.',
          },
          apiToken: {
            type: 'http',
            scheme: 'bearer',
            description:
              'A personal API token of an admin (`Authorization: Bearer tc_...`), made under API tokens; a read-only ' +
              'token may only GET.',
          },
        },
      },
    },
    transform,
    transformObject: (documentObject) =>
      withTypedNullableUnions(
        withoutUnusedSchemas(jsonSchemaTransformObject(documentObject) as JsonObject),
      ) as JsonObject,
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    uiHooks: { onRequest: requireSignedInAdmin },
  });
}
