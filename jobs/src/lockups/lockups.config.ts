import type Redis from 'ioredis';
import { z } from 'zod';
import { secRequestsPerSecondSchema, secUserAgentSchema } from '../sources/sec-edgar.env';
import { parseEnv } from '../config/env';
import type { Clock } from '../runtime/clock';
import { EdgarHttpClient } from '../sources/sec-edgar.client';
import { LockupsLiveSource, SEC_EFTS_URL, type LockupsSource } from './lockups-sec.client';
import { LockupsReplaySource } from './lockups-replay';
import { LOCKUP_RISK_FACTORS } from './lockups.shapes';
import { DEFAULT_LOCKUP_RISK_WEIGHTS, type LockupRiskWeights } from './lockups-risk';

const isHttpUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};
const httpUrl = z
  .string()
  .refine(isHttpUrl, 'must be an http(s) URL')
  .transform((url) => url.replace(/\/+$/, ''));

const weightsShape = z.object(Object.fromEntries(LOCKUP_RISK_FACTORS.map((name) => [name, z.number().min(0).max(100).optional()]))).strict();

/** LOCKUP_RISK_WEIGHTS: a JSON object of some factors' weights; the others keep their default. */
const riskWeights = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON object, e.g. {"vcBacked":20,"floatUnlock":25}' });
      return z.NEVER;
    }
  })
  .pipe(weightsShape)
  .transform((partial) => ({ ...DEFAULT_LOCKUP_RISK_WEIGHTS, ...partial }) as LockupRiskWeights);

/** The lockups variables (docs/lockups.md, "Sources" and "Risk score"). SEC_USER_AGENT and SEC_REQUESTS_PER_SECOND are shared with insiders and news (same rules). */
export const lockupsEnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    /**
     * live: EDGAR (daily form index, full-text search, prospectuses, company facts); replay: the
     * recorded prospectuses and simulated variants of them (offline demo, labelled). Default: live in
     * production when SEC_USER_AGENT is set, replay otherwise.
     */
    LOCKUPS_SOURCE: z.enum(['live', 'replay']).optional(),
    SEC_USER_AGENT: secUserAgentSchema,
    SEC_REQUESTS_PER_SECOND: secRequestsPerSecondSchema,
    /** www.sec.gov (daily form indexes, prospectuses). */
    LOCKUPS_SEC_WWW_URL: httpUrl.default('https://www.sec.gov'),
    /** data.sec.gov (XBRL company facts). */
    LOCKUPS_SEC_DATA_URL: httpUrl.default('https://data.sec.gov'),
    /** efts.sec.gov/LATEST (EDGAR full-text search). */
    LOCKUPS_SEC_EFTS_URL: httpUrl.default(SEC_EFTS_URL),
    /** Timeout of one EDGAR request. */
    LOCKUPS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(20_000),
    /** Days of daily form indexes (424B4 rows) the discovery reads back from today (and the full-text search's window). */
    LOCKUPS_DISCOVERY_DAYS: z.coerce.number().int().min(1).max(60).default(7),
    /** Prospectuses one discovery run fetches at most (the rest wait for the next run). */
    LOCKUPS_DISCOVERY_MAX_FILINGS: z.coerce.number().int().min(1).max(500).default(50),
    /**
     * Queue a discovery when a worker starts in replay mode (the offline demo fills its calendar at once
     * instead of at the next 06:45 New York schedule). Off by default so tests and tools that start
     * workers do not discover; .env.example turns it on.
     */
    LOCKUPS_DISCOVER_ON_START: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
    /**
     * The risk score's weights as JSON, e.g. {"vcBacked":20,"floatUnlock":25,"runUp":20,"volume":10,"sector":15,"underwriterTier":10}
     * (the defaults); factors left out keep their default; the six must sum to 100.
     */
    LOCKUP_RISK_WEIGHTS: riskWeights.default(DEFAULT_LOCKUP_RISK_WEIGHTS),
  })
  .transform((env) => ({
    ...env,
    LOCKUPS_SOURCE: env.LOCKUPS_SOURCE ?? (env.NODE_ENV === 'production' && env.SEC_USER_AGENT ? 'live' : 'replay'),
  }))
  .superRefine((env, ctx) => {
    if (env.LOCKUPS_SOURCE === 'live' && !env.SEC_USER_AGENT) {
      ctx.addIssue({ code: 'custom', path: ['SEC_USER_AGENT'], message: 'required when LOCKUPS_SOURCE is live' });
    }
    const sum = LOCKUP_RISK_FACTORS.reduce((a, name) => a + env.LOCKUP_RISK_WEIGHTS[name], 0);
    if (Math.abs(sum - 100) > 1e-9) {
      ctx.addIssue({ code: 'custom', path: ['LOCKUP_RISK_WEIGHTS'], message: `the six weights must sum to 100 (they sum to ${sum})` });
    }
  });

export type LockupsConfig = z.infer<typeof lockupsEnvSchema>;

export function loadLockupsConfig(env: Record<string, string | undefined>): LockupsConfig {
  return parseEnv(lockupsEnvSchema, env, 'lockups');
}

/** The source of a configuration. Live mode needs the cluster's Redis for the shared SEC rate limit. */
export function lockupsSourceFromConfig(config: LockupsConfig, shared: { redis: Redis; keyPrefix: string; clock: Clock }): LockupsSource {
  if (config.LOCKUPS_SOURCE === 'replay') return new LockupsReplaySource({ clock: shared.clock });
  const http = new EdgarHttpClient({
    userAgent: config.SEC_USER_AGENT as string,
    redis: shared.redis,
    keyPrefix: shared.keyPrefix,
    requestsPerSecond: config.SEC_REQUESTS_PER_SECOND,
    timeoutMs: config.LOCKUPS_TIMEOUT_MS,
  });
  return new LockupsLiveSource(http, { wwwUrl: config.LOCKUPS_SEC_WWW_URL, dataUrl: config.LOCKUPS_SEC_DATA_URL, eftsUrl: config.LOCKUPS_SEC_EFTS_URL });
}
