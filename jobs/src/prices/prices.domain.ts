import { defineDomain } from '../runtime/domain';
import type { BarDemandProvider } from './price-demand';
import { lastKnownPrices } from './price-poll';
import { marketTypesBySymbol } from './prices.store';
import { pricesEnvSchema, priceSourcesFromConfig, type PriceSources } from './prices.config';
import { createPricesHandlers } from './prices.processor';
import { PRICES_SCHEDULES } from './prices.schedules';

/** What the consumers of prices need of the poll, given by whoever assembles the domains (prices never import them). */
export interface PricesConsumers {
  /** The bars they evaluate on (the alerts' technical conditions). */
  barDemand: readonly BarDemandProvider[];
  /** Symbols they need quoted and barred whether or not anyone follows them (the whales' ETHUSDT). */
  alwaysPolled?: readonly string[];
}

/**
 * Prices in the workers. The sources are built once per start, on the first job (the simulated
 * walk anchors at the last prices in Redis, which needs a job's connection), and then kept: the
 * walk carries on from poll to poll.
 */
export function createPricesDomain(consumers: PricesConsumers) {
  return defineDomain({
    name: 'prices',
    env: pricesEnvSchema,
    schedules: PRICES_SCHEDULES,
    start(config) {
      let sources: Promise<PriceSources> | undefined;
      const handlers = createPricesHandlers({
        sources: (context) =>
          (sources ??= (async () => {
            const simulated = config.PRICES_SOURCE === 'simulated';
            const lastPrices = simulated ? await lastKnownPrices({ dataSource: context.dataSource, redis: context.redis, prefix: context.queues.prefix }) : {};
            // The simulated feed quotes each market on its tick, which depends on the market type.
            const marketTypes = simulated ? await marketTypesBySymbol(context.dataSource) : {};
            return priceSourcesFromConfig(config, { clock: context.clock, lastPrices, marketTypes });
          })().catch((error: unknown) => {
            sources = undefined;
            throw error;
          })),
        barDemand: consumers.barDemand,
        alwaysPolled: consumers.alwaysPolled,
      });
      return { handlers };
    },
  });
}
