import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseBusy } from '../db/errors';
import { AppError } from '../errors';
import { closeAfterAnswer } from './lingering-close';
import { ambiguousPath } from './security';

/** Another writer held the lock past the busy timeout: it is usually done a second later. */
const BUSY_RETRY_AFTER_SECONDS = 1;

interface ValidationIssue {
  path: string;
  message: string;
}

function describeValidation(error: {
  validation: { instancePath?: string; message?: string }[];
  validationContext?: string;
}): ValidationIssue[] {
  return error.validation.map((issue) => ({
    path: [error.validationContext, ...(issue.instancePath ?? '').split('/').filter(Boolean)].filter(Boolean).join('.'),
    message: issue.message ?? 'is invalid',
  }));
}

/**
 * Fastify answers a few errors before any route or hook runs (a malformed percent-encoding, an over-long path
 * parameter), quoting the URL; this is its `frameworkErrors` option, answering in the product's words.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  // A path written another way (an escaped letter, slash or dot) is refused as such even when the router failed
  // on it first (an over-long parameter): the same 400 the security hook gives it when routing succeeds.
  const ambiguous = ambiguousPath(request.raw.url ?? '/');
  if (ambiguous) {
    void reply.status(400).send({ error: ambiguous });
    return;
  }
  void reply.status(error.statusCode ?? 400).send({ error: clientErrorMessage(error) });
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
    // The multipart parser's failures reach here as 400s already (features/files/read-upload.ts); any other error
    // on an upload route, a database's included, is the 500 it is, never "the upload could not be read".
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
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api') &&
      !/\.[a-z0-9]+$/i.test(pathname);
    // Client routes of the SPA (and unknown pages, which the SPA answers with 'Page Not Found').
    if (isPage && app.sendSpaIndex) return app.sendSpaIndex(reply);
    // The old trailing-slash forms (/api/users/, /api/runs/, ...) keep working for one release, then go.
    const withoutSlash = pathname.replace(/\/+$/, '');
    if (
      pathname.startsWith('/api/') &&
      withoutSlash !== pathname &&
      app.hasRoute({ method: request.method as HTTPMethods, url: withoutSlash })
    ) {
      return reply.redirect(`${withoutSlash}${request.url.slice(pathname.length)}`, 308);
    }
    return reply.status(404).send({ error: 'There is no such API route.' });
  });
}

/** Our own schema messages are whole sentences; zod's defaults need the field named. */
function readableIssue(issue: ValidationIssue): string {
  if (/^[A-Z].*\.$/.test(issue.message)) return issue.message;
  return `Invalid ${issue.path || 'request'}: ${issue.message}`;
}

/**
 * The product's own words for the framework's client errors. Fastify's messages can quote the request (the
 * URL, a header), so none of them is passed on; an unknown code gets the sentence for its status.
 */
const FRAMEWORK_MESSAGES: Record<string, string> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request is too large.',
  FST_REQ_FILE_TOO_LARGE: 'The request is too large.',
  FST_PARTS_LIMIT: 'The upload has too many parts.',
  FST_FILES_LIMIT: 'Send one file at a time.',
  FST_FIELDS_LIMIT: 'The upload has too many fields.',
  FST_PROTO_VIOLATION: 'The upload could not be read. Send the file as multipart/form-data.',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'The upload could not be read. Send the file as multipart/form-data.',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported content type.',
  FST_ERR_CTP_INVALID_TYPE: 'Unsupported content type.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty.',
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length.',
  FST_ERR_CTP_EMPTY_TYPE: 'The Content-Type header is empty.',
  FST_ERR_BAD_URL: 'The address of the request is not valid.',
  FST_ERR_INVALID_URL: 'The address of the request is not valid.',
  FST_ERR_MAX_PARAM_LENGTH: 'The address of the request is too long.',
  FST_ERR_VALIDATION: 'The request is not valid.',
};

const STATUS_MESSAGES: Record<number, string> = {
  400: 'Bad request.',
  404: 'Not found.',
  405: 'That method is not allowed here.',
  406: 'No acceptable response format.',
  408: 'The request took too long.',
  411: 'The request needs a Content-Length.',
  413: 'The request is too large.',
  414: 'The address of the request is too long.',
  415: 'Unsupported content type.',
  431: 'The request headers are too large.',
};

export function clientErrorMessage(error: Pick<FastifyError, 'code' | 'statusCode'>): string {
  return (
    FRAMEWORK_MESSAGES[error.code] ?? STATUS_MESSAGES[error.statusCode ?? 400] ?? 'The request could not be handled.'
  );
}
