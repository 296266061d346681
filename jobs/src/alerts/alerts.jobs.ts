import { z } from 'zod';
import { defineJob } from '../runtime/job-definition';
import { CANDLE_INTERVALS } from '../prices/price-source';

/** One price update of a symbol, as the prices jobs hand it to the evaluator. */
export const priceTickSchema = z
  .object({
    symbol: z.string().min(1).max(30),
    /** The price before this update (decimal string); null on the first update seen. */
    previous: z.string().nullable(),
    current: z.string(),
    /** When the price was current (ISO instant). */
    at: z.iso.datetime(),
  })
  .strict();
export type PriceTickPayload = z.infer<typeof priceTickSchema>;

/** A bar that has just closed (technical conditions are evaluated on closed bars only). */
export const closedBarSchema = z
  .object({
    symbol: z.string().min(1).max(30),
    interval: z.enum(CANDLE_INTERVALS),
    /** Open time of the bar that closed (ISO instant). */
    openTime: z.iso.datetime(),
  })
  .strict();
export type ClosedBarPayload = z.infer<typeof closedBarSchema>;

/** Ticks of one alerts.evaluate job (a poll of many symbols is split into jobs of this size). */
export const MAX_TICKS_PER_EVALUATION = 2000;

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
