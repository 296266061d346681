import { z } from 'zod';

const httpUrl = z.url({ protocol: /^https?$/ });
const positiveInt = (fallback: number) => z.coerce.number().int().min(1).default(fallback);

/** Accounts settings of the api (sessions, Google sign-in, rate limits). Each is described in .env.example. */
export const accountsEnvSchema = z.object({
  /** Signs the session cookie. Required in production; a fixed development value (with a warning) otherwise. */
  SESSION_SECRET: z.string().min(32, 'at least 32 characters').optional(),
  SESSION_MAX_AGE_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  /** Overrides of Google's OAuth endpoints (tests point them at a local fake server). */
  GOOGLE_AUTHORIZATION_URL: httpUrl.default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_TOKEN_URL: httpUrl.default('https://oauth2.googleapis.com/token'),
  GOOGLE_USERINFO_URL: httpUrl.default('https://openidconnect.googleapis.com/v1/userinfo'),
  /** Redis key prefix of the rate limiters (default: `<QUEUE_PREFIX>:rl`). */
  RATE_LIMIT_PREFIX: z.string().regex(/^[A-Za-z0-9{}:_-]+$/).optional(),
  RATE_LIMIT_WINDOW_SECONDS: positiveInt(900),
  /** Failed sign-ins per client (IP; IPv6: its /64) and email per window; the right password resets the count. */
  RATE_LIMIT_SIGNIN_MAX: positiveInt(10),
  /** Failed sign-ins per client (IP; IPv6: its /64) across all emails per window: stops password spraying. */
  RATE_LIMIT_SIGNIN_IP_MAX: positiveInt(30),
  RATE_LIMIT_SIGNUP_MAX: positiveInt(5),
  RATE_LIMIT_RESET_MAX: positiveInt(5),
  RATE_LIMIT_LOG_MAX: positiveInt(60),
});

export type AccountsEnv = z.infer<typeof accountsEnvSchema>;

/** Rules across variables, checked after parsing (a refined zod object could no longer be extended). */
export function checkAccountsEnv(config: AccountsEnv & { NODE_ENV: string }): { variable: string; message: string }[] {
  const issues: { variable: string; message: string }[] = [];
  if (config.NODE_ENV === 'production' && !config.SESSION_SECRET) {
    issues.push({ variable: 'SESSION_SECRET', message: 'required when NODE_ENV=production' });
  }
  if (Boolean(config.GOOGLE_CLIENT_ID) !== Boolean(config.GOOGLE_CLIENT_SECRET)) {
    const missing = config.GOOGLE_CLIENT_ID ? 'GOOGLE_CLIENT_SECRET' : 'GOOGLE_CLIENT_ID';
    issues.push({ variable: missing, message: 'GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set together or not at all' });
  }
  return issues;
}

export function googleEnabled(config: AccountsEnv): config is AccountsEnv & { GOOGLE_CLIENT_ID: string; GOOGLE_CLIENT_SECRET: string } {
  return Boolean(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET);
}
