import { defineDomain } from '../runtime/domain';
import type { JobContext } from '../runtime/job-handler';
import { predictionsEnvSchema, type PredictionsConfig } from './predictions.config';
import { createPredictionsHandlers } from './predictions.processor';
import { PREDICTIONS_SCHEDULES } from './predictions.schedules';
import { POLYMARKET_CLOB_DEFAULT_URL, PolymarketClient, polymarketRateLimit, type PolymarketSource } from './polymarket.client';
import { startPolymarketReplayServer } from './polymarket-replay';

interface BuiltSource {
  source: PolymarketSource;
  close?(): Promise<void>;
}

/**
 * The replay twin of the workers: a local server serving the recorded Gamma and CLOB answers and
 * PREDICTIONS_REPLAY_MARKETS simulated markets whose prices move with the job clock
 * (polymarket-replay.ts), read through the same client, labelled 'replay'.
 */
export async function startPredictionsReplay(config: Pick<PredictionsConfig, 'PREDICTIONS_REPLAY_MARKETS'>, context: Pick<JobContext, 'dataSource' | 'clock'>): Promise<BuiltSource> {
  const server = await startPolymarketReplayServer({ clock: context.clock, simulated: config.PREDICTIONS_REPLAY_MARKETS });
  const source = new PolymarketClient({ gammaUrl: server.url, clobUrl: server.url, kind: 'replay', health: { dataSource: context.dataSource, clock: context.clock } });
  return { source, close: () => server.close() };
}

/** Polymarket's APIs, each with one request budget for the cluster (Redis), since the limits are per client address, not per process. */
function startLiveSource(config: PredictionsConfig, context: JobContext): BuiltSource {
  const source = new PolymarketClient({
    gammaUrl: config.POLYMARKET_GAMMA_URL as string,
    clobUrl: config.POLYMARKET_CLOB_URL ?? POLYMARKET_CLOB_DEFAULT_URL,
    kind: 'live',
    timeoutMs: config.POLYMARKET_TIMEOUT_MS,
    acquireGamma: polymarketRateLimit(context.redis, `${context.queues.prefix}:polymarket-gamma:rate`, config.POLYMARKET_GAMMA_REQUESTS_PER_10S),
    acquireClob: polymarketRateLimit(context.redis, `${context.queues.prefix}:polymarket-clob:rate`, config.POLYMARKET_CLOB_REQUESTS_PER_10S),
    health: { dataSource: context.dataSource, clock: context.clock },
  });
  return { source };
}

/**
 * Predictions in the workers: the Polymarket source (Gamma and CLOB at POLYMARKET_GAMMA_URL, or
 * without it the replay twin) is built once, on the first job that needs it (the live client's
 * rate limits live in Redis, which the job context carries).
 */
export const predictionsDomain = defineDomain({
  name: 'predictions',
  env: predictionsEnvSchema,
  schedules: PREDICTIONS_SCHEDULES,
  start(config) {
    let built: Promise<BuiltSource> | undefined;
    const source = async (context: JobContext): Promise<PolymarketSource> => {
      built ??= config.POLYMARKET_GAMMA_URL ? Promise.resolve(startLiveSource(config, context)) : startPredictionsReplay(config, context);
      // A failed start is tried again by the next job.
      const ready = await built.catch((error: unknown) => {
        built = undefined;
        throw error;
      });
      return ready.source;
    };
    return {
      handlers: createPredictionsHandlers({ config: () => config, source }),
      async close() {
        const ready = await built?.catch(() => undefined);
        await ready?.close?.();
      },
    };
  },
});
