import { z } from 'zod';
import { defineJob, jobId } from '../runtime/job-definition';
import { COT_LOOKBACKS } from './cot-analytics';

const lookback = z.union([z.literal(COT_LOOKBACKS[0]), z.literal(COT_LOOKBACKS[1]), z.literal(COT_LOOKBACKS[2])]);

/** The COT job ids, each following from its natural key (same work, same id: BullMQ adds it once). */
export const cotJobIds = {
  /** The catch-up analytics of an instrument's report: queued once however many polls find it missing. */
  analytics: (cftcCode: string, reportDate: string) => jobId('cot.recompute-analytics', cftcCode, reportDate),
  /** The alert fan-out of an instrument's report: once per instrument and report while BullMQ holds it. */
  notify: (cftcCode: string, reportDate: string) => jobId('cot.notify', cftcCode, reportDate),
};

export const cotJobs = {
  'cot.fetch-latest': defineJob({
    queue: 'cot',
    description:
      'Polls the CFTC for the newest Traders in Financial Futures report; when it is new, stores it and ' +
      'queues the analytics of each instrument in it. A no-op once the report due by now is stored',
    payload: z.object({ force: z.boolean().optional() }).strict(),
    // The schedule polls again within minutes: a few quick retries are enough.
    options: { attempts: 3, backoff: { type: 'exponential', delay: 5000 } },
  }),
  'cot.import-year': defineJob({
    queue: 'cot',
    description: 'Backfill: downloads one yearly TFF archive (fut_fin_txt_YYYY.zip), stores it and queues the analytics',
    payload: z.object({ year: z.number().int().min(2006).max(2100) }).strict(),
  }),
  'cot.recompute-analytics': defineJob({
    queue: 'cot',
    description: 'Recomputes and stores the analytics of every report of one instrument (idempotent)',
    payload: z.object({ cftcCode: z.string().trim().min(1).max(20), lookback: lookback.optional() }).strict(),
  }),
  'cot.notify': defineJob({
    queue: 'cot',
    description:
      "Fans the alert events of an instrument's newest report (new extremes, divergence changes) out to its " +
      'followers as notifications.deliver batches (deduplicated per user on cot:<code>:<reportDate>)',
    payload: z
      .object({ cftcCode: z.string().trim().min(1).max(20), reportDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) })
      .strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 5000 } },
  }),
};
