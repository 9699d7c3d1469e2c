/** Special characters the generated passwords draw from; the rule itself takes any character that is not a letter or digit. */
export const PASSWORD_SPECIALS = '@$!%*?&';
export const PASSWORD_MIN_LENGTH = 8;
/** Long enough for any passphrase, short enough that hashing cannot be used to exhaust the server. */
export const PASSWORD_MAX_LENGTH = 128;

export const PASSWORD_RULE_MESSAGE =
  'Password must include upper, lower case, number, special character and be at least 8 characters long.';
export const NEW_PASSWORD_RULE_MESSAGE =
  'New password must include upper, lower case, number, special character and be at least 8 characters long.';
export const PASSWORDS_DO_NOT_MATCH_MESSAGE = 'New passwords do not match.';

// Any character is allowed (spaces, punctuation, any script), so passphrases work. Letters and digits of any
// script count as upper, lower and number; everything else (a space, '!', '€') counts as a special character.
const LOWER = /\p{Ll}/u;
const UPPER = /\p{Lu}/u;
const DIGIT = /\p{Nd}/u;
const SPECIAL = /[^\p{L}\p{N}]/u;
/** Characters counted as people see them (an emoji is one), so the length limit is the same in every script. */
const characterCount = (password: string) => [...password].length;

export interface PasswordCriteria {
  length: boolean;
  lower: boolean;
  upper: boolean;
  digit: boolean;
  special: boolean;
}

export function passwordCriteria(password: string): PasswordCriteria {
  return {
    length: characterCount(password) >= PASSWORD_MIN_LENGTH,
    lower: LOWER.test(password),
    upper: UPPER.test(password),
    digit: DIGIT.test(password),
    special: SPECIAL.test(password),
  };
}

/** The password rule: 8 to 128 characters of any kind, with an upper and a lower case letter, a number and a special character. */
export function meetsPasswordRule(password: string): boolean {
  const criteria = passwordCriteria(password);
  return (
    characterCount(password) <= PASSWORD_MAX_LENGTH &&
    criteria.length &&
    criteria.lower &&
    criteria.upper &&
    criteria.digit &&
    criteria.special
  );
}

export type StrengthColor = 'red' | 'yellow' | 'blue' | 'green';

export interface PasswordStrength {
  /** How many of the five criteria hold (0..5). */
  score: number;
  color: StrengthColor;
  label: string;
}

/** Length earns what character classes do: a long passphrase is strong even with few classes. */
export const PASSPHRASE_LENGTH = 16;
const LONG_PASSPHRASE_LENGTH = 24;

/**
 * The strength bar: each of the five criteria scores a point, and length scores on top (16 characters one
 * more, 24 another), capped at 5. Red at 2 or fewer, yellow at 3, blue at 4, green at 5.
 */
export function passwordStrength(password: string): PasswordStrength {
  const criteria = Object.values(passwordCriteria(password)).filter(Boolean).length;
  const length = characterCount(password);
  const lengthBonus = (length >= PASSPHRASE_LENGTH ? 1 : 0) + (length >= LONG_PASSPHRASE_LENGTH ? 1 : 0);
  const score = Math.min(5, criteria + lengthBonus);
  if (score <= 2) return { score, color: 'red', label: 'Weak' };
  if (score === 3) return { score, color: 'yellow', label: 'Fair' };
  if (score === 4) return { score, color: 'blue', label: 'Good' };
  return { score, color: 'green', label: 'Strong' };
}
