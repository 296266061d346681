import { z } from 'zod';
import { defineJob, jobId } from '../runtime/job-definition';
import { CANDLE_INTERVALS, type CandleInterval } from './price-source';

export const PRICE_POLL_KINDS = ['crypto', 'stocks'] as const;
export type PricePollKind = (typeof PRICE_POLL_KINDS)[number];

export const pricesJobs = {
  'prices.poll': defineJob({
    queue: 'prices',
    description:
      'Fetches quotes for every symbol of the kind with an active alert or a watcher (stocks only while their exchange is open), ' +
      'stores the latest price in Redis and the current bars, publishes price updates and queues alert evaluation',
    payload: z.object({ kind: z.enum(PRICE_POLL_KINDS) }).strict(),
    // A failed poll (a database or Redis blip) is retried soon, well within the 10 s of the crypto
    // schedule (1 s, then 2 s); the retry first queues the evaluations the failed attempt stored but
    // did not queue. The poll lock keeps a retry from overlapping the next scheduled poll (one of
    // them is skipped as busy), and the Redis store keeps it from storing or evaluating a quote twice.
    options: {
      attempts: 3,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: { age: 600, count: 200 },
      removeOnFail: { age: 86_400, count: 500 },
    },
  }),
  'prices.backfill-bars': defineJob({
    queue: 'prices',
    description: "Fills a symbol's stored bars of one interval from the provider's candles (charts, technical alerts)",
    payload: z
      .object({ symbol: z.string().min(1).max(30), interval: z.enum(CANDLE_INTERVALS), limit: z.number().int().min(1).max(1000).default(500) })
      .strict(),
  }),
};

/** The UTC day of an instant (YYYY-MM-DD): work keyed by it is done once a day. */
const utcDay = (at: Date) => at.toISOString().slice(0, 10);

/**
 * The ids of the jobs prices queue. Backfills: one per symbol, interval and UTC day, whoever asks
 * (the poll, a chart, a new technical alert), so a source lacking the candles is asked once a day.
 * Evaluations (the alerts jobs, named only): one per poll kind, first instant and payload digest,
 * so a re-run of the same poll adds nothing.
 */
export const pricesJobIds = {
  /** A poll asked for by a page showing a symbol with no quote yet: at most one per kind every 10 s. */
  firstQuotes: (kind: PricePollKind, now: Date) => jobId('prices.poll', kind, 'first-quotes', Math.floor(now.getTime() / 10_000)),
  backfill: (symbol: string, interval: CandleInterval, now: Date) => jobId('prices.backfill-bars', symbol, interval, utcDay(now)),
  evaluate: (kind: PricePollKind, firstTickMs: number, digest: string) => jobId('alerts.evaluate', kind, firstTickMs, digest),
  evaluateBars: (firstOpenMs: number, digest: string) => jobId('alerts.evaluate-bars', firstOpenMs, digest),
};
