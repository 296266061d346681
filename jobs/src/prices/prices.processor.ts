import { UnrecoverableError } from 'bullmq';
import { defineHandler, type JobContext } from '../runtime/job-handler';
import { backfillBars } from './price-backfill';
import type { BarDemandProvider } from './price-demand';
import { pollPrices } from './price-poll';
import { PriceSourceError } from './price-source';
import type { PriceSources } from './prices.config';

export interface PricesHandlerDeps {
  /** The sources, built once per process: the simulated walk must carry on from poll to poll. */
  sources(context: JobContext): Promise<PriceSources>;
  /**
   * The bars other domains evaluate on (the alerts' technical conditions): given by whoever starts
   * the domains, so that prices never import their consumers.
   */
  barDemand: readonly BarDemandProvider[];
  /** Symbols polled whether or not anyone follows them. */
  alwaysPolled?: readonly string[];
}

export function createPricesHandlers(deps: PricesHandlerDeps) {
  return [
    defineHandler('prices.poll', async ({ kind }, context) => {
      const redis = context.redis;
      try {
        const result = await pollPrices({ ...context, redis, prefix: context.queues.prefix, sources: await deps.sources(context), barDemand: deps.barDemand, alwaysPolled: deps.alwaysPolled }, kind);
        if (result.fellBack || result.backfills || result.caughtUp || result.staleDropped) context.logger.info(result, 'prices: polled');
        return result;
      } catch (error) {
        // A provider refusing the request (4xx, unreadable answer) refuses the retry too: the next scheduled poll asks again.
        // Nothing is stored before the quotes are fetched, so no evaluation is owed.
        if (error instanceof PriceSourceError) throw new UnrecoverableError(error.message);
        throw error;
      }
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
