import { paths } from './paths';

/** The sign-in page's query parameter naming the page to return to: /login?next=%2Fskills. */
export const RETURN_PARAM = 'next';

const MAX_RETURN_LENGTH = 2000;
// Only paths of this site: one slash then a path character (never "//host" or "/\host").
const SAME_SITE_PATH = /^\/(?![/\\])/;
// URL parsers drop tabs and newlines, so "/\t/evil.example" would become "//evil.example": no control characters.
const hasControlCharacter = (text: string) =>
  [...text].some((character) => {
    const code = character.codePointAt(0)!;
    return code < 0x20 || (code >= 0x7f && code <= 0x9f);
  });
const SIGN_IN_PAGES: readonly string[] = [paths.login, paths.register];

/**
 * The page to go to after signing in, when `raw` is a path of this site; null for anything else (an absolute
 * URL, "//evil.example", backslashes, control characters, or an escaped form of any of them), so a link can
 * never send someone elsewhere after they sign in. The sign-in pages themselves are refused too.
 */
export function safeReturnPath(raw: string | null | undefined): string | null {
  if (!raw || raw.length > MAX_RETURN_LENGTH) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  for (const form of [raw, decoded]) {
    if (!SAME_SITE_PATH.test(form) || form.includes('\\') || hasControlCharacter(form)) return null;
  }
  const base = 'https://tradecraft.invalid';
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    return null;
  }
  if (url.origin !== base || SIGN_IN_PAGES.includes(url.pathname)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in page's address that returns to `path` afterwards (the plain sign-in page for anything unsafe). */
export function loginPathReturningTo(path: string): string {
  const safe = safeReturnPath(path);
  return safe && safe !== paths.home ? `${paths.login}?${RETURN_PARAM}=${encodeURIComponent(safe)}` : paths.login;
}
