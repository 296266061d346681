import type { DataSource, EntityManager } from 'typeorm';
import { CANDLE_INTERVALS, INTERVAL_MS, type Candle, type CandleInterval } from './price-source';
import type { MarketView, BarView } from './prices.shapes';

/**
 * Every PostgreSQL query of prices: the markets reference table (search, lookup, which markets a
 * poll fetches) and the stored bars (price_bars), built from polled quotes (the bar of the current
 * period of every interval is updated in place) and from providers' candles (backfill). Periods are
 * aligned on UTC epoch multiples of the interval (so 1d bars are UTC days, 4h bars start at 00, 04,
 * ... UTC). The latest prices live in Redis (latest-prices.store.ts).
 */

type Db = DataSource | EntityManager;

export interface MarketRow {
  id: number;
  symbol: string;
  type: string;
}

/** A market by its exact symbol (null when unknown). */
export async function findMarketBySymbol(db: Db, symbol: string): Promise<MarketRow | null> {
  const [market]: MarketRow[] = await db.query('SELECT id, symbol, type FROM markets WHERE symbol = $1', [symbol]);
  return market ?? null;
}

/**
 * The market of a US stock, created when missing (a new listing another domain found, e.g. an IPO
 * in the lock-up calendar): type 'stock', with the issuer's CIK when known. An existing market is
 * left as it is (its CIK filled in when it had none). Answers its id.
 */
export async function ensureStockMarket(db: Db, symbol: string, name: string, cik: string | null = null): Promise<number> {
  const [row]: { id: number }[] = await db.query(
    `INSERT INTO markets (symbol, name, type, cik) VALUES ($1, $2, 'stock', $3)
     ON CONFLICT (symbol) DO UPDATE SET cik = COALESCE(markets.cik, EXCLUDED.cik)
     RETURNING id`,
    [symbol, name.slice(0, 100), cik],
  );
  return row.id;
}

export type { MarketView } from './prices.shapes';

/** Every market's type by symbol (the tick of each market depends on it). */
export async function marketTypesBySymbol(db: Db): Promise<Record<string, string>> {
  const rows: { symbol: string; type: string }[] = await db.query('SELECT symbol, type FROM markets');
  return Object.fromEntries(rows.map((row) => [row.symbol, row.type]));
}

export interface MarketSearch {
  q?: string;
  type?: string;
  limit: number;
}

/** Escapes LIKE wildcards so a query is matched literally. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Symbol prefix or name substring, case-insensitive. Ranked: exact symbol, then symbol prefix,
 * then name; shorter symbols first within a rank. Index symbols (^GSPC) also match without the caret.
 */
export async function searchMarkets(db: Db, query: MarketSearch): Promise<MarketView[]> {
  const q = query.q ? query.q : null;
  const rows: MarketView[] = await db.query(
    `SELECT id, symbol, name, type, description
       FROM markets
      WHERE ($1::text IS NULL
             OR upper(symbol) LIKE upper($2) || '%'
             OR ltrim(upper(symbol), '^') LIKE upper($2) || '%'
             OR name ILIKE '%' || $2 || '%')
        AND ($3::text IS NULL OR type = $3)
      ORDER BY CASE
                 WHEN upper(symbol) = upper($1) OR ltrim(upper(symbol), '^') = upper($1) THEN 0
                 WHEN upper(symbol) LIKE upper($2) || '%' OR ltrim(upper(symbol), '^') LIKE upper($2) || '%' THEN 1
                 ELSE 2
               END,
               length(symbol), symbol
      LIMIT $4`,
    [q, q === null ? null : likeLiteral(q), query.type ?? null, query.limit],
  );
  return rows;
}

/** A market a poll fetches. */
export interface PolledMarket {
  id: number;
  symbol: string;
  type: string;
  exchangeId: string | null;
}

/**
 * Markets of the types that someone follows, by symbol: an active, unexpired alert on it, or an
 * item on any watchlist. Prices read the consumers' tables here (and nothing of their code): what
 * is polled is decided in one query.
 */
