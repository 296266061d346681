import { z } from 'zod';
import { defineJob, jobId } from '../runtime/job-definition';

const HOUR_MS = 3_600_000;

/** The yields job ids, each following from its natural key (same work, same id: BullMQ adds it once). */
export const yieldsJobIds = {
  /** The ingest of one hour's snapshot (the schedule, the CLI, a test). */
  ingest: (at: Date) => jobId('yields.ingest', Math.floor(at.getTime() / HOUR_MS)),
  /** The evaluation of the alerts against one snapshot. */
  evaluate: (snapshotAt: Date) => jobId('yields.evaluate', Math.floor(snapshotAt.getTime() / HOUR_MS)),
  /** The prune of one UTC day. */
  prune: (at: Date) => jobId('yields.prune', Math.floor(at.getTime() / (24 * HOUR_MS))),
};

export const yieldsJobs = {
  'yields.ingest': defineJob({
    queue: 'yields',
    description:
      'Hourly snapshot: DefiLlama /pools streamed (every pool upserted; missing or absurd ones skipped and counted), the tracked set ' +
      '(top YIELDS_TOP_POOLS_PER_CHAIN by TVL per chain + pools with an alert), the Uniswap v3 subgraph\'s daily data and /chart backfills ' +
      'for them, fee APR / vtr / score computed, all written in one transaction; then queues yields.evaluate. A body that fails its schema fails the job',
    payload: z.object({}).strict(),
    options: {
      attempts: 4,
      backoff: { type: 'exponential', delay: 30_000 },
      removeOnComplete: { age: 7 * 24 * 3600, count: 500 },
      removeOnFail: { age: 7 * 24 * 3600, count: 500 },
    },
  }),
  'yields.evaluate': defineJob({
    queue: 'yields',
    description:
      'The yield alerts against one snapshot: threshold, hysteresis and cooldown; a firing writes its yield_alert_logs row, the alert\'s state ' +
      'and its notification in one transaction (exactly once per alert and snapshot), then in-app/live, push, email and Telegram as the alert asks',
    payload: z.object({ snapshotAt: z.iso.datetime() }).strict(),
    options: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 2000 },
      removeOnComplete: { age: 7 * 24 * 3600, count: 500 },
      removeOnFail: { age: 7 * 24 * 3600, count: 500 },
    },
  }),
  'yields.prune': defineJob({
    queue: 'yields',
    description:
      'Retention: hourly snapshots older than YIELDS_HOURLY_RETENTION_DAYS thinned to one per pool and UTC day, rows older than ' +
      'YIELDS_RETENTION_DAYS deleted, pools unseen for 7 days marked inactive',
    payload: z.object({}).strict(),
    options: {
      attempts: 3,
      backoff: { type: 'exponential', delay: 60_000 },
      removeOnComplete: { age: 7 * 24 * 3600, count: 100 },
      removeOnFail: { age: 7 * 24 * 3600, count: 100 },
    },
  }),
};
