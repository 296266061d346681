import { z } from 'zod';
import { parseEnv } from '../config/env';

const isHttpUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** The predictions variables (docs/predictions.md). */
export const predictionsEnvSchema = z.object({
  // Source: sync and snapshots
  /**
   * Polymarket's Gamma API (markets, events), e.g. https://gamma-api.polymarket.com (public, no key).
   * Unset: the replay twin runs inside the workers, a local server serving the recorded Gamma and CLOB
   * answers and a simulated set built from them (prices moving with the clock), labelled 'replay'.
   */
  POLYMARKET_GAMMA_URL: z.string().refine(isHttpUrl, 'must be an http(s) URL').optional(),
  /** Polymarket's CLOB API (order books, midpoints), used with POLYMARKET_GAMMA_URL; unset: https://clob.polymarket.com. */
  POLYMARKET_CLOB_URL: z.string().refine(isHttpUrl, 'must be an http(s) URL').optional(),
  /** Minutes between syncs of the active markets (new, changed, closed and resolved ones). */
  PREDICTIONS_SYNC_MINUTES: z.coerce.number().int().min(1).max(1440).default(5),
  /** Minutes between price snapshots of tracked markets (forecast or followed): the resolution of our price history. */
  PREDICTIONS_SNAPSHOT_MINUTES: z.coerce.number().int().min(1).max(1440).default(15),
  /** Timeout of one Gamma or CLOB request (a page of 500 markets is about 2 MB). */
  POLYMARKET_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(15_000),
  /** Gamma requests per 10 s for the whole cluster; Polymarket publishes 300 for /markets: stay below it. */
  POLYMARKET_GAMMA_REQUESTS_PER_10S: z.coerce.number().int().min(1).max(300).default(250),
  /** CLOB book and midpoint requests per 10 s for the whole cluster (one or two per tracked market and snapshot). */
  POLYMARKET_CLOB_REQUESTS_PER_10S: z.coerce.number().int().min(1).max(1500).default(100),
  /** Simulated markets the replay twin serves besides the recorded ones (offline only). */
  PREDICTIONS_REPLAY_MARKETS: z.coerce.number().int().min(0).max(50_000).default(300),
  // Forecasts and performance
  /** Scored questions a market category needs before it is listed among a user's best categories or improvement areas. */
  PREDICTIONS_MIN_CATEGORY_QUESTIONS: z.coerce.number().int().min(1).max(1000).default(3),
  // Mispricing
  /** Days a user's current forecast counts in the consensus fair value (older ones are left out). */
  PREDICTIONS_CONSENSUS_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  /** Users with a recent forecast needed before their consensus is a fair value (fewer: no consensus, no alert). */
  PREDICTIONS_CONSENSUS_MIN_FORECASTERS: z.coerce.number().int().min(1).max(1000).default(3),
  /** Gap between the fair value and the executable price that opens an alert, in probability (0.05 = 5 points); it closes below 0.6 x this. */
  PREDICTIONS_MISPRICING_THRESHOLD: z.coerce.number().min(0.005).max(0.5).default(0.05),
  /** Trading fee as a fraction of the amount traded, taken off every gap; 0 because Polymarket charges no trading fee on most markets. */
  PREDICTIONS_FEE_RATE: z.coerce.number().min(0).max(0.1).default(0),
  /** How often the scheduled mispricing run recomputes the alerts (a sync also queues one). */
  PREDICTIONS_MISPRICING_MINUTES: z.coerce.number().int().min(1).max(1440).default(5),
  /** Markets and categories one user may follow. */
  PREDICTIONS_MAX_FOLLOWS: z.coerce.number().int().min(1).max(10_000).default(200),
});

export type PredictionsConfig = z.infer<typeof predictionsEnvSchema>;

export function loadPredictionsConfig(env: Record<string, string | undefined>): PredictionsConfig {
  return parseEnv(predictionsEnvSchema, env, 'predictions');
}
