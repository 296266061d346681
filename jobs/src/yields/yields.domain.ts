import { RateLimiterQueue, RateLimiterRedis } from 'rate-limiter-flexible';
import type Redis from 'ioredis';
import { defineDomain } from '../runtime/domain';
import type { JobContext } from '../runtime/job-handler';
import { DefiLlamaYieldsClient } from './defillama-yields.client';
import { UniswapSubgraphClient } from './uniswap-subgraph.client';
import { yieldsEnvSchema, type YieldsConfig } from './yields.config';
import { createYieldsHandlers, type YieldsSources } from './yields.processor';
import { startSubgraphReplayServer, startYieldsReplayServer } from './yields-replay';
import { YIELDS_SCHEDULES } from './yields.schedules';

interface BuiltSources extends YieldsSources {
  close?(): Promise<void>;
}

/**
 * The replay twins of the workers: a local DefiLlama yields server streaming YIELDS_REPLAY_POOLS
 * simulated pools built from DefiLlama's published example record (values moving with the job
 * clock), and a local subgraph serving the recorded Uniswap v3 answers, both read through the live
 * clients, labelled 'replay'.
 */
export async function startYieldsReplay(config: Pick<YieldsConfig, 'YIELDS_REPLAY_POOLS'>, context: Pick<JobContext, 'dataSource' | 'clock'>): Promise<BuiltSources> {
  const now = () => context.clock.now();
  const [llama, graph] = await Promise.all([startYieldsReplayServer({ now, pools: config.YIELDS_REPLAY_POOLS }), startSubgraphReplayServer({ now })]);
  const health = { dataSource: context.dataSource, clock: context.clock };
  return {
    pools: new DefiLlamaYieldsClient({ baseUrl: llama.url, kind: 'replay', health }),
    subgraph: new UniswapSubgraphClient({ url: graph.url, kind: 'replay', health }),
    close: async () => void (await Promise.all([llama.close(), graph.close()])),
  };
}

function rateLimit(redis: Redis, keyPrefix: string, perSecond: number): () => Promise<void> {
  const queue = new RateLimiterQueue(new RateLimiterRedis({ storeClient: redis, keyPrefix, points: perSecond, duration: 1 }), { maxQueueSize: 1000 });
  return async () => void (await queue.removeTokens(1));
}

/** DefiLlama and (when set) the subgraph, each with one request budget for the cluster (Redis). */
function startLiveSources(config: YieldsConfig, context: JobContext): BuiltSources {
  const health = { dataSource: context.dataSource, clock: context.clock };
  return {
    pools: new DefiLlamaYieldsClient({
      baseUrl: config.DEFILLAMA_YIELDS_URL,
      kind: 'live',
      poolsTimeoutMs: config.DEFILLAMA_YIELDS_TIMEOUT_MS,
      acquire: rateLimit(context.redis, `${context.queues.prefix}:defillama-yields:rate`, config.DEFILLAMA_YIELDS_REQUESTS_PER_SECOND),
      health,
    }),
    subgraph: config.UNISWAP_SUBGRAPH_URL
      ? new UniswapSubgraphClient({
          url: config.UNISWAP_SUBGRAPH_URL,
          apiKey: config.UNISWAP_SUBGRAPH_API_KEY,
          kind: 'live',
          timeoutMs: config.UNISWAP_SUBGRAPH_TIMEOUT_MS,
          acquire: rateLimit(context.redis, `${context.queues.prefix}:uniswap-subgraph:rate`, config.UNISWAP_SUBGRAPH_REQUESTS_PER_SECOND),
          health,
        })
      : null,
  };
}

/**
 * Yields in the workers: the sources are built once, on the first job (the live clients' rate
 * limits live in Redis, which the job context carries): DefiLlama at DEFILLAMA_YIELDS_URL (and the
 * subgraph at UNISWAP_SUBGRAPH_URL), or without it the replay twins.
 */
export const yieldsDomain = defineDomain({
  name: 'yields',
  env: yieldsEnvSchema,
  schedules: YIELDS_SCHEDULES,
  start(config) {
    let built: Promise<BuiltSources> | undefined;
    const sources = async (context: JobContext): Promise<YieldsSources> => {
      built ??= config.DEFILLAMA_YIELDS_URL ? Promise.resolve(startLiveSources(config, context)) : startYieldsReplay(config, context);
      // A failed start is tried again by the next job.
      return built.catch((error: unknown) => {
        built = undefined;
        throw error;
      });
    };
    return {
      handlers: createYieldsHandlers({ config: () => config, sources }),
      async close() {
        const ready = await built?.catch(() => undefined);
        await ready?.close?.();
      },
    };
  },
});
