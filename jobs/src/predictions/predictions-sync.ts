// The source part's job logic (docs/predictions.md, "Jobs"): predictions.sync pages Gamma's active
// markets and events into prediction_markets, writing only what changed; predictions.snapshot records
// the price of every tracked market. Both take the clock's time, never the machine's.
import { randomUUID } from 'node:crypto';
import type Redis from 'ioredis';
import type { JobContext } from '../runtime/job-handler';
import type { Logger } from '../runtime/logger';
import { predictionsJobIds } from './predictions.jobs';
import { marketContent, roundDecimal, type GammaEventInfo, type MarketContent } from './predictions.parse';
import {
  marketsToRecheck,
  applyMarkets,
  recordSnapshots,
  thinSnapshots,
  trackedMarkets,
  type ApplyMarketsResult,
  type SnapshotRow,
  type TrackedMarket,
} from './predictions-markets.store';
import type { PolymarketSource } from './polymarket.client';
import type { PredictionDataSource, PredictionResolution } from './predictions.shapes';

type SyncContext = Pick<JobContext, 'dataSource' | 'queues' | 'clock'> & { logger?: Logger };

export interface SyncOptions {
  /** Markets (and events) per Gamma page; Gamma's largest is 500. */
  pageSize?: number;
  /** Pages read at most per listing (a runaway listing stops there; the missing-market lookups are then skipped). */
  maxPages?: number;
  /** Markets looked up by id per sync at most (held as active but no longer listed, then closed ones awaiting resolution; the rest next time). */
  maxLookups?: number;
}

export interface SyncOutcome extends Omit<ApplyMarketsResult, 'resolved'> {
  status: 'synced';
  /** Markets and events the listings returned. */
  listed: number;
  events: number;
  /** Gamma requests made (pages and lookups). */
  requests: number;
  /** Markets missing from the listing looked up by id (and of them, unknown to Gamma). */
  lookedUp: number;
  notFound: number;
  resolved: number;
  /** Resolve jobs queued, one per market whose resolution is new. */
  resolveJobs: number;
}

export const SYNC_DEFAULTS = { pageSize: 500, maxPages: 400, maxLookups: 300 } as const;

/** The data_source of rows a source writes. */
export const dataSourceOf = (source: Pick<PolymarketSource, 'kind'>): PredictionDataSource => (source.kind === 'live' ? 'polymarket' : 'replay');

/** Every page of a listing, until a short page; throws (failing the sync, nothing written) when a page fails. */
async function readAll<T>(fetchPage: (offset: number, limit: number) => Promise<T[]>, pageSize: number, maxPages: number): Promise<{ items: T[]; pages: number; complete: boolean }> {
  const items: T[] = [];
  for (let page = 0; page < maxPages; page++) {
    const got = await fetchPage(page * pageSize, pageSize);
    items.push(...got);
    if (got.length < pageSize) return { items, pages: page + 1, complete: true };
  }
  return { items, pages: maxPages, complete: false };
}

/**
 * One sync: every page of Gamma's active events (their tags, titles and negative risk) and markets,
 * then, by id, each market we hold as active that the listing no longer returns (to learn that it
 * closed) and each closed market whose resolution is still pending (to learn how it resolved). Everything is read before anything is written: a failed or malformed
 * page fails the sync with its reason and leaves the stored rows as they were. Then one transaction
 * writes the new and changed markets only (content hash), and the resolve jobs of newly resolved
 * markets and one mispricing run are queued.
 */
