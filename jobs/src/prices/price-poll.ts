import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import type { Clock } from '../runtime/clock';
import type { JobQueues } from '../runtime/job-queues';
import type { Logger } from '../runtime/logger';
import { allLatestPrices, planQuoteUpdates, writeQuoteUpdates } from './latest-prices.store';
import { backfillRequest, CHART_BARS, DEFAULT_BACKFILL_LIMIT } from './price-backfill';
import { barDemandKey, collectBarDemand, type BarDemand, type BarDemandProvider } from './price-demand';
import { chunk, PriceFetchError, type PriceSource, type Quote } from './price-source';
import { catchUpEvaluations, evaluationJobs, payloadDigest, queueEvaluations, unqueuedEvaluationFields, unqueuedEvaluationsKey } from './price-evaluations';
import { MAX_TICKS_PER_EVALUATION, type ClosedBarPayload } from './price-ticks';
import { pricesJobIds, type PricePollKind } from './prices.jobs';
import { withPriceSourceHealth, type PriceSources } from './prices.config';
import { lastStoredCloses, pairsShortOfBars, upsertTickBars, watchedMarketIds, type BarTick, type ClosedBar, type PolledMarket } from './prices.store';
import { marketsToPoll } from './polled-markets';

export interface PricesDeps {
  dataSource: DataSource;
  redis: Redis;
  /** The deployment's QUEUE_PREFIX: Redis keys and channels live under it. */
  prefix: string;
  queues: JobQueues;
  clock: Clock;
  sources: PriceSources;
  /** The consumers' bar needs (the alerts' technical conditions): closed bars and backfills of those pairs. */
  barDemand: readonly BarDemandProvider[];
  /** Symbols polled whether or not anyone follows them (the whales value ETH transfers from ETHUSDT's bars). */
  alwaysPolled?: readonly string[];
  logger?: Logger;
}

export interface PricePollResult {
  kind: PricePollKind;
  status: 'polled' | 'nothing_to_poll' | 'no_source' | 'busy';
  /** Provider that answered (after a fallback, the second one). */
  source: string | null;
  fellBack: boolean;
  asked: number;
  quotes: number;
  /** Quotes newer than the stored price: stored, published, evaluated. */
  updated: number;
  /** Evaluation jobs of ticks an earlier poll stored but did not queue, queued by this poll. */
  caughtUp: number;
  /** Ticks an earlier poll stored but did not queue, too old to evaluate now (MAX_CATCH_UP_MS): dropped, logged. */
  staleDropped: number;
  closedBars: number;
  evaluateJobs: number;
  evaluateBarsJobs: number;
  backfills: number;
}

/** A poll of one kind holds this lock while it runs: a slow poll is never overlapped by the next one. */
export function pricePollLockKey(prefix: string, kind: PricePollKind): string {
  return `${prefix}:prices:poll-lock:${kind}`;
}
const POLL_LOCK_MS = 120_000;
const RELEASE_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** The newest quote per symbol, only for symbols asked (a provider may answer more, or twice). */
function newestPerSymbol(quotes: readonly Quote[], asked: ReadonlySet<string>): Quote[] {
  const bySymbol = new Map<string, Quote>();
  for (const quote of quotes) {
    if (!asked.has(quote.symbol)) continue;
    const seen = bySymbol.get(quote.symbol);
    if (!seen || seen.at.getTime() < quote.at.getTime()) bySymbol.set(quote.symbol, quote);
  }
  return [...bySymbol.values()];
}

/** Quotes from the primary source; crypto falls back to the second source when the first fails transiently. */
async function fetchQuotes(
  deps: PricesDeps,
  kind: PricePollKind,
  primary: PriceSource,
  symbols: string[],
): Promise<{ quotes: Quote[]; source: string; fellBack: boolean }> {
  const health = { dataSource: deps.dataSource, clock: deps.clock };
  try {
    return { quotes: await withPriceSourceHealth(primary, health).quotes(symbols), source: primary.name, fellBack: false };
  } catch (error) {
    const fallback = deps.sources.cryptoFallback;
    if (kind !== 'crypto' || !(error instanceof PriceFetchError) || fallback === primary) throw error;
    deps.logger?.warn({ source: primary.name, err: error.message, fallback: fallback.name }, 'prices: primary source failed, falling back');
    return { quotes: await withPriceSourceHealth(fallback, health).quotes(symbols), source: fallback.name, fellBack: true };
  }
}

async function enqueueClosedBars(deps: PricesDeps, closed: ClosedBar[]): Promise<number> {
  const bars: ClosedBarPayload[] = closed.map((b) => ({ symbol: b.symbol, interval: b.interval, openTime: b.openTime.toISOString() }));
  const jobs = chunk(bars, MAX_TICKS_PER_EVALUATION).map((part) => ({
    name: 'alerts.evaluate-bars' as const,
    data: { bars: part },
    options: { jobId: pricesJobIds.evaluateBars(Date.parse(part[0].openTime), payloadDigest(part)) },
  }));
  if (jobs.length) await deps.queues.addBulk(jobs);
  return jobs.length;
}

/**
 * Backfills for the polled markets short of bars: the pairs the consumers demand (as many bars as
 * they read, e.g. a technical alert's condition) and, for watched markets, the chart's default
 * interval. One job per symbol, interval and UTC day (its id), so a source without those candles
 * is asked once a day.
 */
