import { defineDomain } from '../runtime/domain';
import { createMarketHoursHandlers } from './market-hours.processor';
import { MARKET_HOURS_SCHEDULES } from './market-hours.schedules';

/** Market hours in the workers: the market clock and the fan-out of open/close events. */
export const marketHoursDomain = defineDomain({
  name: 'market-hours',
  schedules: MARKET_HOURS_SCHEDULES,
  start() {
    return { handlers: createMarketHoursHandlers() };
  },
});
