import { z } from 'zod';
import { parseEnv } from '../config/env';

const isHttpUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/** The whales variables (docs/whales.md, "Source"). */
export const whalesEnvSchema = z.object({
  /**
   * An Ethereum JSON-RPC endpoint (any node or provider; it may hold an API key: it is never
   * logged). Unset: the replay twin runs inside the workers, a local node serving blocks built from
   * the recorded mainnet blocks, one every 12 s, labelled 'replay'.
   */
  ETH_RPC_URL: z.string().refine(isHttpUrl, 'must be an http(s) URL').optional(),
  /**
   * Blocks behind the head that are scanned (a reorg shallower than this never reaches the
   * stored rows), or `finalized` to follow the node's finalized block (about 13 minutes behind).
   */
  WHALES_CONFIRMATIONS: z
    .union([z.literal('finalized'), z.coerce.number().int().min(0).max(128)], { error: 'must be an integer from 0 to 128, or "finalized"' })
    .default(12),
  /** Blocks one scan step reads at most: after downtime the scanner catches up in batches of this size. */
  WHALES_SCAN_BATCH: z.coerce.number().int().min(1).max(500).default(50),
  /** USD value from which any transfer is a whale transfer, watched address or not. */
  WHALES_GLOBAL_USD_THRESHOLD: z.coerce.number().positive().default(1_000_000),
  /** Where the first scan starts (no checkpoint yet); unset: at the current head minus the confirmations. */
  WHALES_START_BLOCK: z.coerce.number().int().min(0).optional(),
  /** Requests per second to ETH_RPC_URL for the whole cluster (a provider's plan quota). */
  ETH_RPC_REQUESTS_PER_SECOND: z.coerce.number().int().min(1).max(1000).default(10),
  /** Timeout of one JSON-RPC request (a batch counts as one). */
  ETH_RPC_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(15_000),
  /**
   * DefiLlama's coins API (ERC-20 USD prices at block time), used with ETH_RPC_URL; unset: the
   * public API. Without ETH_RPC_URL the coins replay twin runs instead (simulated prices, offline).
   */
  DEFILLAMA_COINS_URL: z.string().refine(isHttpUrl, 'must be an http(s) URL').optional(),
  /** Requests per second to the coins API for the whole cluster (one request per block with tokens). */
  DEFILLAMA_REQUESTS_PER_SECOND: z.coerce.number().int().min(1).max(100).default(5),
  DEFILLAMA_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(10_000),
  /** How far from the block time a DefiLlama price point may be (its `searchWidth`: '4h', '30m' or seconds). */
  DEFILLAMA_SEARCH_WIDTH: z
    .string()
    .regex(/^\d+[smhdw]?$/, 'must be a duration like 4h, 30m or 600')
    .default('4h'),
});

export type WhalesConfig = z.infer<typeof whalesEnvSchema>;

export function loadWhalesConfig(env: Record<string, string | undefined>): WhalesConfig {
  return parseEnv(whalesEnvSchema, env, 'whales');
}

/** The scan options of a configuration (whales-scan.ts). */
export function whalesScanOptions(config: WhalesConfig) {
  return {
    confirmations: config.WHALES_CONFIRMATIONS === 'finalized' ? undefined : config.WHALES_CONFIRMATIONS,
    finalized: config.WHALES_CONFIRMATIONS === 'finalized',
    maxBatch: config.WHALES_SCAN_BATCH,
    startBlock: config.WHALES_START_BLOCK === undefined ? null : BigInt(config.WHALES_START_BLOCK),
  };
}
