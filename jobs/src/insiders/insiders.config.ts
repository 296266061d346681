import type Redis from 'ioredis';
import { z } from 'zod';
import { secRequestsPerSecondSchema, secUserAgentSchema } from '../sources/sec-edgar.env';
import { parseEnv } from '../config/env';
import type { Clock } from '../runtime/clock';
import { EdgarHttpClient } from '../sources/sec-edgar.client';
import { InsidersLiveSource, SEC_DATA_URL, SEC_WWW_URL, type InsidersSource } from './insiders-sec.client';
import { InsidersReplaySource } from './insiders-replay';
import { INSIDERS_RECORDINGS_DIR } from './form4.parse';

/** The recorded real payloads the offline (replay) mode serves: copies of ../shared/fixtures/sec (data/README.md). */
export const BUNDLED_INSIDERS_RECORDINGS_DIR = INSIDERS_RECORDINGS_DIR;

/** The poll job is scheduled every tick; INSIDERS_POLL_SECONDS (a multiple of it) says which ticks poll. */
export const INSIDERS_POLL_TICK_SECONDS = 15;

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

/** The insiders variables (docs/insiders.md, "Sources"). SEC_USER_AGENT and SEC_REQUESTS_PER_SECOND are shared with news (same rules). */
export const insidersEnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    /**
     * live: EDGAR (feed, daily indexes, filings, tickers, submissions); replay: the recorded files
     * (offline mode, with simulated variants of a recorded purchase). Default: live in production
     * when SEC_USER_AGENT is set, replay otherwise.
     */
    INSIDERS_SOURCE: z.enum(['live', 'replay']).optional(),
    SEC_USER_AGENT: secUserAgentSchema,
    SEC_REQUESTS_PER_SECOND: secRequestsPerSecondSchema,
    /** www.sec.gov (the current-filings feed, the archives with filings and daily indexes, company_tickers.json). */
    INSIDERS_SEC_WWW_URL: httpUrl.default(SEC_WWW_URL),
    /** data.sec.gov (the submissions JSON of a company backfill). */
    INSIDERS_SEC_DATA_URL: httpUrl.default(SEC_DATA_URL),
    /** Where replay mode reads its recordings (data/README.md names each file). */
    INSIDERS_REPLAY_DIR: z.string().default(BUNDLED_INSIDERS_RECORDINGS_DIR),
    /** Filings the replay feed releases per poll (so that new filings keep arriving offline). */
    INSIDERS_REPLAY_PER_POLL: z.coerce.number().int().min(1).max(100).default(3),
    /** How often the current-filings feed is read, in seconds (a multiple of the 15 s schedule tick). */
    INSIDERS_POLL_SECONDS: z.coerce
      .number()
      .int()
      .min(INSIDERS_POLL_TICK_SECONDS)
      .max(3600)
      .refine((n) => n % INSIDERS_POLL_TICK_SECONDS === 0, `must be a multiple of ${INSIDERS_POLL_TICK_SECONDS}`)
      .default(60),
    /** Feed pages (100 entries, 50 filings) read in one poll when every filing of a page is new (a burst). */
    INSIDERS_FEED_PAGES: z.coerce.number().int().min(1).max(10).default(3),
    /** Fetch attempts of one filing (HTTP errors); then it is recorded failed and not retried. */
    INSIDERS_MAX_FILING_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(5),
    /** First retry delay of a filing fetch (doubling): 60 s outlasts EDGAR's 10-minute pause after a 429 over 5 attempts. */
    INSIDERS_RETRY_DELAY_MS: z.coerce.number().int().min(10).max(3_600_000).default(60_000),
    /** Business days of daily indexes the catch-up reads at most (after an outage). */
    INSIDERS_CATCH_UP_DAYS: z.coerce.number().int().min(1).max(60).default(10),
    /** Form 4 filings a company backfill fetches at most (its newest, from the submissions JSON). */
    INSIDERS_BACKFILL_FILINGS: z.coerce.number().int().min(1).max(1000).default(100),
    /** Timeout of one EDGAR request. */
    INSIDERS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(15_000),
  })
  .transform((env) => ({
    ...env,
    INSIDERS_SOURCE: env.INSIDERS_SOURCE ?? (env.NODE_ENV === 'production' && env.SEC_USER_AGENT ? 'live' : 'replay'),
  }))
  .superRefine((env, ctx) => {
    if (env.INSIDERS_SOURCE === 'live' && !env.SEC_USER_AGENT) {
      ctx.addIssue({ code: 'custom', path: ['SEC_USER_AGENT'], message: 'required when INSIDERS_SOURCE is live' });
    }
  });

export type InsidersConfig = z.infer<typeof insidersEnvSchema>;

export function loadInsidersConfig(env: Record<string, string | undefined>): InsidersConfig {
  return parseEnv(insidersEnvSchema, env, 'insiders');
}

/** The source of a configuration. Live mode needs the cluster's Redis for the shared SEC rate limit. */
export function insidersSourceFromConfig(config: InsidersConfig, shared: { redis: Redis; keyPrefix: string; clock: Clock }): InsidersSource {
  if (config.INSIDERS_SOURCE === 'replay') {
    return new InsidersReplaySource({ dir: config.INSIDERS_REPLAY_DIR, clock: shared.clock, perPoll: config.INSIDERS_REPLAY_PER_POLL });
  }
  const http = new EdgarHttpClient({
    userAgent: config.SEC_USER_AGENT as string,
    redis: shared.redis,
    keyPrefix: shared.keyPrefix,
    requestsPerSecond: config.SEC_REQUESTS_PER_SECOND,
    timeoutMs: config.INSIDERS_TIMEOUT_MS,
  });
  return new InsidersLiveSource(http, { wwwUrl: config.INSIDERS_SEC_WWW_URL, dataUrl: config.INSIDERS_SEC_DATA_URL });
}
