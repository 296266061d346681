import type { ScheduleDefinition } from '../schedules';
import { COT_RELEASE_ZONE } from './cot-release';

/**
 * The weekly release is Friday 15:30 New York time, later after a federal holiday. Poll every 10
 * minutes from 15:30 to 23:50 on Fridays, then hourly Monday to Thursday evenings to catch a
 * delayed release. A poll that finds the due report already stored is a no-op (cotPollDecision).
 */
export const COT_SCHEDULES: ScheduleDefinition<'cot.fetch-latest'>[] = [
  {
    id: 'cot.fetch-latest.friday-release',
    job: 'cot.fetch-latest',
    data: {},
    repeat: { pattern: '30,40,50 15 * * 5', tz: COT_RELEASE_ZONE },
    description: 'Fridays 15:30-15:50 New York: poll for the new TFF report',
  },
  {
    id: 'cot.fetch-latest.friday-evening',
    job: 'cot.fetch-latest',
    data: {},
    repeat: { pattern: '*/10 16-23 * * 5', tz: COT_RELEASE_ZONE },
    description: 'Fridays 16:00-23:50 New York, every 10 minutes: keep polling until the report is in',
  },
  {
    id: 'cot.fetch-latest.catch-up',
    job: 'cot.fetch-latest',
    data: {},
    repeat: { pattern: '0 16-23 * * 1-4', tz: COT_RELEASE_ZONE },
    description: 'Monday to Thursday 16:00-23:00 New York, hourly: catch a release delayed by a holiday',
  },
];
