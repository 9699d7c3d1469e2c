import { describe, expect, it } from 'vitest';
import { sameSitePath } from './return-path';

describe('the path to return to after signing in', () => {
  it.each([
    ['/skills', '/skills'],
    ['/', '/'],
    ['/runs/abc/report', '/runs/abc/report'],
    ['/reports/abc?x=1', '/reports/abc?x=1'],
    ['/scenarios?type=Phishing&q=T1566#top', '/scenarios?type=Phishing&q=T1566#top'],
    ['/scenarios?type=Data%20Breach', '/scenarios?type=Data%20Breach'],
    ['/skills/./mine', '/skills/mine'],
    ['/a/b/../skills', '/a/skills'],
  ])('follows %s to %s', (raw, expected) => {
    expect(sameSitePath(raw)).toBe(expected);
  });

  it.each([
    ['a dot segment before a second slash', '/.//evil.example/landing'],
    ['a parent segment before a second slash', '/x/..//evil.example/landing'],
    ['an escaped dot before a second slash', '/%2e//evil.example/landing'],
    ['an escaped parent segment', '/x/%2e%2e//evil.example'],
    ['a doubly escaped second slash', '/%252F/evil.example'],
    ['a protocol-relative URL', '//evil.example/landing'],
    ['three slashes', '///evil.example'],
    ['a backslash after the slash', '/\\evil.example'],
    ['a backslash after a dot segment', '/./\\evil.example'],
    ['a backslash anywhere', '/skills\\..\\..\\evil'],
    ['an escaped second slash', '/%2Fevil.example'],
    ['an escaped backslash', '/%5Cevil.example'],
    ['an absolute URL', 'https://evil.example/landing'],
    ['an escaped absolute URL', 'https%3A%2F%2Fevil.example'],
    ['a scheme without slashes', 'https:evil.example'],
    ['a script URL', 'javascript:alert(1)'],
    ['a data URL', 'data:text/html,hi'],
    ['a bare host', 'evil.example'],
    ['a relative path', 'skills'],
    ['a tab between the slashes', '/\t/evil.example'],
    ['a newline between the slashes', '/\n/evil.example'],
    ['a NUL', '/skills\u0000'],
    ['a C1 control character', '/skills\u0085'],
    ['an escaped tab', '/%09/evil.example'],
    ['a broken escape', '/skills%E0%A4%A'],
    ['a path too long', `/${'a'.repeat(2000)}`],
    ['nothing', ''],
    ['no value', undefined],
    ['null', null],
  ])('refuses %s', (_, raw) => {
    expect(sameSitePath(raw)).toBeNull();
  });
});
