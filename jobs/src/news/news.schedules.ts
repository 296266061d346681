import type { ScheduleDefinition } from '../schedules';
import { NEWS_POLL_EVERY_MS } from './news.jobs';

export const NEWS_SCHEDULES: ScheduleDefinition<'news.poll-all'>[] = [
  {
    id: 'news.poll-all',
    job: 'news.poll-all',
    data: {},
    repeat: { every: NEWS_POLL_EVERY_MS },
    description: 'Every 3 minutes: poll every news feed and the SEC current filings',
  },
];
