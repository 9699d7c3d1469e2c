import { nowIso } from '../../clock';
import type { DbOrTrx } from '../../db/database';
import { tooManyRequests } from '../../errors';
import {
  deleteRateLimitsEndedBy,
  findLiveRateLimit,
  upsertRateLimitCounter,
  type RateLimitCounter,
} from './rate-limits.repository';

export interface RateLimit {
  /** What is limited, e.g. 'login-ip'. */
  name: string;
  max: number;
  windowMs: number;
  message: string;
}

/** Counts one more event in the current window and returns the count. */
export function incrementRateLimit(db: DbOrTrx, limit: RateLimit, subject: string): Promise<RateLimitCounter> {
  const windowEndsAt = new Date(Date.now() + limit.windowMs).toISOString();
  return upsertRateLimitCounter(db, `${limit.name}:${subject}`, windowEndsAt, nowIso());
}

/** Counts this request and refuses it (429) once the window's limit is passed. */
export async function consumeRateLimit(db: DbOrTrx, limit: RateLimit, subject: string): Promise<void> {
  const row = await incrementRateLimit(db, limit, subject);
  if (row.count > limit.max) {
    const retryAfterSeconds = Math.max(1, Math.ceil((Date.parse(row.window_ends_at) - Date.now()) / 1000));
    throw tooManyRequests(limit.message, retryAfterSeconds);
  }
}

/** Refuses when the counter is already at its limit, without counting this request (see LOGIN_FAILURES_PER_ACCOUNT). */
export async function assertUnderRateLimit(db: DbOrTrx, limit: RateLimit, subject: string): Promise<void> {
  const row = await findLiveRateLimit(db, `${limit.name}:${subject}`, nowIso());
  if (row && row.count >= limit.max) {
    const retryAfterSeconds = Math.max(1, Math.ceil((Date.parse(row.window_ends_at) - Date.now()) / 1000));
    throw tooManyRequests(limit.message, retryAfterSeconds);
  }
}

export function deleteExpiredRateLimits(db: DbOrTrx): Promise<void> {
  return deleteRateLimitsEndedBy(db, nowIso());
}

export const MINUTE = 60_000;

/** A whole class signing in from one address must pass: 120 a minute per address. */
export const LOGIN_PER_ADDRESS: RateLimit = {
  name: 'login-ip',
  max: 120,
  windowMs: MINUTE,
  message: 'Too many sign-in attempts from your network. Please wait a minute and try again.',
};

/**
 * Failed sign-ins of one account from one address (the pair): plenty for typos, too few for guessing. Only
 * failures count, so someone signing in and out all day is never held back by it, and only the failing pair
 * waits: other accounts from the same address, and the same account from elsewhere, sign in as usual.
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

/** Second steps (code, recovery code, passkey) from one address: a class behind one address still passes. */
export const SECOND_STEP_PER_ADDRESS: RateLimit = {
  name: 'second-step-ip',
  max: 120,
  windowMs: MINUTE,
  message: 'Too many sign-in codes from your network. Please wait a minute and try again.',
};

/** Second steps of one account, right or wrong, whatever the address: a person needs one per sign-in. */
export const SECOND_STEP_PER_ACCOUNT: RateLimit = {
  name: 'second-step-account',
  max: 20,
  windowMs: 15 * MINUTE,
  message: 'Too many sign-in codes for this account. Please wait 15 minutes and try again.',
};

/** Confirming one's password or code before an account-security change, per user. */
export const REAUTHENTICATE_PER_USER: RateLimit = {
  name: 'reauthenticate',
  max: 10,
  windowMs: 15 * MINUTE,
  message: 'Too many attempts to confirm it is you. Please wait 15 minutes and try again.',
};
