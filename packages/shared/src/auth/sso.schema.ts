import { z } from 'zod';

/** How people may sign in here: with a password, and through which single sign-on provider. */
export const signInMethodsSchema = z.object({
  password: z.boolean(),
  sso: z.object({ displayName: z.string() }).nullable(),
});
export type SignInMethods = z.infer<typeof signInMethodsSchema>;
