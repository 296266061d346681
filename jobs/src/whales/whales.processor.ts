import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import { defineHandler, type JobContext, type JobHandler } from '../runtime/job-handler';
import type { EthSource } from './eth-rpc.client';
import { whalesScanOptions, type WhalesConfig } from './whales.config';
import { whalesJobIds } from './whales.jobs';
import type { WhalesPricer } from './whales-pricing';
import { scanStep, type ScanOutcome, type TokenResolver } from './whales-scan';
import { WHALES_CHAIN } from './whales.store';
import { alertWhaleBlock, dispatchWhaleRetractions, publishBlockTransfers, sendWhaleDigests } from './whales-alerts';

export interface WhalesHandlerDeps {
  config: () => WhalesConfig;
  /** The source (live node or the in-process replay twin), built once per process on the first job (whales.domain.ts). */
  source: (context: JobContext) => Promise<EthSource>;
  /** Token symbol and decimals (token list, eth_call fallback, whale_tokens cache). */
  tokens: (context: JobContext, source: EthSource) => TokenResolver;
  /** USD at block time (whales-pricing.ts); without it every transfer is recorded unpriced. */
  pricer?: (context: JobContext) => Promise<WhalesPricer>;
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

/** The scan handler first (tests take it by position). */
export function createWhalesHandlers(deps: WhalesHandlerDeps): [JobHandler<'whales.scan'>, JobHandler<'whales.alerts'>, JobHandler<'whales.digests'>] {
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
            pricer: await deps.pricer?.(context),
            globalUsdThreshold: config.WHALES_GLOBAL_USD_THRESHOLD,
            chain,
          },
          source,
          whalesScanOptions(config),
        );
      });
      if (!outcome) return { status: 'busy' };
      await afterScan(context, chain, outcome);
      // Behind the target (catching up after downtime) or rolled back: the next batch now, not at the next tick.
      const next = outcome.status === 'scanned' && outcome.to < outcome.target ? outcome.to + 1 : outcome.status === 'reorg' ? outcome.rolledBackFrom : null;
      if (next !== null) await context.queues.add('whales.scan', {}, { jobId: whalesJobIds.continueFrom(chain, next) });
      if (outcome.status !== 'idle') context.logger.info({ ...outcome }, `whales: ${outcome.status}`);
      return outcome;
    }),
    defineHandler('whales.alerts', async (payload, context) => {
      const outcome = await alertWhaleBlock(context, {
        chain: payload.chain,
        hash: payload.hash,
        addresses: payload.addresses,
        globalUsdThreshold: deps.config().WHALES_GLOBAL_USD_THRESHOLD,
      });
      if (outcome.status === 'alerted' && outcome.inserted) context.logger.info({ ...outcome, block: payload.hash }, 'whales: alerts written');
      return outcome;
    }),
    defineHandler('whales.digests', async (_payload, context) => {
      const outcome = await sendWhaleDigests(context);
      if (outcome.digests) context.logger.info({ ...outcome }, 'whales: digests sent');
      return outcome;
    }),
  ];
}

/**
 * After a scan step committed: each recorded block's alerts are queued (one job per block hash),
 * its whale transfers published to the live feed; after a rollback, the corrections it wrote are
 * dispatched. The live feed is best effort (a lost publish is not retried: the feed's next load
 * reads the rows); the alert jobs are not.
 */
async function afterScan(context: JobContext, chain: string, outcome: ScanOutcome): Promise<void> {
  const recorded = outcome.status === 'idle' ? [] : outcome.recorded;
  if (recorded.length) {
    await context.queues.addBulk(
      recorded.map((block) => ({ name: 'whales.alerts' as const, data: { chain, hash: block.hash, addresses: block.addresses }, options: { jobId: whalesJobIds.alerts(chain, block.hash) } })),
    );
    for (const block of recorded) {
      try {
        await publishBlockTransfers(context, chain, block.hash);
      } catch (error) {
        context.logger.warn({ err: error instanceof Error ? error.message : String(error), block: block.hash }, 'whales: live feed publish failed');
      }
    }
  }
  if (outcome.status === 'reorg') await dispatchWhaleRetractions(context, chain, outcome.rolledBackFrom);
}
