import { z } from 'zod';
import { defineJob } from '../runtime/job-definition';
import { CANDLE_INTERVALS } from './price-source';

export const PRICE_POLL_KINDS = ['crypto', 'stocks'] as const;
export type PricePollKind = (typeof PRICE_POLL_KINDS)[number];

export const pricesJobs = {
  'prices.poll': defineJob({
    queue: 'prices',
    description:
      'Fetches quotes for every symbol of the kind with an active alert or a watcher (stocks only while their exchange is open), ' +
      'stores the latest price in Redis and the current bars, publishes price updates and queues alert evaluation',
    payload: z.object({ kind: z.enum(PRICE_POLL_KINDS) }).strict(),
    // The next poll supersedes a failed one.
    options: { attempts: 1, removeOnComplete: { age: 600, count: 200 }, removeOnFail: { age: 86_400, count: 500 } },
  }),
  'prices.backfill-bars': defineJob({
    queue: 'prices',
    description: "Fills a symbol's stored bars of one interval from the provider's candles (charts, technical alerts)",
    payload: z
      .object({ symbol: z.string().min(1).max(30), interval: z.enum(CANDLE_INTERVALS), limit: z.number().int().min(1).max(1000).default(500) })
      .strict(),
  }),
};
