import type { ScheduleDefinition } from '../schedules';

export const MARKET_HOURS_SCHEDULES: ScheduleDefinition<'market-hours.clock'>[] = [
  {
    id: 'market-hours.clock',
    job: 'market-hours.clock',
    data: {},
    repeat: { pattern: '0 * * * * *', tz: 'UTC' },
    description: 'Every minute, at second 0: market open/close notifications that fell due',
  },
];
