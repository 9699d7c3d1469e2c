import { describe, expect, it } from 'vitest';
import { describeUserAgent } from './security.schema';
import { meetsPasswordRule, passwordStrength, PASSWORD_MAX_LENGTH } from './password';

describe('the password rule', () => {
  it('accepts a passphrase with spaces, punctuation and a capital, number and special character', () => {
    expect(meetsPasswordRule('Correct horse battery staple 42!')).toBe(true);
  });

  it('accepts letters and digits of any script, and counts a space as the special character', () => {
    expect(meetsPasswordRule('Ünïcödé paßwort 7')).toBe(true);
  });

  it('still needs an upper case letter, a lower case letter, a number and a special character', () => {
    expect(meetsPasswordRule('correct horse battery staple 42!')).toBe(false);
    expect(meetsPasswordRule('CORRECT HORSE 42!')).toBe(false);
    expect(meetsPasswordRule('Correct horse battery staple!')).toBe(false);
    expect(meetsPasswordRule('Correcthorse42')).toBe(false);
  });

  it('keeps the 8 to 128 character limits, counting characters as people see them', () => {
    expect(meetsPasswordRule('Aa1! xy')).toBe(false);
    expect(meetsPasswordRule(`Aa1!${'😀'.repeat(PASSWORD_MAX_LENGTH - 4)}`)).toBe(true);
    expect(meetsPasswordRule(`Aa1!${'x'.repeat(PASSWORD_MAX_LENGTH - 3)}`)).toBe(false);
  });
});

describe('the strength meter', () => {
  it('rewards length: a long lower-case passphrase rates above a short one', () => {
    expect(passwordStrength('horse battery').score).toBeLessThan(
      passwordStrength('correct horse battery staple').score,
    );
  });

  it('rates a long passphrase meeting the rule as strong', () => {
    expect(passwordStrength('Correct horse battery staple 42!')).toMatchObject({ label: 'Strong', color: 'green' });
  });
});

describe('describeUserAgent', () => {
  it('names the browser and the system', () => {
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
      ),
    ).toBe('Safari on macOS');
    expect(describeUserAgent(null)).toBe('Unknown device');
  });
});
