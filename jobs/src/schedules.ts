import type { DomainConfigs } from './domains';
import type { JobName, JobPayload } from './registry';

// Each domain lists its schedules (<domain>.schedules.ts); SCHEDULES (domains.ts) assembles them.

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
  /**
   * Whether this deployment runs it, from the domains' configuration (default: always). A schedule
   * whose source is not configured is not registered, and is removed if an earlier start registered it.
   */
  enabled?: (configs: DomainConfigs) => boolean;
}
