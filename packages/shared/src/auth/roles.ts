// Kept free of zod so the first screen the browser loads does not carry the validation library.

export const ROLES = ['pending', 'student', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/** Role comparison is case-insensitive: 'Admin' and 'admin' are the same role. */
export function hasRole(role: string | null | undefined, wanted: Role): boolean {
  return (role ?? '').trim().toLowerCase() === wanted;
}

export const AUTH_MESSAGES = {
  registrationSucceeded: 'Registration successful! Awaiting admin approval.',
  registrationFailedPrefix: 'Registration failed: ',
  pending: 'Your account is pending approval. Please wait for an admin to assign a role.',
  disabled: 'Account disabled due to multiple failed login attempts.',
  invalidCredentials: 'Incorrect email or password.',
  loggedOut: 'You have been logged out.',
  logoutQuestion: 'Are you sure you want to logout?',
} as const;

/** Three failed sign-ins in a row disable the account until an admin enables it. */
export const FAILED_LOGIN_THRESHOLD = 3;
