import Decimal from 'decimal.js';
import type Redis from 'ioredis';
import type { DataSource, EntityManager } from 'typeorm';
import type { Logger } from '../runtime/logger';
import { coinId, type CoinsPriceSource } from './defillama-coins.client';
import type { WhalePriceSource } from './whales.shapes';

type Db = DataSource | EntityManager;

/*
 * Where a transfer's USD price came from (whale_transactions.price_source, WhalePriceSource):
 * 'prices' the stored ETHUSDT bars of the prices feature, 'defillama' DefiLlama's coins API,
 * 'simulated' a simulated value (the prices feature's simulated bars, or the coins replay twin offline).
 */

/** A USD price of one token unit at a time. */
export interface TokenPrice {
  /** Decimal string. */
  usd: string;
  source: WhalePriceSource;
  /** DefiLlama's confidence (0..1) as a decimal string; null for ETH from the bars. */
  confidence: string | null;
}

/** The prices feature's market whose 1-minute bars value ETH (USDT taken as USD). */
export const ETH_PRICE_SYMBOL = 'ETHUSDT';
/** A bar further than this from the block time is not used: the price is unknown. */
export const ETH_BAR_MAX_DISTANCE_MINUTES = 5;
/**
 * DefiLlama prices below this confidence are kept (they are often right, and a whale transfer of
 * a thin token is still worth showing) but the confidence is stored beside them (price_confidence),
 * so readers can discount them.
 */
export const LOW_PRICE_CONFIDENCE = 0.9;
/**
 * usd_value is numeric(24,2) and usd_price numeric(30,10): a value above these (a spam token with
 * an absurd price times an absurd supply) is stored as unknown rather than failing the block.
 */
const MAX_USD_VALUE = new Decimal('1e21');
const MAX_USD_PRICE = new Decimal('1e19');

/** The key of a token in price maps and the netflow table: 'eth' or the lowercase contract address. */
export const tokenKey = (token: string | null): string => (token === null ? 'eth' : token.toLowerCase());

/**
 * ETH in USD at `at` from price_bars: the 1-minute ETHUSDT bar containing the time (its close),
 * else the nearest 1-minute bar within 5 minutes of it (a bar before: its close; after: its open).
 * Simulated bars (the prices feature without a provider) give a 'simulated' price. Never the network.
 */
export async function ethPriceAt(db: Db, at: Date, symbol = ETH_PRICE_SYMBOL): Promise<TokenPrice | null> {
  const rows: Array<{ price: string; simulated: boolean }> = await db.query(
    `SELECT CASE WHEN b.open_time > $2 THEN b.open ELSE b.close END::text AS price, b.simulated
       FROM price_bars b JOIN markets m ON m.id = b.market_id
      WHERE m.symbol = $1 AND b.interval = '1m'
        AND b.open_time > $2::timestamptz - make_interval(mins => $3 + 1)
        AND b.open_time <= $2::timestamptz + make_interval(mins => $3)
      ORDER BY GREATEST(b.open_time - $2::timestamptz, $2::timestamptz - (b.open_time + interval '1 minute'), interval '0'), b.open_time DESC
      LIMIT 1`,
    [symbol, at, ETH_BAR_MAX_DISTANCE_MINUTES],
  );
  // The ORDER BY puts the containing bar (distance 0) first; the WHERE is a coarse window, refined here.
  const row = rows[0];
  if (!row) return null;
  return { usd: row.price, source: row.simulated ? 'simulated' : 'prices', confidence: null };
}

/** USD of `amount` token units at `price`, 2 decimals (half up); null when either is unknown or the value is out of range. */
export function usdValueOf(amount: string | null, price: TokenPrice | null): string | null {
  if (amount === null || price === null) return null;
  const value = new Decimal(amount).times(price.usd).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  return value.abs().gte(MAX_USD_VALUE) ? null : value.toFixed(2);
}

/** A price as stored in usd_price numeric(30,10), or null when it does not fit. */
export function storedUsdPrice(price: TokenPrice | null): string | null {
  if (price === null) return null;
  const p = new Decimal(price.usd);
  return p.gte(MAX_USD_PRICE) ? null : p.toDecimalPlaces(10, Decimal.ROUND_HALF_UP).toFixed(10);
}

