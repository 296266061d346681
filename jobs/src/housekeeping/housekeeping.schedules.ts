import type { ScheduleDefinition } from '../schedules';

export const HOUSEKEEPING_SCHEDULES: ScheduleDefinition<'housekeeping.purge-expired'>[] = [
  {
    id: 'housekeeping.purge-expired',
    job: 'housekeeping.purge-expired',
    data: {},
    repeat: { pattern: '7 * * * *', tz: 'UTC' },
    description: 'Hourly, at minute 7: purge expired tokens, invitations and sessions',
  },
];
