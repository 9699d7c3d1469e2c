import type { FastifyError, FastifyInstance, HTTPMethods } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseBusy } from '../db/errors';
import { AppError } from '../errors';
import { closeAfterAnswer } from './lingering-close';

/** Another writer held the lock past the busy timeout: it is usually done a second later. */
const BUSY_RETRY_AFTER_SECONDS = 1;

interface ValidationIssue {
  path: string;
  message: string;
}

function describeValidation(error: { validation: { instancePath?: string; message?: string }[]; validationContext?: string }): ValidationIssue[] {
  return error.validation.map((issue) => ({
    path: [error.validationContext, ...(issue.instancePath ?? '').split('/').filter(Boolean)].filter(Boolean).join('.'),
    message: issue.message ?? 'is invalid',
  }));
}

/** One place that turns every error into a response: 4xx say what is wrong, 5xx say nothing of the inside. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const issues = describeValidation(error);
      const first = issues[0];
      return reply.status(400).send({
        error: first ? readableIssue(first) : 'Invalid request.',
        issues,
      });
    }
    if (error instanceof AppError) {
      if (error.statusCode === 429 && typeof error.details?.retryAfterSeconds === 'number') {
        void reply.header('retry-after', String(error.details.retryAfterSeconds));
      }
      return reply.status(error.statusCode).send({ error: error.message, ...error.details });
    }
    if (error.statusCode === undefined && isMultipart(request.headers['content-type'])) {
      // The multipart parser throws plain errors for malformed bodies (no boundary, cut-off parts): the client's fault.
      request.log.info({ err: error }, 'malformed multipart body');
      return reply.status(400).send({ error: 'The upload could not be read. Send the file as multipart/form-data.' });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      // A body over the limit is refused while the client may still be sending it: close without a reset.
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') closeAfterAnswer(request, reply);
      // Fastify's own client errors: bad JSON, body too large, unsupported media type, and the like.
      return reply.status(status).send({ error: clientErrorMessage(error) });
    }
    if (isDatabaseBusy(error)) {
      request.log.warn({ err: error }, 'database busy');
      return reply
        .status(503)
        .header('retry-after', String(BUSY_RETRY_AFTER_SECONDS))
        .send({ error: 'The database is busy. Please try again in a moment.' });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ error: 'Something went wrong on our side. Please try again.' });
  });

  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '';
    // A missing file (say, an asset of an older build) is a 404, never the SPA with the wrong MIME type.
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') && !pathname.startsWith('/api') && !/\.[a-z0-9]+$/i.test(pathname);
    // Client routes of the SPA (and unknown pages, which the SPA answers with 'Page Not Found').
    if (isPage && app.sendSpaIndex) return app.sendSpaIndex(reply);
    // The old trailing-slash forms (/api/users/, /api/runs/, ...) keep working for one release, then go.
    const withoutSlash = pathname.replace(/\/+$/, '');
    if (pathname.startsWith('/api/') && withoutSlash !== pathname && app.hasRoute({ method: request.method as HTTPMethods, url: withoutSlash })) {
      return reply.redirect(`${withoutSlash}${request.url.slice(pathname.length)}`, 308);
    }
    return reply.status(404).send({ error: `No route ${request.method} ${request.url.split('?')[0]}.` });
  });
}

function isMultipart(contentType: string | undefined): boolean {
  return (contentType ?? '').toLowerCase().startsWith('multipart/');
}

/** Our own schema messages are whole sentences; zod's defaults need the field named. */
function readableIssue(issue: ValidationIssue): string {
  if (/^[A-Z].*\.$/.test(issue.message)) return issue.message;
  return `Invalid ${issue.path || 'request'}: ${issue.message}`;
}

function clientErrorMessage(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return 'The request is too large.';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty.';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The request body is not valid JSON.';
    default:
      return error.message || 'Bad request.';
  }
}