export async function watchedOrAlertedMarkets(db: Db, types: readonly string[], now: Date, symbols?: readonly string[]): Promise<PolledMarket[]> {
  if (!types.length || symbols?.length === 0) return [];
  const rows: { id: number; symbol: string; type: string; exchange_id: string | null }[] = await db.query(
    `SELECT m.id, m.symbol, m.type, m.exchange_id
       FROM markets m
      WHERE m.type = ANY($1::varchar[])
        AND ($3::varchar[] IS NULL OR m.symbol = ANY($3::varchar[]))
        AND (EXISTS (SELECT 1 FROM alerts a WHERE a.market_id = m.id AND a.is_active AND (a.expires_at IS NULL OR a.expires_at > $2))
             OR EXISTS (SELECT 1 FROM watchlist_items w WHERE w.market_id = m.id))
      ORDER BY m.symbol`,
    [types, now, symbols ?? null],
  );
  return rows.map((r) => ({ id: r.id, symbol: r.symbol, type: r.type, exchangeId: r.exchange_id }));
}

/** Markets of the types among these symbols, followed or not (what a consumer always needs polled). */
export async function marketsOfSymbols(db: Db, types: readonly string[], symbols: readonly string[]): Promise<PolledMarket[]> {
  if (!types.length || !symbols.length) return [];
  const rows: { id: number; symbol: string; type: string; exchange_id: string | null }[] = await db.query(
    `SELECT m.id, m.symbol, m.type, m.exchange_id FROM markets m WHERE m.type = ANY($1::varchar[]) AND m.symbol = ANY($2::varchar[]) ORDER BY m.symbol`,
    [types, symbols],
  );
  return rows.map((r) => ({ id: r.id, symbol: r.symbol, type: r.type, exchangeId: r.exchange_id }));
}

/** The markets among these that are on some watchlist (the chart's bars are kept for them). */
export async function watchedMarketIds(db: Db, marketIds: readonly number[]): Promise<Set<number>> {
  const rows: { market_id: number }[] = await db.query('SELECT DISTINCT market_id FROM watchlist_items WHERE market_id = ANY($1::int[])', [
    marketIds,
  ]);
  return new Set(rows.map((r) => r.market_id));
}

/** Open time of the bar of `interval` that contains the instant. */
export function barOpenTime(at: Date, interval: CandleInterval): Date {
  const size = INTERVAL_MS[interval];
  return new Date(Math.floor(at.getTime() / size) * size);
}

/** One applied price update of a market, as the bar upsert needs it. */
export interface BarTick {
  marketId: number;
  symbol: string;
  /** Decimal string. */
  price: string;
  at: Date;
  source: string;
  simulated: boolean;
}

/** A bar that closed: a tick arrived in a later period than the last stored bar of its interval. */
export interface ClosedBar {
  marketId: number;
  symbol: string;
  interval: CandleInterval;
  openTime: Date;
}

/**
 * Upserts the current bar of every interval for each tick, in one statement: a new bar opens at
 * the tick's price; an existing one keeps its open, widens high/low and takes the tick as close.
 * Returns the bars that closed: for each (market, interval), the last bar stored before this
 * statement when the tick falls in a later period (read from the statement's snapshot, so the
 * bars written by the statement itself do not count). A repeated tick changes nothing and reports
 * nothing. At most one tick per market (the caller keeps the newest).
 */