export async function syncMarkets(context: SyncContext, source: PolymarketSource, opts: SyncOptions = {}): Promise<SyncOutcome> {
  const pageSize = Math.min(opts.pageSize ?? SYNC_DEFAULTS.pageSize, 500);
  const maxPages = opts.maxPages ?? SYNC_DEFAULTS.maxPages;
  const maxLookups = opts.maxLookups ?? SYNC_DEFAULTS.maxLookups;
  const now = context.clock.now();

  // The events' own markets are not read: /markets lists them.
  const events = await readAll((offset, limit) => source.eventsPage(offset, limit, { markets: false }), pageSize, maxPages);
  const eventById = new Map<string, GammaEventInfo>();
  for (const e of events.items) eventById.set(e.id, e);
  const markets = await readAll((offset, limit) => source.marketsPage(offset, limit), pageSize, maxPages);
  const contents = new Map<string, MarketContent>();
  for (const m of markets.items) contents.set(m.id, marketContent(m, m.event ? (eventById.get(m.event.id) ?? m.event) : null));

  let lookedUp = 0;
  let notFound = 0;
  if (markets.complete) {
    const recheck = await marketsToRecheck(context.dataSource, now);
    const missing = [...recheck.active, ...recheck.pending].filter((id) => !contents.has(id)).slice(0, maxLookups);
    for (const id of missing) {
      const m = await source.market(id);
      lookedUp++;
      if (!m) {
        notFound++;
        continue;
      }
      contents.set(m.id, marketContent(m, m.event ? (eventById.get(m.event.id) ?? m.event) : null));
    }
  } else {
    context.logger?.warn({ pages: maxPages }, 'predictions: the market listing has more pages than allowed; missing markets not looked up');
  }

  const applied = await context.dataSource.transaction((manager) => applyMarkets(manager, [...contents.values()], { dataSource: dataSourceOf(source), now }));
  const resolveJobs = await queueAfterApply(context, applied.resolved, now);
  return {
    status: 'synced',
    listed: markets.items.length,
    events: events.items.length,
    requests: events.pages + markets.pages + lookedUp,
    lookedUp,
    notFound,
    inserted: applied.inserted,
    changed: applied.changed,
    unchanged: applied.unchanged,
    closed: applied.closed,
    resolved: applied.resolved.length,
    resolveJobs,
  };
}

/**
 * After markets were applied: a predictions.resolve job per newly resolved market (jobId per market)
 * and one predictions.mispricing run for the 5-minute slot (prices may have moved).
 */
export async function queueAfterApply(
  context: Pick<JobContext, 'queues'>,
  resolved: readonly { marketId: number; resolution: PredictionResolution }[],
  now: Date,
): Promise<number> {
  if (resolved.length) {
    await context.queues.addBulk(
      resolved.map((r) => ({ name: 'predictions.resolve' as const, data: { marketId: r.marketId }, options: { jobId: predictionsJobIds.resolve(r.marketId) } })),
    );
  }
  await context.queues.add('predictions.mispricing', {}, { jobId: predictionsJobIds.mispricing(now) });
  return resolved.length;
}

// ---------------------------------------------------------------------------------------------
// Snapshots.

export interface SnapshotOutcome {
  status: 'recorded';
  /** The slot's time every snapshot of this run is taken at. */
  takenAt: string;
  tracked: number;
  /** New rows (0 when the slot was already recorded). */
  recorded: number;
  /** Where the prices came from: the book's mid, the CLOB midpoint, or our last sync's Gamma price. */
  fromBook: number;
  fromMidpoint: number;
  fromGamma: number;
  /** Markets with no price anywhere (no snapshot). */
  unpriced: number;
  /** CLOB requests that failed (the Gamma price was used). */
  clobErrors: number;
  /** Old snapshots thinned to one a day. */
  thinned: number;
}

/** The start of the PREDICTIONS_SNAPSHOT_MINUTES slot of `now`: a snapshot's time, so a second run in the slot writes nothing. */
export const snapshotSlot = (now: Date, minutes: number) => new Date(Math.floor(now.getTime() / (minutes * 60_000)) * minutes * 60_000);

/** Concurrent CLOB requests of one snapshot run (the rate limit paces them). */
const SNAPSHOT_CONCURRENCY = 4;

/**
 * The price of one tracked market: the mid of the CLOB book's best bid and ask (levels sorted by the
 * parser), else the CLOB midpoint (one side of the book empty), else the YES price of our last sync.
 * A CLOB error falls back to the Gamma price (counted).
 */
