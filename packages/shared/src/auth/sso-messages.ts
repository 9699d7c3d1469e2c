// Plain words without zod: the sign-in page imports these, so zod stays out of the sign-in route's JavaScript.

/**
 * Why a single sign-on came back without a session: the callback sends the browser to the sign-in page with
 * `?sso=<reason>`, and the page shows the message. Pending and disabled accounts hear the product's own words.
 */
export const SSO_FAILURES = {
  pending: 'Your account is pending approval. Please wait for an admin to assign a role.',
  disabled: 'Your account is disabled. Ask an administrator to enable it.',
  expired: 'That sign-in took too long or was already used. Please sign in again.',
  refused: 'The identity provider did not sign you in. Please try again.',
  'no-email': 'The identity provider did not give a verified email address, so no account could be matched.',
  unavailable: 'The identity provider could not be reached. Please try again later.',
  'other-browser':
    'This sign-in was not started in this browser, or it took too long. Please sign in again from this page.',
} as const;
export type SsoFailure = keyof typeof SSO_FAILURES;

/** What the "Link your account" page may hear from the server. */
export const SSO_LINK_MESSAGES = {
  expired: 'This request to link your account has expired or was already used. Please sign in again.',
  wrongPassword: 'That is not the password of this account.',
  codeNeeded: 'Enter a code from your authenticator app, or a recovery code.',
  alreadyLinked: 'That identity is already linked to another account.',
} as const;

export const PASSWORD_SIGN_IN_OFF = 'Password sign-in is turned off here: use single sign-on.';
