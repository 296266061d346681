import type { ScheduleDefinition } from '../schedules';

export const ALERTS_SCHEDULES: ScheduleDefinition<'alerts.expire' | 'alerts.news-digest'>[] = [
  {
    id: 'alerts.expire',
    job: 'alerts.expire',
    data: {},
    // At second 30: away from the market clock's second 0.
    repeat: { pattern: '30 * * * * *', tz: 'UTC' },
    description: 'Every minute: deactivate alerts past their expiry and drop them from every index',
  },
  {
    id: 'alerts.news-digest',
    job: 'alerts.news-digest',
    data: {},
    // At :00 UTC: the hour just ended is complete (its polls have committed by the time the job runs).
    repeat: { pattern: '0 0 * * * *', tz: 'UTC' },
    description: 'Every hour at :00: the news digests of the hour just ended',
  },
];