export async function upsertTickBars(db: Db, ticks: readonly BarTick[]): Promise<ClosedBar[]> {
  if (!ticks.length) return [];
  const marketIds: number[] = [];
  const intervals: string[] = [];
  const openTimes: string[] = [];
  const prices: string[] = [];
  const sources: string[] = [];
  const simulated: boolean[] = [];
  for (const tick of ticks) {
    for (const interval of CANDLE_INTERVALS) {
      marketIds.push(tick.marketId);
      intervals.push(interval);
      openTimes.push(barOpenTime(tick.at, interval).toISOString());
      prices.push(tick.price);
      sources.push(tick.source);
      simulated.push(tick.simulated);
    }
  }
  const rows: { market_id: number; interval: CandleInterval; last_open: Date }[] = await db.query(
    `WITH input AS (
       SELECT * FROM unnest($1::int[], $2::varchar[], $3::timestamptz[], $4::numeric[], $5::varchar[], $6::boolean[])
         AS t(market_id, interval, open_time, price, source, simulated)
     ),
     last AS (
       SELECT i.market_id, i.interval, i.open_time,
              (SELECT b.open_time FROM price_bars b WHERE b.market_id = i.market_id AND b.interval = i.interval
                ORDER BY b.open_time DESC LIMIT 1) AS last_open
         FROM input i
     ),
     written AS (
       INSERT INTO price_bars (market_id, interval, open_time, open, high, low, close, volume, source, simulated, updated_at)
       SELECT market_id, interval, open_time, price, price, price, price, 0, source, simulated, now() FROM input
       ON CONFLICT (market_id, interval, open_time) DO UPDATE SET
         high = GREATEST(price_bars.high, EXCLUDED.high),
         low = LEAST(price_bars.low, EXCLUDED.low),
         close = EXCLUDED.close,
         source = EXCLUDED.source,
         simulated = price_bars.simulated OR EXCLUDED.simulated,
         updated_at = now()
       RETURNING 1
     )
     SELECT market_id, interval, last_open FROM last WHERE last_open < open_time`,
    [marketIds, intervals, openTimes, prices, sources, simulated],
  );
  const symbolOf = new Map(ticks.map((t) => [t.marketId, t.symbol]));
  return rows.map((r) => ({ marketId: r.market_id, symbol: symbolOf.get(r.market_id)!, interval: r.interval, openTime: new Date(r.last_open) }));
}

/**
 * Writes a provider's candles in one statement. Closed candles (closeTime before `now`) overwrite
 * the stored bar: the provider saw every trade. The candle still in progress merges with the bar the
 * quotes are building: the provider's open and volume, the wider high/low, our close (the next
 * tick updates it anyway).
 */
export async function upsertCandles(
  db: Db,
  marketId: number,
  interval: CandleInterval,
  candles: readonly Candle[],
  meta: { source: string; simulated: boolean; now: Date },
): Promise<{ closed: number; open: number }> {
  if (!candles.length) return { closed: 0, open: 0 };
  const closed = candles.map((c) => c.closeTime.getTime() < meta.now.getTime());
  await db.query(
    `WITH input AS (
       SELECT * FROM unnest($3::timestamptz[], $4::numeric[], $5::numeric[], $6::numeric[], $7::numeric[], $8::numeric[], $11::boolean[])
         AS t(open_time, open, high, low, close, volume, closed)
     ),
     closed_bars AS (
       INSERT INTO price_bars (market_id, interval, open_time, open, high, low, close, volume, source, simulated, updated_at)
       SELECT $1, $2, open_time, open, high, low, close, volume, $9, $10, now() FROM input WHERE closed
       ON CONFLICT (market_id, interval, open_time) DO UPDATE SET
         open = EXCLUDED.open, high = EXCLUDED.high, low = EXCLUDED.low, close = EXCLUDED.close, volume = EXCLUDED.volume,
         source = EXCLUDED.source, simulated = EXCLUDED.simulated, updated_at = now()
     )
     INSERT INTO price_bars (market_id, interval, open_time, open, high, low, close, volume, source, simulated, updated_at)
     SELECT $1, $2, open_time, open, high, low, close, volume, $9, $10, now() FROM input WHERE NOT closed
     ON CONFLICT (market_id, interval, open_time) DO UPDATE SET
       open = EXCLUDED.open,
       high = GREATEST(price_bars.high, EXCLUDED.high),
       low = LEAST(price_bars.low, EXCLUDED.low),
       volume = EXCLUDED.volume,
       simulated = price_bars.simulated OR EXCLUDED.simulated,
       updated_at = now()`,
    [
      marketId,
      interval,
      candles.map((c) => c.openTime.toISOString()),
      candles.map((c) => c.open),
      candles.map((c) => c.high),
      candles.map((c) => c.low),
      candles.map((c) => c.close),
      candles.map((c) => c.volume),
      meta.source,
      meta.simulated,
      closed,
    ],
  );
  return { closed: closed.filter(Boolean).length, open: closed.filter((c) => !c).length };
}

