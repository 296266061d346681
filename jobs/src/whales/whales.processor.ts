import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { defineHandler, type JobContext } from '../runtime/job-handler';
import type { EthSource } from './eth-rpc.client';
import { whalesScanOptions, type WhalesConfig } from './whales.config';
import { whalesJobIds } from './whales.jobs';
import { scanStep, type ScanOutcome, type TokenResolver } from './whales-scan';
import { WHALES_CHAIN } from './whales.store';

export interface WhalesHandlerDeps {
  config: () => WhalesConfig;
  /** The source (live node or the in-process replay twin), built once per process on the first job (whales.domain.ts). */
  source: (context: JobContext) => Promise<EthSource>;
  /** Token symbol and decimals (token list, eth_call fallback, whale_tokens cache). */
  tokens: (context: JobContext, source: EthSource) => TokenResolver;
}

/** Longer than any scan step (50 blocks and their logs); a crashed holder frees the chain after it. */
export const WHALES_SCAN_LOCK_MS = 5 * 60_000;
const RELEASE_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export const whalesScanLockKey = (prefix: string, chain: string) => `${prefix}:whales:scan-lock:${chain}`;

/** Runs `work` while holding the chain's scan lock; answers null when another worker holds it. */
export async function withScanLock<T>(redis: Redis, prefix: string, chain: string, work: () => Promise<T>): Promise<T | null> {
  const key = whalesScanLockKey(prefix, chain);
  const token = randomUUID();
  if ((await redis.set(key, token, 'PX', WHALES_SCAN_LOCK_MS, 'NX')) !== 'OK') return null;
  try {
    return await work();
  } finally {
    await redis.eval(RELEASE_LOCK, 1, key, token);
  }
}

export function createWhalesHandlers(deps: WhalesHandlerDeps) {
  return [
    defineHandler('whales.scan', async (_payload, context) => {
      const config = deps.config();
      const chain = WHALES_CHAIN;
      const outcome = await withScanLock(context.redis, context.queues.prefix, chain, async (): Promise<ScanOutcome> => {
        const source = await deps.source(context);
        return scanStep(
          {
            dataSource: context.dataSource,
            clock: context.clock,
            logger: context.logger,
            tokens: deps.tokens(context, source),
            globalUsdThreshold: config.WHALES_GLOBAL_USD_THRESHOLD,
            chain,
          },
          source,
          whalesScanOptions(config),
        );
      });
      if (!outcome) return { status: 'busy' };
      // Behind the target (catching up after downtime) or rolled back: the next batch now, not at the next tick.
      const next = outcome.status === 'scanned' && outcome.to < outcome.target ? outcome.to + 1 : outcome.status === 'reorg' ? outcome.rolledBackFrom : null;
      if (next !== null) await context.queues.add('whales.scan', {}, { jobId: whalesJobIds.continueFrom(chain, next) });
      if (outcome.status !== 'idle') context.logger.info({ ...outcome }, `whales: ${outcome.status}`);
      return outcome;
    }),
  ];
}
