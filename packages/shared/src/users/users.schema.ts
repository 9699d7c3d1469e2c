import { z } from 'zod';

export const approveUserInputSchema = z.object({
  role: z.enum(['student', 'admin'], { error: 'Role must be student or admin.' }),
});
export type ApproveUserInput = z.infer<typeof approveUserInputSchema>;

export const userIdParamsSchema = z.object({ id: z.string().min(1).max(100) });

export const pendingUserSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  designation: z.string(),
  registeredAt: z.string(),
});
export type PendingUser = z.infer<typeof pendingUserSchema>;
