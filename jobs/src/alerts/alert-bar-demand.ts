import type { BarDemand, BarDemandProvider } from '../prices/price-demand';
import { CANDLE_INTERVALS } from '../prices/price-source';
import { barsNeeded, technicalConditionSchema } from './alert-conditions';
import { technicalAlertRows } from './alert-firings.store';
import { openingGapBarDemand } from './opening-gap';

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
      // An opening gap reads the previous session's last close: the bars must reach back across extended hours.
      const needed = condition.data.type === 'opening_gap' ? openingGapBarDemand(interval) : barsNeeded(condition.data);
      demand.push({ marketId: row.market_id, interval, needed });
    }
    return demand;
  },
};
