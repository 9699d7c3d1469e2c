import { z } from 'zod';
import { sessionUserSchema } from './auth.schema';
import { PASSWORD_MAX_LENGTH } from './password';
import { secondStepSchema } from './security.schema';

/** How people may sign in here: with a password, and through which single sign-on provider. */
export const signInMethodsSchema = z.object({
  password: z.boolean(),
  sso: z.object({ displayName: z.string() }).nullable(),
});
export type SignInMethods = z.infer<typeof signInMethodsSchema>;

/**
 * The "Link your account" page: the account an identity from the provider would be linked to (its verified email
 * matched), and the second factors the account has (empty: the password alone proves it is theirs).
 */
export const ssoLinkInfoSchema = z.object({
  email: z.string(),
  provider: z.string(),
  secondFactor: secondStepSchema.shape.methods,
});
export type SsoLinkInfo = z.infer<typeof ssoLinkInfoSchema>;

export const ssoLinkInputSchema = z.object({
  password: z.string().min(1, 'Enter the password of your account.').max(PASSWORD_MAX_LENGTH),
  /** A code from the authenticator app or a recovery code, when the account has a second factor. */
  code: z.string().trim().max(40, 'Enter the 6-digit code or a recovery code.').optional(),
});
export type SsoLinkInput = z.input<typeof ssoLinkInputSchema>;

/** Linked and signed in: where to go next (`mustEnrol`: Settings, to add the second factor the policy asks for). */
export const ssoLinkResultSchema = z.object({
  user: sessionUserSchema,
  returnTo: z.string(),
  mustEnrol: z.boolean().optional(),
});
export type SsoLinkResult = z.infer<typeof ssoLinkResultSchema>;

/** After a single sign-on to an account with a second factor: the methods the waiting sign-in may use. */
export type SsoSecondStep = z.infer<typeof secondStepSchema>;
