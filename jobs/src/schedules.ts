import type { JobName, JobPayload } from './registry';
import { COT_SCHEDULES } from './cot/cot.schedules';
import { MARKET_HOURS_SCHEDULES } from './market-hours/market-hours.schedules';
import { ALERTS_SCHEDULES } from './alerts/alerts.schedules';
import { PRICES_SCHEDULES } from './prices/prices.schedules';

export type ScheduleRepeat =
  /** A cron pattern (with seconds optional), evaluated in `tz` (IANA; default UTC). */
  | { pattern: string; tz?: string }
  /** A fixed interval in milliseconds. */
  | { every: number };

export interface ScheduleDefinition<N extends JobName = JobName> {
  /** The BullMQ job scheduler id: stable, so re-registering updates instead of duplicating. */
  id: string;
  job: N;
  data: JobPayload<N>;
  repeat: ScheduleRepeat;
  description: string;
}

function schedule<N extends JobName>(definition: ScheduleDefinition<N>): ScheduleDefinition<N> {
  return definition;
}

/**
 * Cluster-wide periodic work. The workers register these at start with upsertJobScheduler,
 * so any number of worker processes run each schedule once, and drop schedulers no longer listed.
 */
export const SCHEDULES: ScheduleDefinition[] = [
  schedule({
    id: 'housekeeping.purge-expired',
    job: 'housekeeping.purge-expired',
    data: {},
    repeat: { pattern: '7 * * * *', tz: 'UTC' },
    description: 'Hourly, at minute 7: purge expired tokens, invitations and sessions',
  }),
  ...COT_SCHEDULES,
  ...MARKET_HOURS_SCHEDULES,
  ...ALERTS_SCHEDULES,
  ...PRICES_SCHEDULES,
];
