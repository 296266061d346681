import type { z } from 'zod';
import { housekeepingJobs } from './housekeeping/housekeeping.jobs';
import { cotJobs } from './cot/cot.jobs';
import { mailJobs } from './mail/mail.jobs';
import { marketHoursJobs } from './market-hours/market-hours.jobs';
import { notificationsJobs } from './notifications/notifications.jobs';
import { pricesJobs } from './prices/prices.jobs';
import { alertsJobs } from './alerts/alerts.jobs';
import { newsJobs } from './news/news.jobs';
import { insidersJobs } from './insiders/insiders.jobs';
import { whalesJobs } from './whales/whales.jobs';
import { predictionsJobs } from './predictions/predictions.jobs';
import { yieldsJobs } from './yields/yields.jobs';
import { lockupsJobs } from './lockups/lockups.jobs';
import { billingJobs } from './billing/billing.jobs';

/**
 * Every job of the system: the contract between producers (api, CLI, schedules, other jobs)
 * and the workers. Job names are `<queue>.<action>`.
 */
export const JOBS = {
  ...housekeepingJobs,
  ...cotJobs,
  ...mailJobs,
  ...marketHoursJobs,
  ...notificationsJobs,
  ...pricesJobs,
  ...alertsJobs,
  ...newsJobs,
  ...insidersJobs,
  ...whalesJobs,
  ...predictionsJobs,
  ...yieldsJobs,
  ...lockupsJobs,
  ...billingJobs,
};

export type JobName = keyof typeof JOBS;
export type JobPayload<N extends JobName> = z.infer<(typeof JOBS)[N]['payload']>;

/** The discriminated union of every job: `{ name, data }`. */
export type JobItem = { [N in JobName]: { name: N; data: JobPayload<N> } }[JobName];
export type JobOf<N extends JobName> = Extract<JobItem, { name: N }>;

export const JOB_NAMES = Object.keys(JOBS) as JobName[];

export function isJobName(name: string): name is JobName {
  return Object.prototype.hasOwnProperty.call(JOBS, name);
}
