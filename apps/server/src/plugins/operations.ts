import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';

const REQUEST_ID = /^[A-Za-z0-9._:-]{8,128}$/;

/**
 * The id every log line of a request carries, sent back as X-Request-Id so a user's report can be matched to the
 * logs. A proxy's id is kept only when the proxy is trusted (TRUST_PROXY), so clients cannot forge log entries.
 */
export function requestIdOptions(trustProxy: boolean): Pick<FastifyServerOptions, 'genReqId'> {
  // Every log line of the request names it as `reqId` (Fastify's label).
  return {
    genReqId(request) {
      const given = request.headers['x-request-id'];
      if (trustProxy && typeof given === 'string' && REQUEST_ID.test(given)) return given;
      return randomUUID();
    },
  };
}

/** Response headers every API answer carries: its request id, and no caching of what may be personal data. */
export function registerOperationalHeaders(app: FastifyInstance): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('x-request-id', request.id);
    // API answers hold accounts, scores and logs: no browser or proxy cache keeps them, unless a route says otherwise.
    if (request.routeOptions.config.api !== false && !reply.hasHeader('cache-control')) {
      void reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
}
