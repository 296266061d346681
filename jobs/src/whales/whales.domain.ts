import { RateLimiterQueue, RateLimiterRedis } from 'rate-limiter-flexible';
import { defineDomain } from '../runtime/domain';
import type { JobContext } from '../runtime/job-handler';
import { EthRpcClient, type EthSource } from './eth-rpc.client';
import { ReplayChain, REPLAY_BLOCK_SECONDS, startReplayRpcServer } from './eth-replay';
import { TokenDirectory } from './tokens';
import { whalesEnvSchema, type WhalesConfig } from './whales.config';
import { createWhalesHandlers } from './whales.processor';
import { WHALES_SCHEDULES } from './whales.schedules';
import type { TokenResolver } from './whales-scan';
import { WhaleTokenStore } from './whales.store';

/** Unix time of the replay twin's first block: its head follows the clock from there, one block per 12 s. */
export const WHALES_REPLAY_EPOCH = Date.UTC(2025, 0, 1) / 1000;
const REPLAY_SEED = 'tickerbell-whales';

interface BuiltSource {
  source: EthSource;
  /** Replay: mines the blocks due by `now`, so the twin produces a block every 12 s. */
  advance?(now: Date): void;
  close?(): Promise<void>;
}

/**
 * The replay twin of the workers: a local JSON-RPC node serving blocks built from the recorded
 * mainnet block (eth-replay.ts). Its head is a function of the clock (a block per 12 s since
 * WHALES_REPLAY_EPOCH) and its blocks of the seed and number, so every worker process serves the
 * same chain and a restart continues it.
 */
export async function startWhalesReplay(context: Pick<JobContext, 'dataSource' | 'clock'>): Promise<BuiltSource> {
  const chain = ReplayChain.fromRecordings({ length: 1, seed: REPLAY_SEED, startTimestamp: WHALES_REPLAY_EPOCH });
  const server = await startReplayRpcServer(chain);
  const advance = (now: Date) => {
    const due = chain.first + BigInt(Math.max(0, Math.floor((now.getTime() / 1000 - WHALES_REPLAY_EPOCH) / REPLAY_BLOCK_SECONDS)));
    if (due > chain.head) chain.append(Number(due - chain.head));
  };
  const source = new EthRpcClient({ url: server.url, kind: 'replay', health: { dataSource: context.dataSource, clock: context.clock } });
  return { source, advance, close: () => server.close() };
}

function startLiveSource(config: WhalesConfig, context: JobContext): BuiltSource {
  // One budget for the cluster: a provider's quota is per key, not per process.
  const limiter = new RateLimiterQueue(
    new RateLimiterRedis({ storeClient: context.redis, keyPrefix: `${context.queues.prefix}:ethereum-rpc:rate`, points: config.ETH_RPC_REQUESTS_PER_SECOND, duration: 1 }),
    { maxQueueSize: 1000 },
  );
  const source = new EthRpcClient({
    url: config.ETH_RPC_URL as string,
    kind: 'live',
    timeoutMs: config.ETH_RPC_TIMEOUT_MS,
    maxBatch: config.WHALES_SCAN_BATCH,
    acquire: async () => void (await limiter.removeTokens(1)),
    health: { dataSource: context.dataSource, clock: context.clock },
  });
  return { source };
}

/**
 * Whales in the workers. The source is built once, on the first job (the live client's rate limit
 * lives in Redis, which the job context carries): the node at ETH_RPC_URL, or without it the
 * replay twin (labelled 'replay'). The token directory, with its whale_tokens cache, likewise.
 */
export const whalesDomain = defineDomain({
  name: 'whales',
  env: whalesEnvSchema,
  schedules: WHALES_SCHEDULES,
  start(config) {
    let built: Promise<BuiltSource> | undefined;
    let directory: TokenDirectory | undefined;
    const source = async (context: JobContext): Promise<EthSource> => {
      built ??= config.ETH_RPC_URL ? Promise.resolve(startLiveSource(config, context)) : startWhalesReplay(context);
      // A failed start is tried again by the next job.
      const ready = await built.catch((error: unknown) => {
        built = undefined;
        throw error;
      });
      ready.advance?.(context.clock.now());
      return ready.source;
    };
    const tokens = (context: JobContext, from: EthSource): TokenResolver => {
      directory ??= new TokenDirectory({ source: from, cache: new WhaleTokenStore(context.dataSource) });
      const found = directory;
      return async (token) => {
        const info = await found.get(token);
        return { symbol: info.symbol, decimals: info.decimals };
      };
    };
    return {
      handlers: createWhalesHandlers({ config: () => config, source, tokens }),
      async close() {
        const ready = await built?.catch(() => undefined);
        await ready?.close?.();
      },
    };
  },
});