async function enqueueBackfills(
  deps: PricesDeps,
  markets: PolledMarket[],
  watched: ReadonlySet<number>,
  needs: Map<string, BarDemand>,
): Promise<number> {
  const pairs = new Map(needs);
  for (const market of markets) {
    const key = barDemandKey(market.id, CHART_BARS.interval);
    if (watched.has(market.id) && !pairs.has(key)) pairs.set(key, { marketId: market.id, interval: CHART_BARS.interval, needed: CHART_BARS.limit });
  }
  const short = await pairsShortOfBars(deps.dataSource, [...pairs.values()]);
  if (!short.length) return 0;
  const symbolOf = new Map(markets.map((m) => [m.id, m.symbol]));
  const now = deps.clock.now();
  await deps.queues.addBulk(
    short.map((s) => backfillRequest(symbolOf.get(s.marketId)!, s.interval, Math.min(1000, Math.max(DEFAULT_BACKFILL_LIMIT, s.needed)), now)),
  );
  return short.length;
}

/**
 * One poll of a kind (prices.poll): fetch the quotes of the markets to poll in one batched call,
 * store the newer ones in Redis (latest, 24 h history, pub/sub for the live streams), queue their
 * alert evaluation, update the current bar of every interval, queue the technical evaluation of
 * the bars that closed, and queue backfills where bars are missing. The Redis store is the gate:
 * a quote not newer than the stored price goes no further, so re-running a poll with the same
 * quotes writes and queues nothing new.
 *
 * Evaluation is queued straight after the price is stored (before the database work), so a
 * database failure costs bars, never a tick's alerts. The evaluation jobs are recorded with the
 * prices in one MULTI and the record cleared once they are queued; a poll that failed in between
 * (its retry, or the next poll of the kind) queues them first (`catchUpEvaluations`), so a stored
 * tick is always evaluated, once, with the price it replaced.
 */
export async function pollPrices(deps: PricesDeps, kind: PricePollKind): Promise<PricePollResult> {
  const result: PricePollResult = {
    kind,
    status: 'polled',
    source: null,
    fellBack: false,
    asked: 0,
    quotes: 0,
    updated: 0,
    caughtUp: 0,
    staleDropped: 0,
    closedBars: 0,
    evaluateJobs: 0,
    evaluateBarsJobs: 0,
    backfills: 0,
  };
  const primary = kind === 'crypto' ? deps.sources.crypto : deps.sources.stocks;
  if (!primary) return { ...result, status: 'no_source' };

  const lockKey = pricePollLockKey(deps.prefix, kind);
  const token = randomUUID();
  if ((await deps.redis.set(lockKey, token, 'PX', POLL_LOCK_MS, 'NX')) !== 'OK') return { ...result, status: 'busy' };
  try {
    const caughtUp = await catchUpEvaluations(deps, kind);
    Object.assign(result, { caughtUp: caughtUp.jobs, staleDropped: caughtUp.dropped });

    const now = deps.clock.now();
    const quoted = new Set(Object.keys(await allLatestPrices(deps.redis, deps.prefix)));
    const markets = await marketsToPoll(deps.dataSource, kind, now, { simulated: primary.kind === 'simulated', quoted, alwaysPolled: deps.alwaysPolled });
    if (!markets.length) return { ...result, status: 'nothing_to_poll' };
    const bySymbol = new Map(markets.map((m) => [m.symbol, m]));
    result.asked = markets.length;

    const fetched = await fetchQuotes(deps, kind, primary, [...bySymbol.keys()]);
    const quotes = newestPerSymbol(fetched.quotes, new Set(bySymbol.keys()));
    Object.assign(result, { source: fetched.source, fellBack: fetched.fellBack, quotes: quotes.length });

    // The prices and the record of their evaluation jobs in one transaction, then the jobs.
    const updates = await planQuoteUpdates(deps.redis, deps.prefix, quotes);
    const evaluations = evaluationJobs(kind, updates);
    await writeQuoteUpdates(deps.redis, deps.prefix, updates, { key: unqueuedEvaluationsKey(deps.prefix, kind), fields: unqueuedEvaluationFields(evaluations, now) });
    result.updated = updates.length;
    await queueEvaluations(deps, kind, evaluations);
    result.evaluateJobs = evaluations.length;

    const ticks: BarTick[] = updates.map((u) => ({
      marketId: bySymbol.get(u.latest.symbol)!.id,
      symbol: u.latest.symbol,
      price: u.latest.price,
      at: new Date(u.latest.at),
      source: u.latest.source,
      simulated: u.latest.simulated,
    }));
    const closed = await upsertTickBars(deps.dataSource, ticks);
    const marketIds = markets.map((m) => m.id);
    const needs = await collectBarDemand(deps.barDemand, deps.dataSource, marketIds, now);
    // Only bars some consumer evaluates: a closed 1m bar of every symbol each minute is otherwise wasted work.
    const evaluated = closed.filter((b) => needs.has(barDemandKey(b.marketId, b.interval)));
    result.closedBars = closed.length;
    result.evaluateBarsJobs = await enqueueClosedBars(deps, evaluated);
    result.backfills = await enqueueBackfills(deps, markets, await watchedMarketIds(deps.dataSource, marketIds), needs);
    return result;
  } finally {
    await deps.redis.eval(RELEASE_LOCK, 1, lockKey, token);
  }
}

/**
 * The last prices known for every market (Redis latest, else the newest stored 1m close): where the
 * simulated walk starts, so a restart continues from the last price shown rather than jumping back.
 */
export async function lastKnownPrices(deps: Pick<PricesDeps, 'dataSource' | 'redis' | 'prefix'>): Promise<Record<string, string>> {
  return { ...(await lastStoredCloses(deps.dataSource)), ...(await allLatestPrices(deps.redis, deps.prefix)) };
}
