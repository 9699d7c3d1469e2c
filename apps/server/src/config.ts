import { isAccountEmail } from '@tradecraft/shared';
import { z } from 'zod';

const port = z.coerce.number().int().min(1).max(65535);

const commaList = z
  .string()
  .default('')
  .transform((value) =>
    value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean),
  );

const flag = (fallback: 'true' | 'false') =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback)
    .transform((value) => value === 'true' || value === '1');

/** An identity provider on this machine may speak plain http (tests, a provider beside the server); any other must not. */
function isLoopbackHttp(address: string): boolean {
  const url = new URL(address);
  return url.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
}

const envSchema = z
  .object({
    PORT: port.default(8080),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
      .optional(),
    // Any address the product signs in with, the default admin@localhost included.
    ADMIN_EMAIL: z
      .string()
      .transform((value) => value.trim().toLowerCase())
      .refine(isAccountEmail, 'must be an email address such as admin@example.org or admin@localhost')
      .optional(),
    ADMIN_PASSWORD: z.string().min(8).optional(),
    PUBLIC_ORIGIN: z.url({ protocol: /^https?$/ }).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    REPOSITORY_URL: z.url({ protocol: /^https?$/ }).default('https://github.com/tradecraft-range/tradecraft'),
    WEB_DIST_DIR: z.string().min(1).optional(),
    LOCKOUT_MINUTES: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(15),
    RUN_STARTS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
    TRUSTED_HOSTS: commaList.refine(
      (hosts) => hosts.every((host) => /^(?:[a-z0-9.-]+|\[[0-9a-f:]+\])(?::\d{1,5})?$/i.test(host)),
      {
        message: 'must be a comma-separated list of host names, each with an optional :port',
      },
    ),
    TRUST_PROXY: flag('false'),
    OIDC_ISSUER: z
      .url({ protocol: /^https?$/ })
      .refine((address) => address.startsWith('https://') || isLoopbackHttp(address), {
        message: 'must be an https:// address (http:// only for a provider on this machine)',
      })
      .optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    OIDC_SCOPES: z
      .string()
      .default('openid email profile')
      .refine((scopes) => scopes.split(/\s+/).includes('openid'), { message: 'must include openid' }),
    OIDC_DISPLAY_NAME: z.string().trim().min(1).max(60).default('single sign-on'),
    OIDC_ADMIN_GROUPS: commaList,
    OIDC_AUTO_APPROVE_DOMAINS: commaList.transform((domains) => domains.map((domain) => domain.toLowerCase())),
    OIDC_TRUST_PROVIDER_MFA: flag('false'),
    OIDC_MFA_ACR_VALUES: commaList,
    LOCAL_LOGIN: flag('true'),
    XAPI_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    XAPI_USERNAME: z.string().optional(),
    XAPI_PASSWORD: z.string().optional(),
    XAPI_ACTOR: z.enum(['mbox', 'account']).default('mbox'),
    SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
    MAIL_FROM: z
      .string()
      .trim()
      .refine((value) => /^[^<>@\s]+@[^<>@\s]+$|<[^<>@\s]+@[^<>@\s]+>$/.test(value), {
        message: 'must be an address such as tradecraft@example.org or "Tradecraft <tradecraft@example.org>"',
      })
      .optional(),
  })
  .refine((env) => !env.ADMIN_PASSWORD || env.ADMIN_EMAIL, {
    path: ['ADMIN_EMAIL'],
    message: 'is required when ADMIN_PASSWORD is set',
  })
  .refine((env) => !env.OIDC_ISSUER || env.OIDC_CLIENT_ID, {
    path: ['OIDC_CLIENT_ID'],
    message: 'is required when OIDC_ISSUER is set',
  })
  .refine((env) => !env.XAPI_ENDPOINT || env.PUBLIC_ORIGIN, {
    path: ['PUBLIC_ORIGIN'],
    message: 'is required when XAPI_ENDPOINT is set (every xAPI activity id lives under it)',
  })
  .refine((env) => !env.SMTP_URL || env.PUBLIC_ORIGIN, {
    path: ['PUBLIC_ORIGIN'],
    message: 'is required when SMTP_URL is set (every mail links to it)',
  })
  .refine((env) => !env.SMTP_URL || env.MAIL_FROM, {
    path: ['MAIL_FROM'],
    message: 'is required when SMTP_URL is set (the address mail is sent from)',
  })
  .refine((env) => env.LOCAL_LOGIN || env.OIDC_ISSUER, {
    path: ['LOCAL_LOGIN'],
    message: 'can be false only when OIDC_ISSUER is set (nobody could sign in otherwise)',
  });

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  publicOrigin: string;
  /** PUBLIC_ORIGIN was set (not the localhost default): the setup checklist's step. */
  publicOriginSet: boolean;
  secureCookies: boolean;
  logLevel: string;
  repositoryUrl: string;
  webDistDir: string | undefined;
  /** How long three wrong passwords lock an account. */
  lockoutMinutes: number;
  /** How many runs one user may start in a minute. */
  runStartsPerMinute: number;
  /** Take the client address from X-Forwarded-For (only behind a proxy you run). */
  trustProxy: boolean;
  /** Host names besides PUBLIC_ORIGIN's that the server answers for (and whose origins may change state). */
  trustedHosts: string[];
  /** Single sign-on through an OpenID Connect provider, when OIDC_ISSUER is set. */
  sso: SsoConfig | null;
  /** Whether people may sign in (and register) with a password. */
  localLogin: boolean;
  /** Statements to a Learning Record Store, when XAPI_ENDPOINT is set (docs/interoperability.md, "xAPI"). */
  xapi: XapiConfig | null;
  /** Mail through an SMTP server, when SMTP_URL is set (docs/operations.md, "Mail"). */
  mail: MailConfig | null;
}