async function priceOf(source: PolymarketSource, market: TrackedMarket): Promise<{ price: string | null; bestBid: string | null; bestAsk: string | null; from: 'book' | 'midpoint' | 'gamma'; error: boolean }> {
  const gamma = { price: market.yesPrice, bestBid: market.bestBid, bestAsk: market.bestAsk, from: 'gamma' as const };
  if (!market.yesToken) return { ...gamma, error: false };
  try {
    const book = await source.book(market.yesToken);
    if (book?.bestBid !== null && book?.bestBid !== undefined && book.bestAsk !== null) {
      const mid = roundDecimal((Number(book.bestBid) + Number(book.bestAsk)) / 2, 4);
      return { price: mid, bestBid: book.bestBid, bestAsk: book.bestAsk, from: 'book', error: false };
    }
    const mid = book ? await source.midpoint(market.yesToken) : null;
    if (mid !== null) return { price: mid, bestBid: book?.bestBid ?? null, bestAsk: book?.bestAsk ?? null, from: 'midpoint', error: false };
    return { ...gamma, error: false };
  } catch {
    return { ...gamma, error: true };
  }
}

/**
 * One snapshot run: a row per tracked market (active, forecast or followed, by market or category)
 * at the slot's time, idempotent by (market, slot); then old snapshots are thinned.
 */
export async function snapshotMarkets(context: SyncContext, source: PolymarketSource, opts: { minutes: number }): Promise<SnapshotOutcome> {
  const now = context.clock.now();
  const takenAt = snapshotSlot(now, opts.minutes);
  const tracked = await trackedMarkets(context.dataSource);
  const outcome: SnapshotOutcome = { status: 'recorded', takenAt: takenAt.toISOString(), tracked: tracked.length, recorded: 0, fromBook: 0, fromMidpoint: 0, fromGamma: 0, unpriced: 0, clobErrors: 0, thinned: 0 };
  const rows: SnapshotRow[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tracked.length) {
      const market = tracked[next++];
      const priced = await priceOf(source, market);
      if (priced.error) outcome.clobErrors++;
      if (priced.price === null) {
        outcome.unpriced++;
        continue;
      }
      if (priced.from === 'book') outcome.fromBook++;
      else if (priced.from === 'midpoint') outcome.fromMidpoint++;
      else outcome.fromGamma++;
      const label = source.kind === 'replay' ? 'replay' : priced.from === 'gamma' ? 'gamma' : 'clob';
      rows.push({ marketId: market.id, takenAt, price: priced.price, bestBid: priced.bestBid, bestAsk: priced.bestAsk, source: label });
    }
  };
  await Promise.all(Array.from({ length: Math.min(SNAPSHOT_CONCURRENCY, tracked.length) }, worker));
  if (outcome.clobErrors) context.logger?.warn({ clobErrors: outcome.clobErrors }, 'predictions: CLOB prices failed; the synced Gamma price was used');
  outcome.recorded = await recordSnapshots(context.dataSource, rows);
  outcome.thinned = await thinSnapshots(context.dataSource, now);
  return outcome;
}

// ---------------------------------------------------------------------------------------------
// Scheduling helpers.

/**
 * Claims a scheduled run of a `minutes` slot for the cluster (`kind`: sync or snapshot): the
 * schedule ticks every minute and the first tick of each slot runs; the others answer "not due".
 */
export async function claimPredictionsSlot(redis: Redis, prefix: string, kind: 'sync' | 'snapshot', now: Date, minutes: number): Promise<boolean> {
  const slotMs = minutes * 60_000;
  const slot = Math.floor(now.getTime() / slotMs);
  return (await redis.set(`${prefix}:predictions:${kind}-slot:${minutes}:${slot}`, '1', 'PX', slotMs * 2, 'NX')) === 'OK';
}

/** Longer than any sync (a few hundred Gamma pages); a crashed holder frees it after this. */
export const PREDICTIONS_SYNC_LOCK_MS = 10 * 60_000;
const RELEASE_LOCK = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/** Runs `work` while holding the cluster's sync lock (one sync at a time); null when another worker holds it. */
export async function withSyncLock<T>(redis: Redis, prefix: string, work: () => Promise<T>): Promise<T | null> {
  const key = `${prefix}:predictions:sync-lock`;
  const token = randomUUID();
  if ((await redis.set(key, token, 'PX', PREDICTIONS_SYNC_LOCK_MS, 'NX')) !== 'OK') return null;
  try {
    return await work();
  } finally {
    await redis.eval(RELEASE_LOCK, 1, key, token);
  }
}
