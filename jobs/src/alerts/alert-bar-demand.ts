import type { BarDemand, BarDemandProvider } from '../prices/price-demand';
import { CANDLE_INTERVALS } from '../prices/price-source';
import { barsNeeded, technicalConditionSchema } from './alert-conditions';
import { technicalAlertRows } from './alert-firings.store';

/**
 * The bars the alerts evaluate on, as the prices poll asks its consumers: for each active technical
 * alert of the polled markets, its interval and as many bars as its condition reads. The poll keeps
 * the closed bars of those pairs for evaluation and backfills the pairs short of bars.
 */
export const alertsBarDemand: BarDemandProvider = {
  async barDemand(db, marketIds, now) {
    const demand: BarDemand[] = [];
    for (const row of await technicalAlertRows(db, marketIds, now)) {
      const interval = CANDLE_INTERVALS.find((i) => i === row.interval);
      const condition = technicalConditionSchema.safeParse(row.params);
      if (!interval || !condition.success) continue;
      demand.push({ marketId: row.market_id, interval, needed: barsNeeded(condition.data) });
    }
    return demand;
  },
};
