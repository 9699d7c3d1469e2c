import { MINUTE, type RateLimit } from '../../plugins/rate-limit';

/** A whole class signing in from one address must pass: 120 a minute per address. */
export const LOGIN_PER_ADDRESS: RateLimit = {
  name: 'login-ip',
  max: 120,
  windowMs: MINUTE,
  message: 'Too many sign-in attempts from your network. Please wait a minute and try again.',
};

/**
 * Failed sign-ins for one account from one address: plenty for typos, too few for guessing. Only failures
 * count, so someone signing in and out all day is never locked out by it.
 */
export const LOGIN_FAILURES_PER_ACCOUNT: RateLimit = {
  name: 'login-failures',
  max: 10,
  windowMs: 15 * MINUTE,
  message: 'Too many sign-in attempts for this account. Please wait 15 minutes and try again.',
};

export const REGISTER_PER_ADDRESS: RateLimit = {
  name: 'register-ip',
  max: 100,
  windowMs: 60 * MINUTE,
  message: 'Too many registrations from your network. Please try again later.',
};

/** Wrong current passwords also count toward the lockout; this bounds the attempts themselves. */
export const PASSWORD_CHANGE_PER_USER: RateLimit = {
  name: 'password-change',
  max: 10,
  windowMs: 15 * MINUTE,
  message: 'Too many password changes. Please wait 15 minutes and try again.',
};
