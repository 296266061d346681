import { z } from 'zod';
import { parseEnv } from '../config/env';
import { CFTC_TFF_API_URL, CFTC_TFF_ARCHIVE_URL, CftcLiveSource, CftcReplaySource, DEFAULT_CFTC_USER_AGENT, type CftcSource } from './cftc.client';
import { COT_LOOKBACKS, DEFAULT_COT_LOOKBACK } from './cot-analytics';
import { COT_SAMPLE_PATH } from './cot.seed';

const httpUrl = z.string().refine((value) => {
  try {
    return ['http:', 'https:'].includes(new URL(value.replace('{year}', '2000')).protocol);
  } catch {
    return false;
  }
}, 'must be an http(s) URL');

/** The COT variables (all optional; in production the defaults talk to the real CFTC). */
export const cotEnvSchema = z
  .object({
    NODE_ENV: z.string().optional(),
    /**
     * live: the CFTC public reporting API and yearly archives; replay: the files in COT_REPLAY_FILES.
     * Default: live in production, replay otherwise (as news and insiders), so a development system
     * offline never polls the CFTC on Friday evenings.
     */
    COT_SOURCE: z.enum(['live', 'replay']).optional(),
    /** Comma-separated paths of recorded TFF files (.txt/.csv/.zip/.json) served in replay mode (default: the bundled 2022 sample). */
    COT_REPLAY_FILES: z
      .string()
      .transform((v) => v.split(',').map((f) => f.trim()).filter(Boolean))
      .optional(),
    CFTC_API_URL: httpUrl.default(CFTC_TFF_API_URL),
    /** The yearly archive URL with `{year}` in it. */
    CFTC_ARCHIVE_URL: httpUrl.default(CFTC_TFF_ARCHIVE_URL),
    CFTC_USER_AGENT: z.string().min(3).default(DEFAULT_CFTC_USER_AGENT),
    CFTC_TIMEOUT_MS: z.coerce.number().int().min(1000).max(300000).default(30000),
    /** The lookback (reports) of the stored analytics. */
    COT_LOOKBACK: z.coerce
      .number()
      .refine((n) => (COT_LOOKBACKS as readonly number[]).includes(n), `one of ${COT_LOOKBACKS.join(', ')}`)
      .default(DEFAULT_COT_LOOKBACK),
  })
  .transform((env) => ({ ...env, COT_SOURCE: env.COT_SOURCE ?? (env.NODE_ENV === 'production' ? 'live' : 'replay') }));

export type CotConfig = z.infer<typeof cotEnvSchema>;

export function loadCotConfig(env: Record<string, string | undefined>): CotConfig {
  return parseEnv(cotEnvSchema, env, 'cot');
}

export function cftcSourceFromConfig(config: CotConfig): CftcSource {
  if (config.COT_SOURCE === 'replay') return new CftcReplaySource(config.COT_REPLAY_FILES?.length ? config.COT_REPLAY_FILES : [COT_SAMPLE_PATH]);
  return new CftcLiveSource({
    apiUrl: config.CFTC_API_URL,
    archiveUrl: config.CFTC_ARCHIVE_URL,
    userAgent: config.CFTC_USER_AGENT,
    timeoutMs: config.CFTC_TIMEOUT_MS,
  });
}