export interface MailConfig {
  /** smtp:// (STARTTLS when the server offers it) or smtps://, with credentials when the server asks. */
  smtpUrl: string;
  /** The From of every mail. */
  from: string;
}

export interface XapiConfig {
  /** The LRS's xAPI base address; statements go to its `statements` resource. */
  endpoint: string;
  /** HTTP Basic credentials the LRS gave this product, when it asks for them. */
  username: string | undefined;
  password: string | undefined;
  /** `mbox` names the trainee by email; `account` by their id on this site. */
  actor: 'mbox' | 'account';
}

export interface SsoConfig {
  issuer: string;
  clientId: string;
  /** Absent: a public client, protected by PKCE alone. */
  clientSecret: string | undefined;
  scopes: string;
  /** The button says "Sign in with <displayName>". */
  displayName: string;
  /** Values of the `groups` claim that make an admin. */
  adminGroups: string[];
  /** Email domains approved as trainees at their first sign-in; anyone else waits for approval. */
  autoApproveDomains: string[];
  /**
   * Whether the provider's assertion of a second factor (`amr` contains `mfa`, or `acr` is one of `mfaAcrValues`)
   * stands in for the second factor of a local account that has one (docs/security.md, "Single sign-on").
   */
  trustProviderMfa: boolean;
  /** `acr` values that mean the person used a second factor at the provider. */
  mfaAcrValues: string[];
}

export class ConfigError extends Error {}

/** Reads every environment variable once; a bad value throws naming the variable and what is wrong. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty strings (as left by a copied .env.example) mean "not set".
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.') || '(environment)'}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const values = parsed.data;
  const publicOrigin = (values.PUBLIC_ORIGIN ?? `http://localhost:${values.PORT}`).replace(/\/+$/, '');
  return {
    port: values.PORT,
    host: values.HOST,
    dataDir: values.DATA_DIR,
    databaseUrl: values.DATABASE_URL,
    adminEmail: values.ADMIN_EMAIL?.trim().toLowerCase(),
    adminPassword: values.ADMIN_PASSWORD,
    publicOrigin,
    publicOriginSet: values.PUBLIC_ORIGIN !== undefined,
    secureCookies: publicOrigin.startsWith('https://'),
    logLevel: values.LOG_LEVEL,
    repositoryUrl: values.REPOSITORY_URL,
    webDistDir: values.WEB_DIST_DIR,
    lockoutMinutes: values.LOCKOUT_MINUTES,
    runStartsPerMinute: values.RUN_STARTS_PER_MINUTE,
    trustProxy: values.TRUST_PROXY,
    trustedHosts: values.TRUSTED_HOSTS,
    sso:
      values.OIDC_ISSUER && values.OIDC_CLIENT_ID
        ? {
            issuer: values.OIDC_ISSUER,
            clientId: values.OIDC_CLIENT_ID,
            clientSecret: values.OIDC_CLIENT_SECRET,
            scopes: values.OIDC_SCOPES,
            displayName: values.OIDC_DISPLAY_NAME,
            adminGroups: values.OIDC_ADMIN_GROUPS,
            autoApproveDomains: values.OIDC_AUTO_APPROVE_DOMAINS,
            trustProviderMfa: values.OIDC_TRUST_PROVIDER_MFA,
            mfaAcrValues: values.OIDC_MFA_ACR_VALUES,
          }
        : null,
    localLogin: values.LOCAL_LOGIN,
    xapi: values.XAPI_ENDPOINT
      ? {
          endpoint: values.XAPI_ENDPOINT.replace(/\/+$/, ''),
          username: values.XAPI_USERNAME,
          password: values.XAPI_PASSWORD,
          actor: values.XAPI_ACTOR,
        }
      : null,
    mail: values.SMTP_URL && values.MAIL_FROM ? { smtpUrl: values.SMTP_URL, from: values.MAIL_FROM } : null,
  };
}
