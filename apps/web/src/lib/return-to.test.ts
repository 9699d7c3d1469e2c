import { describe, expect, it } from 'vitest';
import { loginPathReturningTo, safeReturnPath } from './return-to';

describe('the page to return to after signing in', () => {
  it('follows a path of this site with its query and fragment', () => {
    expect(safeReturnPath('/skills')).toBe('/skills');
    expect(safeReturnPath('/runs/abc/report')).toBe('/runs/abc/report');
    expect(safeReturnPath('/scenarios?type=Phishing&q=T1566#top')).toBe('/scenarios?type=Phishing&q=T1566#top');
    expect(safeReturnPath('/scenarios?type=Data%20Breach')).toBe('/scenarios?type=Data%20Breach');
  });

  it.each([
    ['an absolute URL', 'https://evil.example/skills'],
    ['a protocol-relative URL', '//evil.example/skills'],
    ['a dot segment before a second slash', '/.//evil.example/skills'],
    ['an escaped dot before a second slash', '/%2e//evil.example/skills'],
    ['a backslash after the slash', '/\\evil.example'],
    ['a backslash anywhere', '/skills\\..\\..\\evil'],
    ['an escaped second slash', '/%2Fevil.example'],
    ['an escaped backslash', '/%5Cevil.example'],
    ['an escaped absolute URL', 'https%3A%2F%2Fevil.example'],
    ['a tab between the slashes', '/\t/evil.example'],
    ['a newline between the slashes', '/\n/evil.example'],
    ['an escaped tab', '/%09/evil.example'],
    ['a script URL', 'javascript:alert(1)'],
    ['a relative path', 'skills'],
    ['a broken escape', '/skills%E0%A4%A'],
    ['the sign-in page itself', '/login?next=/skills'],
    ['nothing', ''],
  ])('ignores %s', (_, raw) => {
    expect(safeReturnPath(raw)).toBeNull();
  });

  it('writes the sign-in address that returns to a page, and the plain one for anything else', () => {
    expect(loginPathReturningTo('/runs/abc/report?x=1')).toBe('/login?next=%2Fruns%2Fabc%2Freport%3Fx%3D1');
    expect(loginPathReturningTo('/')).toBe('/login');
    expect(loginPathReturningTo('//evil.example')).toBe('/login');
  });
});
