import { z } from 'zod';
import { ConfigError, commonEnvSchema, loadProcessConfig } from '@tickerbell/jobs';
import { accountsEnvSchema, checkAccountsEnv } from './accounts/accounts.config';

export const apiEnvSchema = commonEnvSchema.extend({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  /** Public origin of the site (links in emails, same-origin checks). */
  PUBLIC_URL: z.url().default('http://localhost:5173'),
  BODY_LIMIT: z.string().regex(/^\d+(b|kb|mb)$/i, 'a size such as 100kb or 1mb').default('100kb'),
  /** Express "trust proxy": hops of reverse proxies in front of the api (0 = none). */
  TRUST_PROXY: z.coerce.number().int().min(0).default(0),
  /** Operators' alternative to an admin session for bull-board at /admin/queues (Bearer or ?token=). */
  ADMIN_QUEUES_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  /** Operators' bearer token for GET /metrics (Prometheus); unset: ADMIN_QUEUES_TOKEN serves. */
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional(),
  /** Built web client to serve (web/dist); unset to serve the api only. */
  WEB_DIST_DIR: z.string().optional(),
  ...accountsEnvSchema.shape,
});

/**
 * The api's variables and every domain's (COT, prices, alerts, push, ...), validated together at
 * start: a ConfigError names every bad variable. The api runs no domain, but it refuses a
 * configuration the workers beside it would refuse.
 */
export function loadApiConfig(env: Record<string, string | undefined> = process.env) {
  const { config } = loadProcessConfig(apiEnvSchema, env, 'api');
  const issues = checkAccountsEnv(config);
  if (issues.length) throw new ConfigError(issues, 'api');
  return config;
}

export type ApiConfig = ReturnType<typeof loadApiConfig>;