export type { BarView } from './prices.shapes';

/** The last `limit` stored bars of a market and interval, oldest first, and whether any is simulated. */
export async function storedBars(
  db: Db,
  marketId: number,
  interval: CandleInterval,
  limit: number,
): Promise<{ bars: BarView[]; simulated: boolean }> {
  // trim_scale: numeric(30,10) would answer 60740.0000000000.
  const rows: { open_time: Date; open: string; high: string; low: string; close: string; volume: string; simulated: boolean }[] = await db.query(
    `SELECT open_time, trim_scale(open)::text AS open, trim_scale(high)::text AS high, trim_scale(low)::text AS low,
            trim_scale(close)::text AS close, trim_scale(volume)::text AS volume, simulated
       FROM (SELECT * FROM price_bars WHERE market_id = $1 AND interval = $2 ORDER BY open_time DESC LIMIT $3) last
      ORDER BY open_time`,
    [marketId, interval, limit],
  );
  return {
    bars: rows.map((r) => ({ time: new Date(r.open_time).toISOString(), open: r.open, high: r.high, low: r.low, close: r.close, volume: r.volume })),
    simulated: rows.some((r) => r.simulated),
  };
}

/**
 * For each (market, interval) pair, whether fewer than `needed` bars are stored. Counts stop at
 * `needed` (a LIMIT per pair on the primary key), so the check stays cheap on long histories.
 */
export async function pairsShortOfBars(
  db: Db,
  pairs: readonly { marketId: number; interval: CandleInterval; needed: number }[],
): Promise<{ marketId: number; interval: CandleInterval; needed: number; stored: number }[]> {
  if (!pairs.length) return [];
  const rows: { market_id: number; interval: CandleInterval; needed: number; stored: number }[] = await db.query(
    `SELECT p.market_id, p.interval, p.needed, c.stored
       FROM unnest($1::int[], $2::varchar[], $3::int[]) AS p(market_id, interval, needed)
       CROSS JOIN LATERAL (
         SELECT count(*)::int AS stored FROM (
           SELECT 1 FROM price_bars b WHERE b.market_id = p.market_id AND b.interval = p.interval LIMIT p.needed
         ) s
       ) c
      WHERE c.stored < p.needed`,
    [pairs.map((p) => p.marketId), pairs.map((p) => p.interval), pairs.map((p) => p.needed)],
  );
  return rows.map((r) => ({ marketId: r.market_id, interval: r.interval, needed: r.needed, stored: r.stored }));
}

/**
 * The newest stored 1m close of every market (where the simulated walk starts after a restart).
 * One primary-key probe per market, not a scan of every stored bar.
 */
export async function lastStoredCloses(db: Db): Promise<Record<string, string>> {
  const rows: { symbol: string; close: string | null }[] = await db.query(
    `SELECT m.symbol,
            (SELECT trim_scale(b.close)::text FROM price_bars b WHERE b.market_id = m.id AND b.interval = '1m'
              ORDER BY b.open_time DESC LIMIT 1) AS close
       FROM markets m`,
  );
  return Object.fromEntries(rows.flatMap((r) => (r.close === null ? [] : [[r.symbol, r.close]])));
}

/**
 * The closes of a symbol's last `limit` bars of an interval opened at or before `upTo`, oldest
 * first, with the open time of the newest (null when none is stored): what technical conditions
 * are evaluated on.
 */
export async function closesUpTo(
  db: Db,
  symbol: string,
  interval: CandleInterval,
  upTo: Date,
  limit: number,
): Promise<{ newestOpenTime: Date | null; closes: string[] }> {
  const rows: { open_time: Date; close: string }[] = await db.query(
    `SELECT b.open_time, b.close FROM price_bars b JOIN markets m ON m.id = b.market_id
     WHERE m.symbol = $1 AND b.interval = $2 AND b.open_time <= $3 ORDER BY b.open_time DESC LIMIT $4`,
    [symbol, interval, upTo, limit],
  );
  return { newestOpenTime: rows.length ? rows[0].open_time : null, closes: rows.reverse().map((r) => r.close) };
}
