import { z } from 'zod';
import { pageOf, pageQuerySchema } from '../paging/paging';
import { timeZoneSchema } from '../time/time-zone.schema';
import { designationSchema, firstNameSchema, lastNameSchema } from '../auth/auth.schema';

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

// ---- Manage Users ------------------------------------------------------------------------------------

export const USER_SORT_COLUMNS = ['name', 'email', 'role', 'designation', 'status'] as const;
export type UserSortColumn = (typeof USER_SORT_COLUMNS)[number];

/** GET /api/users: pending accounts are left out unless role=pending asks for them. */
export const usersListQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  role: z.enum(['pending', 'student', 'admin']).optional(),
  status: z.enum(['active', 'disabled']).optional(),
  ...pageQuerySchema.shape,
  sort: z.enum(USER_SORT_COLUMNS).default('name'),
});
/** What a client may send (every field optional; the server fills the defaults). */
export type UsersListQuery = Partial<z.output<typeof usersListQuerySchema>>;

export const managedUserSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  designation: z.string(),
  role: z.enum(['pending', 'student', 'admin']),
  /** Disabled by an admin, or locked after failed sign-ins (then lockedUntil says until when). */
  disabled: z.boolean(),
  /** Set while three wrong passwords keep the account locked; the lock lifts by itself then, or when an admin enables it. */
  lockedUntil: z.string().nullable(),
  createdAt: z.string(),
});
export type ManagedUser = z.infer<typeof managedUserSchema>;

export const usersPageSchema = pageOf(managedUserSchema);
export type UsersPage = z.infer<typeof usersPageSchema>;

export const userStatsSchema = z.object({
  /** Every approved account (student or admin), enabled or not. */
  total: z.number().int(),
  active: z.number().int(),
  disabled: z.number().int(),
  pending: z.number().int(),
});
export type UserStats = z.infer<typeof userStatsSchema>;

export const updateUserInputSchema = z
  .object({
    firstName: firstNameSchema.optional(),
    lastName: lastNameSchema.optional(),
    designation: designationSchema.optional(),
    role: z.enum(['student', 'admin'], { error: 'Role must be student or admin.' }).optional(),
    disabled: z.boolean().optional(),
  })
  .strict()
  .refine((input) => Object.values(input).some((value) => value !== undefined), { message: 'Nothing to change.' });
export type UpdateUserInput = z.input<typeof updateUserInputSchema>;

export const USER_EDIT_MESSAGES = {
  selfDisable: 'You cannot disable your own account.',
  selfDemote: 'You cannot remove your own admin role.',
  lastAdmin: 'This is the last active admin: make another admin first, then demote or disable this one.',
  stillPending: 'This user is still pending approval: approve or reject them under Pending Approvals.',
} as const;

/** The cards on the Admin Dashboard. */
export const dashboardStatsSchema = z.object({
  pending: z.number().int(),
  activeUsers: z.number().int(),
  /** Runs started since Monday 00:00 in the caller's time zone. */
  runsThisWeek: z.number().int(),
  failedSignInsToday: z.number().int(),
});
export type DashboardStats = z.infer<typeof dashboardStatsSchema>;

export const timeZoneQuerySchema = z.object({
  tz: timeZoneSchema,
});
