import { sameSitePath } from '@tradecraft/shared';
import { paths } from './paths';

/** The sign-in page's query parameter naming the page to return to: /login?next=%2Fskills. */
export const RETURN_PARAM = 'next';

const SIGN_IN_PAGES: readonly string[] = [paths.login, paths.register];

/**
 * The page to go to after signing in, when `raw` is a path of this site; null for anything else (see
 * `sameSitePath` in packages/shared, which the server's single sign-on uses too), so a link can never send
 * someone elsewhere after they sign in. The sign-in pages themselves are refused too.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  const path = sameSitePath(raw);
  if (path === null || SIGN_IN_PAGES.includes(path.split(/[?#]/)[0]!)) return null;
  return path;
}

/** The sign-in page's address that returns to `path` afterwards (the plain sign-in page for anything unsafe). */
export function loginPathReturningTo(path: string): string {
  const safe = safeReturnPath(path);
  return safe && safe !== paths.home ? `${paths.login}?${RETURN_PARAM}=${encodeURIComponent(safe)}` : paths.login;
}
