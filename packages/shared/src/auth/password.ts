/** The special characters the password rule allows (and requires one of). */
export const PASSWORD_SPECIALS = '@$!%*?&';
export const PASSWORD_MIN_LENGTH = 8;
/** Long enough for any passphrase, short enough that hashing cannot be used to exhaust the server. */
export const PASSWORD_MAX_LENGTH = 128;

export const PASSWORD_RULE_MESSAGE =
  'Password must include upper, lower case, number, special character and be at least 8 characters long.';
export const NEW_PASSWORD_RULE_MESSAGE =
  'New password must include upper, lower case, number, special character and be at least 8 characters long.';
export const PASSWORDS_DO_NOT_MATCH_MESSAGE = 'New passwords do not match.';

// None of the specials means anything inside a character class, so they go in as they are.
const ALLOWED = new RegExp(`^[A-Za-z\\d${PASSWORD_SPECIALS}]+$`);
const SPECIAL = new RegExp(`[${PASSWORD_SPECIALS}]`);

export interface PasswordCriteria {
  length: boolean;
  lower: boolean;
  upper: boolean;
  digit: boolean;
  special: boolean;
}

export function passwordCriteria(password: string): PasswordCriteria {
  return {
    length: password.length >= PASSWORD_MIN_LENGTH,
    lower: /[a-z]/.test(password),
    upper: /[A-Z]/.test(password),
    digit: /\d/.test(password),
    special: SPECIAL.test(password),
  };
}

/** The password rule: at least 8 characters, each of the four classes, and only those classes. */
export function meetsPasswordRule(password: string): boolean {
  const criteria = passwordCriteria(password);
  return (
    password.length <= PASSWORD_MAX_LENGTH &&
    ALLOWED.test(password) &&
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

/** The strength bar: red at 2 criteria or fewer, yellow at 3, blue at 4, green at 5. */
export function passwordStrength(password: string): PasswordStrength {
  const score = Object.values(passwordCriteria(password)).filter(Boolean).length;
  if (score <= 2) return { score, color: 'red', label: 'Weak' };
  if (score === 3) return { score, color: 'yellow', label: 'Fair' };
  if (score === 4) return { score, color: 'blue', label: 'Good' };
  return { score, color: 'green', label: 'Strong' };
}
