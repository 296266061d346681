import type { ScheduleDefinition } from '../schedules';
import { LOCKUPS_ZONE } from './lockups-read.store';

export const LOCKUPS_SCHEDULES: ScheduleDefinition<'lockups.discover' | 'lockups.refresh' | 'lockups.check-triggers' | 'lockups.notify'>[] = [
  {
    id: 'lockups.discover',
    job: 'lockups.discover',
    data: {},
    // EDGAR writes a day's form index that night: read it early the next business morning (after the insiders' catch-up at 06:30).
    repeat: { pattern: '45 6 * * 1-5', tz: LOCKUPS_ZONE },
    description: 'Monday to Friday 06:45 New York: new 424B4 prospectuses of the last days, parsed into lock-up events',
  },
  {
    id: 'lockups.notify',
    job: 'lockups.notify',
    data: {},
    repeat: { pattern: '0 8 * * *', tz: LOCKUPS_ZONE },
    description: 'Every day 08:00 New York: lock-up notices 14, 7 and 1 days before an expiry and on the day',
  },
  {
    id: 'lockups.refresh',
    job: 'lockups.refresh',
    data: {},
    // After the close, once the day's bar is final.
    repeat: { pattern: '30 17 * * 1-5', tz: LOCKUPS_ZONE },
    description: "Monday to Friday 17:30 New York: shares outstanding, price, run-up, volume and risk score of every upcoming lock-up",
  },
  {
    id: 'lockups.check-triggers',
    job: 'lockups.check-triggers',
    data: {},
    repeat: { pattern: '45 17 * * 1-5', tz: LOCKUPS_ZONE },
    description: 'Monday to Friday 17:45 New York: early-release price triggers checked against the daily closes',
  },
];
