import { z } from 'zod';
import {
  NEW_PASSWORD_RULE_MESSAGE,
  PASSWORD_MAX_LENGTH,
  PASSWORD_RULE_MESSAGE,
  PASSWORDS_DO_NOT_MATCH_MESSAGE,
  meetsPasswordRule,
} from './password';
import { ROLES } from './roles';

// Loose on purpose (admin@localhost, the default first admin, is a real account), but no spaces, one @, a
// plain domain: every address an account can sign in with, lower case.
const ACCOUNT_EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63})*$/;

/** Whether text (lower case, trimmed) is an address an account may have, `admin@localhost` included. */
export function isAccountEmail(email: string): boolean {
  return email.length <= 254 && ACCOUNT_EMAIL.test(email);
}

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, 'Email must be at most 254 characters.')
  .pipe(z.email('Enter a valid email address.'));

const requiredName = (label: string) =>
  z.string().trim().min(1, `${label} is required.`).max(80, `${label} must be at most 80 characters.`);

export const firstNameSchema = requiredName('First name');
export const lastNameSchema = requiredName('Last name');
export const designationSchema = z.string().trim().max(120, 'Designation must be at most 120 characters.');

export const registerInputSchema = z.object({
  firstName: firstNameSchema,
  lastName: lastNameSchema,
  designation: designationSchema.optional().default(''),
  email: emailSchema,
  password: z.string().refine(meetsPasswordRule, PASSWORD_RULE_MESSAGE),
});
export type RegisterInput = z.input<typeof registerInputSchema>;

export const loginInputSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, 'Email is required.').max(254),
  password: z.string().min(1, 'Password is required.').max(PASSWORD_MAX_LENGTH),
});
export type LoginInput = z.input<typeof loginInputSchema>;

/** A new password equal to the current one would leave the old one (say, a printed one) signing in. */
export const SAME_PASSWORD_MESSAGE = 'Choose a password other than your current one.';

export const passwordChangeInputSchema = z
  .object({
    currentPassword: z.string().min(1, 'Current password is required.').max(PASSWORD_MAX_LENGTH),
    newPassword: z.string().refine(meetsPasswordRule, NEW_PASSWORD_RULE_MESSAGE),
    confirmPassword: z.string(),
    /** Revoke the account's API tokens as well (an admin's scripts stop until given new ones). Default yes. */
    revokeApiTokens: z.boolean({ error: 'revokeApiTokens is true or false.' }).default(true),
  })
  .refine((input) => input.newPassword === input.confirmPassword, {
    path: ['confirmPassword'],
    message: PASSWORDS_DO_NOT_MATCH_MESSAGE,
  })
  .refine((input) => input.newPassword !== input.currentPassword, {
    path: ['newPassword'],
    message: SAME_PASSWORD_MESSAGE,
  });
export type PasswordChangeInput = z.input<typeof passwordChangeInputSchema>;

/** The signed-in user as every screen sees them; the response schemas allow nothing more to leave the server. */
export const sessionUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  designation: z.string(),
  role: z.enum(ROLES),
  photoUrl: z.string().nullable(),
  createdAt: z.string(),
  /**
   * True while the account's password is the one printed at first start: until it chooses a new one, every
   * other signed-in route answers 403 and the browser shows only the "choose your password" page.
   */
  mustChangePassword: z.boolean().optional(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;
