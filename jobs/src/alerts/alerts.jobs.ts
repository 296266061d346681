import { z } from 'zod';
import { closedBarSchema, MAX_TICKS_PER_EVALUATION, priceTickSchema } from '../prices/price-ticks';
import { defineJob, jobId } from '../runtime/job-definition';

/** (item, market) pairs per alerts.evaluate-news job (the news consumer splits a poll's links). */
export const NEWS_PAIRS_PER_JOB = 1000;

// The evaluation jobs take what the prices poll produces: its tick and closed-bar shapes (prices own them).

export const alertsJobs = {
  'alerts.evaluate': defineJob({
    queue: 'alerts',
    description:
      'Evaluates price updates against the per-symbol alert index, writes each allowed firing exactly once ' +
      '(alert_logs + lastTriggered + notification), publishes it live and queues its push, email and webhook',
    payload: z.object({ ticks: z.array(priceTickSchema).min(1).max(MAX_TICKS_PER_EVALUATION) }).strict(),
    // A late evaluation of an old tick is worse than none: retry quickly, a few times.
    options: { attempts: 3, backoff: { type: 'fixed', delay: 500 }, removeOnComplete: { age: 600, count: 1000 } },
  }),
  'alerts.evaluate-bars': defineJob({
    queue: 'alerts',
    description: 'Evaluates the technical alerts of symbols whose bar just closed (RSI, moving averages, MACD) on the stored bars',
    payload: z.object({ bars: z.array(closedBarSchema).min(1).max(MAX_TICKS_PER_EVALUATION) }).strict(),
    options: { attempts: 3, backoff: { type: 'fixed', delay: 1000 } },
  }),
  'alerts.evaluate-news': defineJob({
    queue: 'alerts',
    description:
      'Fires the news alerts of markets a news poll just linked new items to (scope and keywords, frequency rules, ' +
      'one firing per alert and item for every_time), exactly once, with MARKET_ALERT_NEWS notifications',
    payload: z
      .object({
        /** The poll's instant: the trigger instant of every firing (the same for every worker and retry). */
        at: z.iso.datetime({ offset: true }),
        pairs: z
          .array(z.object({ newsItemId: z.number().int().positive(), marketId: z.number().int().positive() }).strict())
          .min(1)
          .max(NEWS_PAIRS_PER_JOB),
      })
      .strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 1000 } },
  }),
  'alerts.news-digest': defineJob({
    queue: 'alerts',
    description: 'Every hour at :00: one notification per digest news alert listing the items of its market fetched in the last UTC hour',
    payload: z.object({}).strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 5000 } },
  }),
  'alerts.webhook': defineJob({
    queue: 'alerts',
    description: "POSTs one firing to its alert's webhook (JSON, HMAC-SHA256 signature header, 3 s timeout); retried with backoff",
    payload: z.object({ alertLogId: z.string().regex(/^\d+$/) }).strict(),
    options: { attempts: 6, backoff: { type: 'exponential', delay: 2000 } },
  }),
  'alerts.expire': defineJob({
    queue: 'alerts',
    description: 'Deactivates alerts past their expiry (they never fire again) and drops them from every index',
    payload: z.object({}).strict(),
  }),
};

/** The ids of the jobs alerts queue (the evaluations are queued, and their ids built, by prices). */
export const alertsJobIds = {
  /** One delivery per firing: a retried trigger re-adds the same job. */
  webhook: (alertLogId: string) => jobId('alerts.webhook', alertLogId),
};
