import { UnrecoverableError } from 'bullmq';
import { queuesRedis } from '../notifications/queues-redis';
import { defineHandler, type JobContext } from '../runtime/job-handler';
import { backfillBars } from './price-backfill';
import { lastKnownPrices, pollPrices } from './price-poll';
import { PriceSourceError } from './price-source';
import { loadPricesConfig, priceSourcesFromConfig, type PriceSources } from './prices.config';

export interface PricesHandlerDeps {
  /** The sources, built once per process: the simulated walk must carry on from poll to poll. */
  sources(context: JobContext): Promise<PriceSources>;
}

export function createPricesHandlers(deps: PricesHandlerDeps) {
  return [
    defineHandler('prices.poll', async ({ kind }, context) => {
      const redis = await queuesRedis(context.queues, 'prices');
      const result = await pollPrices({ ...context, redis, prefix: context.queues.prefix, sources: await deps.sources(context) }, kind);
      if (result.fellBack || result.backfills) context.logger.info(result, 'prices: polled');
      return result;
    }),
    defineHandler('prices.backfill-bars', async (payload, context) => {
      try {
        const result = await backfillBars({ ...context, sources: await deps.sources(context) }, payload);
        context.logger.info({ ...payload, ...result }, 'prices: bars backfilled');
        return result;
      } catch (error) {
        // A rejected request or an unreadable answer does not improve by retrying (tomorrow's job asks again).
        if (error instanceof PriceSourceError) throw new UnrecoverableError(error.message);
        throw error;
      }
    }),
  ];
}

let sources: Promise<PriceSources> | undefined;

/** The handlers the workers run: sources from the environment, built on first use. */
export const pricesHandlers = createPricesHandlers({
  sources: (context) =>
    (sources ??= (async () => {
      const config = loadPricesConfig(process.env);
      const lastPrices =
        config.PRICES_SOURCE === 'simulated'
          ? await lastKnownPrices({ dataSource: context.dataSource, redis: await queuesRedis(context.queues, 'prices'), prefix: context.queues.prefix })
          : {};
      return priceSourcesFromConfig(config, { clock: context.clock, lastPrices });
    })().catch((error: unknown) => {
      sources = undefined;
      throw error;
    })),
});
