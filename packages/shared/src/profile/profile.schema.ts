import { z } from 'zod';
import { designationSchema, firstNameSchema, lastNameSchema, sessionUserSchema } from '../auth/auth.schema';

/** Your own profile: what the session shows (email and role are read-only here). */
export const profileSchema = sessionUserSchema;
export type Profile = z.infer<typeof profileSchema>;

export const profileResponseSchema = z.object({ profile: profileSchema });

/** The editable fields, validated as at registration: names required, designation optional. */
export const updateProfileInputSchema = z.object({
  firstName: firstNameSchema,
  lastName: lastNameSchema,
  designation: designationSchema.optional().default(''),
});
export type UpdateProfileInput = z.input<typeof updateProfileInputSchema>;
