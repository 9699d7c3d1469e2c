import { z } from 'zod';

export const API_TOKEN_SCOPES = ['read', 'read-write'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];

export const API_TOKEN_SCOPE_LABELS: Record<ApiTokenScope, string> = {
  read: 'Read only',
  'read-write': 'Read and write',
};

/** How many live (neither revoked nor expired) tokens one admin may hold. */
export const MAX_LIVE_API_TOKENS = 20;
export const MAX_API_TOKEN_DAYS = 365;

export const createApiTokenInputSchema = z.object({
  name: z.string().trim().min(1, 'Name the token (what it is for).').max(80, 'A name is at most 80 characters.'),
  scope: z.enum(API_TOKEN_SCOPES, { error: 'Choose read only or read and write.' }),
  expiresInDays: z
    .int('Give the days as a whole number.')
    .min(1, 'A token lasts at least a day.')
    .max(MAX_API_TOKEN_DAYS, `A token lasts at most ${MAX_API_TOKEN_DAYS} days.`),
});
export type CreateApiTokenInput = z.input<typeof createApiTokenInputSchema>;

export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  scope: z.enum(API_TOKEN_SCOPES),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokenListSchema = z.object({ tokens: z.array(apiTokenSchema) });

/** The answer to a creation: the token itself, shown this once and never again. */
export const createdApiTokenSchema = z.object({ token: z.string(), apiToken: apiTokenSchema });
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;
