import { z } from 'zod';
import { sessionUserSchema } from './auth.schema';
import { PASSWORD_MAX_LENGTH } from './password';

/** Who must give a second factor at sign-in; 'off' leaves it to each person. */
export const SECOND_FACTOR_POLICIES = ['off', 'admins', 'everyone'] as const;
export type SecondFactorPolicy = (typeof SECOND_FACTOR_POLICIES)[number];
export const secondFactorPolicySchema = z.object({ policy: z.enum(SECOND_FACTOR_POLICIES) });

export const RECOVERY_CODE_COUNT = 10;
export const SECOND_FACTOR_KINDS = ['totp', 'passkey'] as const;
export type SecondFactorKind = (typeof SECOND_FACTOR_KINDS)[number];

export const SECOND_FACTOR_MESSAGES = {
  wrongCode: 'That code is not right. Check your authenticator app and try again.',
  passkeyFailed: 'The passkey could not be verified. Try again or use another way to sign in.',
  expired: 'The sign-in took too long. Enter your email and password again.',
  enrolExpired: 'Enrolment took too long. Start again.',
  notFound: 'No such second factor.',
  sprayThrottled: 'Too many failed sign-ins from your network. Please wait 15 minutes and try again.',
} as const;

/** After the right password, when a second factor is needed: what the second step may use. */
export const secondStepSchema = z.object({
  methods: z.array(z.enum(['totp', 'passkey', 'recovery'])),
});

export const loginResultSchema = z.object({
  /** Null while the second step is still to come. */
  user: sessionUserSchema.nullable(),
  secondStep: secondStepSchema.optional(),
  /** The platform requires a second factor and this person has none yet: Settings asks them to enrol. */
  mustEnrol: z.boolean().optional(),
});
export type LoginResult = z.infer<typeof loginResultSchema>;

export const totpCodeSchema = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'Enter the 6-digit code from your authenticator app.');

/** A one-time code or a recovery code (xxxxx-xxxxx), typed at the second step. */
export const secondStepCodeInputSchema = z.object({
  code: z.string().trim().min(1, 'Enter a code.').max(40, 'Enter the 6-digit code or a recovery code.'),
});

export const factorLabelSchema = z.string().trim().min(1, 'Give it a name.').max(60, 'At most 60 characters.');

export const secondFactorSchema = z.object({
  id: z.string(),
  kind: z.enum(SECOND_FACTOR_KINDS),
  label: z.string(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type SecondFactor = z.infer<typeof secondFactorSchema>;

export const accountSecuritySchema = z.object({
  factors: z.array(secondFactorSchema),
  recoveryCodesLeft: z.number().int(),
  policy: z.enum(SECOND_FACTOR_POLICIES),
  /** The policy applies to this person. */
  required: z.boolean(),
});
export type AccountSecurity = z.infer<typeof accountSecuritySchema>;

export const totpEnrolmentSchema = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
  /** The QR code of otpauthUrl as an SVG document, drawn on the server. */
  qrSvg: z.string(),
});

export const totpConfirmInputSchema = z.object({ code: totpCodeSchema, label: factorLabelSchema });

/** Ten codes the first time a factor is added (or when renewed), shown once; null otherwise. */
export const enrolledSchema = z.object({ factor: secondFactorSchema, recoveryCodes: z.array(z.string()).nullable() });
export const recoveryCodesSchema = z.object({ recoveryCodes: z.array(z.string()) });

/** WebAuthn JSON as @simplewebauthn produces and reads it; checked in depth by the library. */
export const webAuthnJsonSchema = z.record(z.string(), z.unknown());
export const passkeyRegisterInputSchema = z.object({ response: webAuthnJsonSchema, label: factorLabelSchema });
export const passkeyAssertInputSchema = z.object({ response: webAuthnJsonSchema });

export const activeSessionSchema = z.object({
  id: z.string(),
  device: z.string(),
  ip: z.string().nullable(),
  startedAt: z.string(),
  lastSeenAt: z.string(),
  current: z.boolean(),
});
export type ActiveSession = z.infer<typeof activeSessionSchema>;
export const activeSessionsSchema = z.object({ sessions: z.array(activeSessionSchema) });
export const sessionIdParamsSchema = z.object({ id: z.string().min(1).max(100) });
export const factorIdParamsSchema = z.object({ id: z.string().min(1).max(100) });

/**
 * Failed sign-ins from one address on this many accounts within SPRAY_WINDOW_MS mark the address as spraying: its
 * wrong passwords then answer 429, and a right password still signs in (docs/security.md).
 */
export const SPRAY_ACCOUNTS = 100;
export const SPRAY_WINDOW_MS = 15 * 60 * 1000;

/** One address failing sign-ins on many accounts (User Monitoring). */
export const sprayingAddressSchema = z.object({
  ip: z.string(),
  accounts: z.number().int(),
  failures: z.number().int(),
  lastAt: z.string(),
  throttled: z.boolean(),
});
export const sprayingListSchema = z.object({ addresses: z.array(sprayingAddressSchema) });
export type SprayingAddress = z.infer<typeof sprayingAddressSchema>;

/** A short description of a browser's user agent: "Chrome on Windows". */
export function describeUserAgent(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\//.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /(Chrome|Chromium|HeadlessChrome)\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : /curl\//i.test(userAgent)
              ? 'curl'
              : null;
  const system = /iPhone|iPad/.test(userAgent)
    ? 'iOS'
    : /Android/.test(userAgent)
      ? 'Android'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /CrOS/.test(userAgent)
            ? 'ChromeOS'
            : /Linux/.test(userAgent)
              ? 'Linux'
              : null;
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'Unknown device';
}

/** "End all other sessions": also revoke the account's API tokens (default yes). */
export const endOtherSessionsInputSchema = z.object({
  revokeApiTokens: z.boolean({ error: 'revokeApiTokens is true or false.' }).default(true),
});

/**
 * Account-security changes need the person to have given their password or a second factor in this session within
 * this long (docs/security.md, "Re-authentication").
 */
export const REAUTHENTICATION_WINDOW_MS = 10 * 60 * 1000;
/** The `code` of the 403 a change answers when the window has passed: the web app asks and retries. */
export const REAUTHENTICATION_REQUIRED = 'reauthentication-required';

export const REAUTHENTICATION_MESSAGES = {
  required: 'Confirm it is you: enter your password (or a code from your authenticator app) to continue.',
  wrongPassword: 'That password is not right.',
  wrongCode: 'That code is not right. Check your authenticator app and try again.',
} as const;

/** POST /api/auth/reauthenticate: the password, or a one-time code from an enrolled authenticator app. */
export const reauthenticateInputSchema = z
  .object({
    password: z.string().min(1, 'Enter your password.').max(PASSWORD_MAX_LENGTH).optional(),
    code: totpCodeSchema.optional(),
  })
  .refine((input) => (input.password === undefined) !== (input.code === undefined), {
    message: 'Give your password or a code from your authenticator app (one of them).',
  });
export type ReauthenticateInput = z.input<typeof reauthenticateInputSchema>;
