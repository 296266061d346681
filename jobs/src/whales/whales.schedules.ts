import type { ScheduleDefinition } from '../schedules';
import { WHALES_SCAN_EVERY_MS } from './whales.jobs';

export const WHALES_SCHEDULES: ScheduleDefinition<'whales.scan' | 'whales.digests'>[] = [
  {
    id: 'whales.scan',
    job: 'whales.scan',
    data: {},
    repeat: { every: WHALES_SCAN_EVERY_MS },
    description: 'Every 12 s (one Ethereum slot): scan the blocks confirmed since the checkpoint',
  },
  {
    id: 'whales.digests',
    job: 'whales.digests',
    data: {},
    // :00 for the hourly digests; every quarter hour for daily ones at local midnights with :30 / :45 offsets.
    repeat: { pattern: '0 */15 * * * *', tz: 'UTC' },
    description: 'Every 15 minutes (so at :00 UTC for hourly digests, and at each zone\'s local midnight): send the whale digests whose period is over',
  },
];
