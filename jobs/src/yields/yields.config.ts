import { z } from 'zod';
import { parseEnv } from '../config/env';

const isHttpUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** The yields variables (docs/yields.md, "Sources" and "Jobs"). */
export const yieldsEnvSchema = z.object({
  /**
   * DefiLlama's yields API, e.g. https://yields.llama.fi (public, no key). Unset: the replay twins
   * run inside the workers (a local /pools answer simulated from DefiLlama's published example record,
   * and the subgraph twin serving the recorded Uniswap v3 answers), labelled 'replay'.
   */
  DEFILLAMA_YIELDS_URL: z.string().refine(isHttpUrl, 'must be an http(s) URL').optional(),
  /**
   * A Uniswap v3 subgraph (hosted or gateway URL; a gateway may hold its key in the path). Used with
   * DEFILLAMA_YIELDS_URL: unset there, our fee APR comes from DefiLlama's volume x fee tier only.
   */
  UNISWAP_SUBGRAPH_URL: z.string().refine(isHttpUrl, 'must be an http(s) URL').optional(),
  /** Sent as `Authorization: Bearer` to UNISWAP_SUBGRAPH_URL (gateways that take the key in a header). Never logged. */
  UNISWAP_SUBGRAPH_API_KEY: z.string().min(1).optional(),
  /** The DefiLlama chain name of the pools the subgraph indexes (a subgraph serves one chain). */
  YIELDS_SUBGRAPH_CHAIN: z.string().min(1).max(40).default('Ethereum'),
  /** Pools per chain stored every hour, by TVL (besides every pool with an alert). */
  YIELDS_TOP_POOLS_PER_CHAIN: z.coerce.number().int().min(1).max(20_000).default(500),
  /** Newly tracked pools whose 30-day history is fetched from DefiLlama's /chart per ingest (one request each). */
  YIELDS_CHART_BACKFILL_PER_RUN: z.coerce.number().int().min(0).max(1000).default(20),
  /** Timeout of the whole /pools answer (about 11 MB, streamed). */
  DEFILLAMA_YIELDS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
  /** Requests per second to DEFILLAMA_YIELDS_URL for the whole cluster (/pools hourly, /chart backfills). */
  DEFILLAMA_YIELDS_REQUESTS_PER_SECOND: z.coerce.number().int().min(1).max(100).default(2),
  UNISWAP_SUBGRAPH_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(20_000),
  /** Requests per second to UNISWAP_SUBGRAPH_URL for the whole cluster (a gateway plan's quota). */
  UNISWAP_SUBGRAPH_REQUESTS_PER_SECOND: z.coerce.number().int().min(1).max(100).default(5),
  /** Default cooldown of a new yield alert (minutes): at most one firing per cooldown. */
  YIELDS_ALERT_COOLDOWN_MINUTES: z.coerce.number().int().min(0).max(10_080).default(360),
  /** Days hourly snapshots are kept; older ones are thinned to the last of each UTC day. */
  YIELDS_HOURLY_RETENTION_DAYS: z.coerce.number().int().min(1).max(90).default(7),
  /** Days daily snapshots are kept; older ones are deleted (alert history keeps its rows, without the snapshot link). */
  YIELDS_RETENTION_DAYS: z.coerce.number().int().min(31).max(3650).default(365),
  /** Pools in the replay twin's /pools answer (offline only). */
  YIELDS_REPLAY_POOLS: z.coerce.number().int().min(2).max(50_000).default(2000),
});

export type YieldsConfig = z.infer<typeof yieldsEnvSchema>;

export function loadYieldsConfig(env: Record<string, string | undefined>): YieldsConfig {
  return parseEnv(yieldsEnvSchema, env, 'yields');
}
