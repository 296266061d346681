import type { ScheduleDefinition } from '../schedules';
import { INSIDERS_POLL_TICK_MS } from './insiders.jobs';

/** EDGAR's business time zone. */
export const INSIDERS_ZONE = 'America/New_York';

export const INSIDERS_SCHEDULES: ScheduleDefinition<'insiders.poll-current' | 'insiders.catch-up' | 'insiders.sync-tickers' | 'insiders.recompute-active'>[] = [
  {
    id: 'insiders.poll-current',
    job: 'insiders.poll-current',
    data: {},
    repeat: { every: INSIDERS_POLL_TICK_MS },
    description: 'Every 15 s a tick; the feed is read when INSIDERS_POLL_SECONDS (default 60) has passed since the last read',
  },
  {
    id: 'insiders.catch-up',
    job: 'insiders.catch-up',
    data: {},
    // EDGAR writes a day's form index that night: read it early the next business morning.
    repeat: { pattern: '30 6 * * 1-5', tz: INSIDERS_ZONE },
    description: "Monday to Friday 06:30 New York: read the daily form index of every business day not read yet (the feed's backstop)",
  },
  {
    id: 'insiders.recompute-active',
    job: 'insiders.recompute-active',
    data: {},
    repeat: { pattern: '5 0 * * *', tz: INSIDERS_ZONE },
    description: "Every day 00:05 New York: the day's analytics row of every company with insider activity in its window",
  },
  {
    id: 'insiders.sync-tickers',
    job: 'insiders.sync-tickers',
    data: {},
    repeat: { pattern: '0 5 * * 0', tz: INSIDERS_ZONE },
    description: "Sundays 05:00 New York: refresh companies' tickers and names from company_tickers.json",
  },
];
