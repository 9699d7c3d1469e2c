// Plain code without zod: the sign-in pages import it, and so does the server's single sign-on.

/** The longest return path followed; anything longer lands on the home page. */
export const MAX_RETURN_PATH_LENGTH = 2000;

const BASE = 'https://same-site.invalid';

// URL parsers drop tabs and newlines, so "/\t/evil.example" would become "//evil.example": no control characters.
const hasControlCharacter = (text: string) =>
  [...text].some((character) => {
    const code = character.codePointAt(0)!;
    return code < 0x20 || (code >= 0x7f && code <= 0x9f);
  });

/** One slash then a path character: never "//host", "/\host", a scheme or a bare host. */
const looksLikeSameSitePath = (form: string) =>
  form.startsWith('/') && !form.startsWith('//') && !form.includes('\\') && !hasControlCharacter(form);

/** The text with its %-escapes decoded until nothing changes (at most a few rounds); null when an escape is broken. */
function fullyDecoded(text: string): string | null {
  let current = text;
  for (let round = 0; round < 4; round += 1) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

/**
 * A path of this site to go to after signing in, or null for anything else. The value is normalised first (the
 * way a browser resolves it: dot segments, escaped dots) and the normalised path is what is checked and returned,
 * so "/.//evil.example", "/x/..//evil.example" and "/%2e//evil.example" (all "//evil.example" once resolved) are
 * refused like "//evil.example", "/\evil.example", "https://evil.example", "javascript:..." and control
 * characters, in plain or escaped form. The server's single sign-on and the web app's sign-in pages both use it
 * (docs/security.md, "Return paths").
 */
export function sameSitePath(raw: string | null | undefined): string | null {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > MAX_RETURN_PATH_LENGTH) return null;
  const decoded = fullyDecoded(raw);
  if (decoded === null || !looksLikeSameSitePath(raw) || !looksLikeSameSitePath(decoded)) return null;
  let url: URL;
  try {
    url = new URL(raw, BASE);
  } catch {
    return null;
  }
  if (url.origin !== BASE) return null;
  const normalised = `${url.pathname}${url.search}${url.hash}`;
  const normalisedDecoded = fullyDecoded(normalised);
  if (normalisedDecoded === null || !looksLikeSameSitePath(normalised) || !looksLikeSameSitePath(normalisedDecoded)) {
    return null;
  }
  // Resolving once more must change nothing: a path that resolves differently a second time is not a plain path.
  if (`${new URL(normalised, BASE).pathname}` !== url.pathname) return null;
  return normalised;
}
