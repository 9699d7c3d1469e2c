import type { FastifyInstance, FastifyReply } from 'fastify';
import { SESSION_ABSOLUTE_MS, SESSION_COOKIE } from './sessions.repository';

/**
 * The session cookie's name on https deployments. The `__Host-` prefix makes the browser refuse it unless it
 * is Secure, for path / and without a Domain, so no sibling subdomain can set or overwrite it.
 */
export const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

export function sessionCookieName(secure: boolean): string {
  return secure ? HOST_SESSION_COOKIE : SESSION_COOKIE;
}

const cookieOptions = (secure: boolean) => ({ path: '/', httpOnly: true, sameSite: 'lax', secure }) as const;

export function setSessionCookie(reply: FastifyReply, secure: boolean, token: string): void {
  void reply.setCookie(sessionCookieName(secure), token, {
    ...cookieOptions(secure),
    maxAge: SESSION_ABSOLUTE_MS / 1000,
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  void reply.clearCookie(sessionCookieName(secure), cookieOptions(secure));
}

/**
 * On https only the `__Host-` cookie counts: it is handed to session loading under the plain name, and a
 * plain cookie (which a sibling subdomain could have planted) is ignored. Runs before session loading.
 */
export function registerSessionCookie(app: FastifyInstance, secure: boolean): void {
  if (!secure) return;
  app.addHook('onRequest', async (request) => {
    const token = request.cookies[HOST_SESSION_COOKIE];
    if (token === undefined) delete request.cookies[SESSION_COOKIE];
    else request.cookies[SESSION_COOKIE] = token;
  });
}

/** The cookie of a sign-in between its password and its second step (five minutes, sign-in routes only). */
export const PENDING_COOKIE = 'tc_pending';

export function pendingCookieName(secure: boolean): string {
  return secure ? `__Host-${PENDING_COOKIE}` : PENDING_COOKIE;
}

export function setPendingCookie(reply: FastifyReply, secure: boolean, token: string, maxAgeMs: number): void {
  void reply.setCookie(pendingCookieName(secure), token, { ...cookieOptions(secure), maxAge: maxAgeMs / 1000 });
}

export function clearPendingCookie(reply: FastifyReply, secure: boolean): void {
  void reply.clearCookie(pendingCookieName(secure), cookieOptions(secure));
}
