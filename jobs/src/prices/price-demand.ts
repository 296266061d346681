import type { DataSource, EntityManager } from 'typeorm';
import type { CandleInterval } from './price-source';

/** Bars a consumer needs stored for one market and interval. */
export interface BarDemand {
  marketId: number;
  interval: CandleInterval;
  /** How many of the newest bars it reads. */
  needed: number;
}

/**
 * What a consumer of prices needs of the poll beyond the quotes: the stored bars it evaluates on
 * (the alerts' technical conditions, whose rules say how many bars they read). Prices know nothing
 * of those rules: each consumer hands the poll a provider when the prices handlers are built, and
 * the poll keeps the closed bars and backfills of the pairs some provider names.
 */
export interface BarDemandProvider {
  /** The consumer's bars needed for these markets at `now` (a pair may be named more than once). */
  barDemand(db: DataSource | EntityManager, marketIds: readonly number[], now: Date): Promise<BarDemand[]>;
}

/** Every provider's demand for the markets, one entry per (market, interval): the largest need. */
export async function collectBarDemand(
  providers: readonly BarDemandProvider[],
  db: DataSource | EntityManager,
  marketIds: readonly number[],
  now: Date,
): Promise<Map<string, BarDemand>> {
  const needs = new Map<string, BarDemand>();
  if (!marketIds.length) return needs;
  for (const provider of providers) {
    for (const demand of await provider.barDemand(db, marketIds, now)) {
      const key = barDemandKey(demand.marketId, demand.interval);
      const seen = needs.get(key);
      if (!seen || seen.needed < demand.needed) needs.set(key, { marketId: demand.marketId, interval: demand.interval, needed: demand.needed });
    }
  }
  return needs;
}

export function barDemandKey(marketId: number, interval: CandleInterval): string {
  return `${marketId}:${interval}`;
}
