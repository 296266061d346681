import type { JobsOptions } from 'bullmq';
import type { DataSource } from 'typeorm';
import type { Clock } from '../runtime/clock';
import type { JobQueues } from '../runtime/job-queues';
import { findMarketBySymbol, upsertCandles } from './prices.store';
import type { CandleInterval, PriceSource } from './price-source';
import { pricesJobIds } from './prices.jobs';
import { withPriceSourceHealth, type PriceSources } from './prices.config';
import { UNSOURCED_MARKET_TYPES } from './polled-markets';

/** Bars a backfill asks for when nothing else says how many (enough to warm up EMAs and MACD). */
export const DEFAULT_BACKFILL_LIMIT = 500;
/** What the chart shows by default: the poll keeps this many bars of watched markets. */
export const CHART_BARS: { interval: CandleInterval; limit: number } = { interval: '1h', limit: 300 };

export function backfillRequest(
  symbol: string,
  interval: CandleInterval,
  limit: number,
  now: Date,
): { name: 'prices.backfill-bars'; data: { symbol: string; interval: CandleInterval; limit: number }; options: JobsOptions } {
  return { name: 'prices.backfill-bars', data: { symbol, interval, limit }, options: { jobId: pricesJobIds.backfill(symbol, interval, now) } };
}

/** A backfill in these states has not written its bars yet (a retry waits as `delayed`). */
const BACKFILL_PENDING_STATES: readonly string[] = ['waiting', 'prioritized', 'delayed', 'active', 'waiting-children'];

/**
 * Queues a backfill (a chart asking for more bars than are stored, a new technical alert). True
 * while it (or the same day's earlier one, which the job id dedupes to) is still to write its
 * bars; false once it has finished, so a chart stops waiting for bars the source does not have.
 */
export async function requestBarsBackfill(queues: JobQueues, symbol: string, interval: CandleInterval, limit: number, now: Date): Promise<boolean> {
  const request = backfillRequest(symbol, interval, limit, now);
  const job = await queues.add(request.name, request.data, request.options);
  return BACKFILL_PENDING_STATES.includes(await job.getState());
}

/** The source of a market type's candles: Binance for crypto, the stock source for stocks and ETFs, the simulated feed for the rest. */
export function candleSourceFor(sources: PriceSources, type: string): PriceSource | null {
  if (type === 'crypto') return sources.crypto;
  if (type === 'stock' || type === 'etf') return sources.stocks;
  if ((UNSOURCED_MARKET_TYPES as readonly string[]).includes(type) && sources.stocks?.kind === 'simulated') return sources.stocks;
  return null;
}

export interface BackfillResult {
  status: 'written' | 'unknown_symbol' | 'no_source';
  source: string | null;
  closed: number;
  open: number;
}

/**
 * prices.backfill-bars: the provider's last `limit` candles of a symbol and interval into
 * price_bars (closed ones overwrite, the one in progress merges; flagged simulated when the source
 * is). Safe to repeat. Source errors propagate: PriceFetchError is worth a retry, PriceSourceError is not.
 */
export async function backfillBars(
  deps: { dataSource: DataSource; clock: Clock; sources: PriceSources },
  payload: { symbol: string; interval: CandleInterval; limit: number },
): Promise<BackfillResult> {
  const market = await findMarketBySymbol(deps.dataSource, payload.symbol);
  if (!market) return { status: 'unknown_symbol', source: null, closed: 0, open: 0 };
  const source = candleSourceFor(deps.sources, market.type);
  if (!source) return { status: 'no_source', source: null, closed: 0, open: 0 };
  const candles = await withPriceSourceHealth(source, deps).candles(payload.symbol, payload.interval, payload.limit);
  const written = await upsertCandles(deps.dataSource, market.id, payload.interval, candles, {
    source: source.name,
    simulated: source.kind === 'simulated',
    now: deps.clock.now(),
  });
  return { status: 'written', source: source.name, ...written };
}
