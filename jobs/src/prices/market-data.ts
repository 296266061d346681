import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import type { JobQueues } from '../runtime/job-queues';
import { latestPrices, type LatestPrice } from './latest-prices.store';
import { CHART_BARS, requestBarsBackfill } from './price-backfill';
import { CANDLE_INTERVALS, type CandleInterval } from './price-source';
import { findMarketBySymbol, storedBars, watchedOrAlertedMarkets } from './prices.store';
import { CRYPTO_MARKET_TYPES, STOCK_MARKET_TYPES, UNSOURCED_MARKET_TYPES } from './polled-markets';

/** Every market type some poll covers (unsourced ones with the simulated feed only: the poll decides). */
const POLLED_MARKET_TYPES = [...CRYPTO_MARKET_TYPES, ...STOCK_MARKET_TYPES, ...UNSOURCED_MARKET_TYPES];
import { pricesJobIds, type PricePollKind } from './prices.jobs';
import type { MarketBars } from './prices.shapes';

/**
 * What the public market data endpoints (/api/markets*) accept and answer: the markets reference
 * table, latest quotes from Redis, stored bars from price_bars.
 */

/** The market types the seed and the price sources know. */
export const MARKET_TYPES = ['crypto', 'stock', 'etf', 'index', 'forex', 'futures', 'commodity'] as const;

/** `q=&type=&limit=` of the markets search. */
export const marketSearchQuerySchema = z
  .object({
    q: z.string().trim().max(50).optional(),
    type: z.enum(MARKET_TYPES).optional(),
    limit: z.coerce.number().int().min(1).max(50).default(20),
  })
  .strict();
export type MarketSearchQuery = z.infer<typeof marketSearchQuerySchema>;

export const MAX_QUOTE_SYMBOLS = 100;
export const MAX_BARS = 1000;

const symbolSchema = z
  .string()
  .trim()
  .min(1)
  .max(30)
  .regex(/^[A-Za-z0-9^._=-]+$/, 'letters, digits and ^ . _ = -')
  .transform((s) => s.toUpperCase());

/** `symbols=A,B` (at most 100, duplicates dropped). */
export const marketQuotesQuerySchema = z
  .object({
    symbols: z
      .string()
      .min(1)
      .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean))
      .pipe(z.array(symbolSchema).min(1).max(MAX_QUOTE_SYMBOLS, `at most ${MAX_QUOTE_SYMBOLS} symbols`))
      .transform((symbols) => [...new Set(symbols)]),
  })
  .strict();

export const marketBarsParamsSchema = z.object({ symbol: symbolSchema });
export const marketBarsQuerySchema = z
  .object({
    interval: z.enum(CANDLE_INTERVALS).default(CHART_BARS.interval),
    limit: z.coerce.number().int().min(1).max(MAX_BARS).default(CHART_BARS.limit),
  })
  .strict();

/** The latest stored quotes of the symbols, in the order asked; symbols without one are left out. */
export async function marketQuotes(redis: Redis, prefix: string, symbols: readonly string[]): Promise<LatestPrice[]> {
  const latest = await latestPrices(redis, prefix, symbols);
  return symbols.flatMap((s) => {
    const quote = latest.get(s);
    return quote ? [quote] : [];
  });
}

/**
 * Queues a poll now for the kinds of the asked symbols that have no quote yet and that a poll
 * fetches (watched or alerted: watchedOrAlertedMarkets, the poll's own rule), rather than leave a
 * market someone just started to follow without a price until the next scheduled poll (60 s for
 * stocks, FX and futures). One job per kind every 10 s, whoever asks (its id). Symbols nobody
 * follows, and unknown ones, ask for nothing: no poll would fetch them.
 */
export async function requestFirstQuotes(
  deps: { dataSource: DataSource; queues: JobQueues; now: Date },
  asked: readonly string[],
  answered: readonly LatestPrice[],
): Promise<PricePollKind[]> {
  const quoted = new Set(answered.map((q) => q.symbol));
  const missing = asked.filter((s) => !quoted.has(s));
  if (!missing.length) return [];
  const followed = await watchedOrAlertedMarkets(deps.dataSource, POLLED_MARKET_TYPES, deps.now, missing);
  const kinds = [...new Set(followed.map((m): PricePollKind => ((CRYPTO_MARKET_TYPES as readonly string[]).includes(m.type) ? 'crypto' : 'stocks')))];
  for (const kind of kinds) await deps.queues.add('prices.poll', { kind }, { jobId: pricesJobIds.firstQuotes(kind, deps.now) });
  return kinds;
}

export type { MarketBars } from './prices.shapes';

/**
 * The last `limit` stored bars of a market, oldest first (null for an unknown symbol). When fewer
 * are stored, a backfill is queued (once per symbol, interval and day) and the stored ones are
 * answered at once with `backfill.pending` while it is yet to write (the client asks again then):
 * the request never waits on a job.
 */
export async function marketBars(
  deps: { dataSource: DataSource; queues: JobQueues; now: Date },
  symbol: string,
  query: { interval: CandleInterval; limit: number },
): Promise<MarketBars | null> {
  const market = await findMarketBySymbol(deps.dataSource, symbol);
  if (!market) return null;
  const { bars, simulated } = await storedBars(deps.dataSource, market.id, query.interval, query.limit);
  const pending = bars.length < query.limit && (await requestBarsBackfill(deps.queues, market.symbol, query.interval, query.limit, deps.now));
  return { symbol: market.symbol, interval: query.interval, simulated, bars, backfill: { pending } };
}
