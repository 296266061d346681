import { RateLimiterQueue, RateLimiterRedis } from 'rate-limiter-flexible';
import { hexToBigInt, keccak256, toHex, type Address } from 'viem';
import { defineDomain } from '../runtime/domain';
import type { JobContext } from '../runtime/job-handler';
import { EthRpcClient, type EthSource } from './eth-rpc.client';
import { ReplayChain, REPLAY_BLOCK_SECONDS, startReplayRpcServer, type SimulatedTransfer } from './eth-replay';
import { TokenDirectory } from './tokens';
import { DefiLlamaCoinsClient, startCoinsReplayServer, type CoinsPriceSource } from './defillama-coins.client';
import { whalesEnvSchema, type WhalesConfig } from './whales.config';
import { createWhalesPricer, type WhalesPricer } from './whales-pricing';
import { createWhalesHandlers } from './whales.processor';
import { WHALES_SCHEDULES } from './whales.schedules';
import type { TokenResolver } from './whales-scan';
import { WhaleTokenStore } from './whales.store';

/** Unix time of the replay twin's first block: its head follows the clock from there, one block per 12 s. */
export const WHALES_REPLAY_EPOCH = Date.UTC(2025, 0, 1) / 1000;
const REPLAY_SEED = 'tickerbell-whales';

/**
 * The chain the replay twin starts from (one block; `whalesReplayHead` says how far the clock has
 * taken it). Deterministic: a test builds the same chain to know what a block still to come holds.
 */
export function whalesReplayChain(): ReplayChain {
  return ReplayChain.fromRecordings({ length: 1, seed: REPLAY_SEED, startTimestamp: WHALES_REPLAY_EPOCH, simulate: simulatedWhaleTransfers });
}

/** Blocks of the workers' replay chain between two simulated whale transfers. */
export const SIMULATED_WHALE_EVERY = 10n;

/** Exchange wallets of the seeded labels (data/labels) the simulated whale transfers move ETH into or out of. */
const SIMULATED_EXCHANGES: Address[] = [
  '0x28c6c06298d514db089934071355e5743bf21d60', // Binance 14
  '0xf977814e90da44bfa03b6295a0616a897441acec', // Binance 8
  '0xa9d1e08c7793af67e9d92fe308d5697fb81d3e43', // Coinbase 10
  '0x267be1c1d684f78cb4f6a176c4911b741e4ffdc0', // Kraken 4
];

/**
 * The offline demo's whales: every SIMULATED_WHALE_EVERY-th block of the workers' replay chain
 * carries one native transfer of 200 to 5,000 ETH into or out of a seeded exchange wallet, from or
 * to a made-up wallet, all derived from the block number (so every worker serves the same chain).
 * The recorded block's own transfers are small; without these the feed, the alerts and netflow
 * would have nothing whale-sized to show offline. Like every replay block, labelled replay.
 */
export function simulatedWhaleTransfers(n: bigint): SimulatedTransfer[] {
  if (n % SIMULATED_WHALE_EVERY !== 0n) return [];
  const h = hexToBigInt(keccak256(toHex(`tickerbell-simulated-whale:${n}`)));
  const exchange = SIMULATED_EXCHANGES[Number(h % BigInt(SIMULATED_EXCHANGES.length))];
  const wallet = `0x${(h >> 16n).toString(16).padStart(64, '0').slice(-40)}` as Address;
  const rawAmount = (200n + ((h >> 8n) % 4801n)) * 10n ** 18n;
  return (h >> 200n) % 2n === 0n ? [{ from: exchange, to: wallet, rawAmount }] : [{ from: wallet, to: exchange, rawAmount }];
}

/** The replay twin's head at `now`: its first block plus one block per 12 s since WHALES_REPLAY_EPOCH. */
export function whalesReplayHead(first: bigint, now: Date): bigint {
  return first + BigInt(Math.max(0, Math.floor((now.getTime() / 1000 - WHALES_REPLAY_EPOCH) / REPLAY_BLOCK_SECONDS)));
}

interface BuiltSource {
  source: EthSource;
  /** DefiLlama's coins API, or its replay twin beside the replay chain. */
  coins: CoinsPriceSource;
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
  const chain = whalesReplayChain();
  const server = await startReplayRpcServer(chain);
  // Prices of the replay chain's tokens and the usual stablecoins, simulated (labelled so).
  const coinsServer = await startCoinsReplayServer();
  const coins = new DefiLlamaCoinsClient({ baseUrl: coinsServer.url, kind: 'replay', health: { dataSource: context.dataSource, clock: context.clock } });
  const advance = (now: Date) => {
    const due = whalesReplayHead(chain.first, now);
    if (due > chain.head) chain.append(Number(due - chain.head));
  };
  const source = new EthRpcClient({ url: server.url, kind: 'replay', health: { dataSource: context.dataSource, clock: context.clock } });
  return { source, coins, advance, close: async () => void (await Promise.all([server.close(), coinsServer.close()])) };
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
  const coinsLimiter = new RateLimiterQueue(
    new RateLimiterRedis({ storeClient: context.redis, keyPrefix: `${context.queues.prefix}:defillama-coins:rate`, points: config.DEFILLAMA_REQUESTS_PER_SECOND, duration: 1 }),
    { maxQueueSize: 1000 },
  );
  const coins = new DefiLlamaCoinsClient({
    baseUrl: config.DEFILLAMA_COINS_URL,
    kind: 'live',
    timeoutMs: config.DEFILLAMA_TIMEOUT_MS,
    searchWidth: config.DEFILLAMA_SEARCH_WIDTH,
    acquire: async () => void (await coinsLimiter.removeTokens(1)),
    health: { dataSource: context.dataSource, clock: context.clock },
  });
  return { source, coins };
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
    let pricing: WhalesPricer | undefined;
    const ready = async (context: JobContext): Promise<BuiltSource> => {
      built ??= config.ETH_RPC_URL ? Promise.resolve(startLiveSource(config, context)) : startWhalesReplay(context);
      // A failed start is tried again by the next job.
      return built.catch((error: unknown) => {
        built = undefined;
        throw error;
      });
    };
    const source = async (context: JobContext): Promise<EthSource> => {
      const sources = await ready(context);
      sources.advance?.(context.clock.now());
      return sources.source;
    };
    /** USD at block time: ETH from the stored bars, tokens from DefiLlama (or its replay twin), cached in Redis per token and minute. */
    const pricer = async (context: JobContext): Promise<WhalesPricer> => {
      const { coins } = await ready(context);
      pricing ??= createWhalesPricer({ db: context.dataSource, coins, redis: context.redis, prefix: context.queues.prefix, logger: context.logger });
      return pricing;
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
      handlers: createWhalesHandlers({ config: () => config, source, tokens, pricer }),
      async close() {
        const ready = await built?.catch(() => undefined);
        await ready?.close?.();
      },
    };
  },
});
