import type { ScheduleDefinition } from '../schedules';

export const ALERTS_SCHEDULES: ScheduleDefinition<'alerts.expire'>[] = [
  {
    id: 'alerts.expire',
    job: 'alerts.expire',
    data: {},
    // At second 30: away from the market clock's second 0.
    repeat: { pattern: '30 * * * * *', tz: 'UTC' },
    description: 'Every minute: deactivate alerts past their expiry and drop them from every index',
  },
];