/** Prices at block time. */
export interface WhalesPricer {
  /** Prices at `at` of the tokens (null = ETH), by tokenKey; null: no price at that time. */
  prices(tokens: readonly (string | null)[], at: Date): Promise<Map<string, TokenPrice | null>>;
}

export interface WhalesPricerOptions {
  db: Db;
  /** DefiLlama's coins API (live client or the replay twin); null: ERC-20 tokens stay unpriced. */
  coins: CoinsPriceSource | null;
  /** Cache of prices per token and minute; none: every call asks the bars and the API. */
  redis?: Redis;
  /** Key prefix (the queue prefix). */
  prefix?: string;
  logger?: Logger;
  ethSymbol?: string;
}

/** A found price is kept a day (a minute's price does not change); a miss 5 minutes (a bar or a DefiLlama point may come later). */
const HIT_TTL_SECONDS = 24 * 3600;
const MISS_TTL_SECONDS = 5 * 60;
const MISS = 'none';

export const whalesPriceCacheKey = (prefix: string, key: string, at: Date) => `${prefix}:whales:price:${key}:${Math.floor(at.getTime() / 60_000)}`;

/**
 * The pricer of the scanner and `import whales`: ETH from the stored bars, tokens from DefiLlama
 * (one request per block for its tokens), both cached in Redis per token and minute. A DefiLlama
 * outage does not stop the scanner: the block's tokens are recorded unpriced ('unknown', not
 * cached), the failure is in source_health and the log; ETH, valued from local bars, is unaffected.
 */
export function createWhalesPricer(opts: WhalesPricerOptions): WhalesPricer {
  const prefix = opts.prefix ?? 'tb';
  return {
    async prices(tokens, at) {
      const keys = [...new Set(tokens.map(tokenKey))];
      const out = new Map<string, TokenPrice | null>();
      if (!keys.length) return out;

      const cacheKeys = keys.map((k) => whalesPriceCacheKey(prefix, k, at));
      const cached = opts.redis ? await opts.redis.mget(...cacheKeys) : keys.map(() => null);
      const missing: string[] = [];
      keys.forEach((key, i) => {
        const hit = cached[i];
        if (hit === null || hit === undefined) missing.push(key);
        else out.set(key, hit === MISS ? null : (JSON.parse(hit) as TokenPrice));
      });

      const found = new Map<string, TokenPrice | null>();
      if (missing.includes('eth')) found.set('eth', await ethPriceAt(opts.db, at, opts.ethSymbol));
      const erc20 = missing.filter((k) => k !== 'eth');
      let coinsFailed = false;
      if (erc20.length && opts.coins) {
        const source: WhalePriceSource = opts.coins.kind === 'replay' ? 'simulated' : 'defillama';
        try {
          const answer = await opts.coins.historical(Math.floor(at.getTime() / 1000), erc20.map((k) => coinId(k)));
          for (const key of erc20) {
            const p = answer.get(coinId(key));
            found.set(key, p ? { usd: new Decimal(p.price).toFixed(), source, confidence: p.confidence === null ? null : new Decimal(p.confidence).toFixed(4) } : null);
          }
        } catch (error) {
          coinsFailed = true;
          opts.logger?.warn({ err: error, tokens: erc20.length }, 'whales: DefiLlama prices unavailable, tokens recorded unpriced');
        }
      }
      for (const key of missing) if (!found.has(key)) found.set(key, null);

      if (opts.redis) {
        const multi = opts.redis.multi();
        for (const [key, price] of found) {
          // A failed request says nothing about the price: not cached. No coins source: nothing to cache either.
          if (key !== 'eth' && (coinsFailed || !opts.coins)) continue;
          multi.set(whalesPriceCacheKey(prefix, key, at), price ? JSON.stringify(price) : MISS, 'EX', price ? HIT_TTL_SECONDS : MISS_TTL_SECONDS);
        }
        await multi.exec();
      }
      for (const [key, price] of found) out.set(key, price);
      return out;
    },
  };
}
