import type Redis from 'ioredis';
import { z } from 'zod';
import type { Quote } from './price-source';

/**
 * The latest prices in Redis (architecture: "short-lived caches (latest prices)"). Keys, all
 * under the deployment's QUEUE_PREFIX:
 * - `<prefix>:prices:latest`            hash symbol -> JSON LatestPrice
 * - `<prefix>:prices:history:<symbol>`  sorted set, score = ms, member = `<ms>:<price>`, the last 24 h
 * - `<prefix>:prices` (pub/sub channel)  one JSON LatestPrice per price update, relayed by the
 *   api to the live streams of users who watch the symbol.
 */
export const PRICE_HISTORY_MS = 24 * 3600_000;

export interface LatestPrice {
  symbol: string;
  /** Decimal string. */
  price: string;
  /** ISO instant the price was current. */
  at: string;
  change24hPercent: string | null;
  source: string;
  simulated: boolean;
}

export const latestPriceSchema = z.object({
  symbol: z.string(),
  price: z.string(),
  at: z.string(),
  change24hPercent: z.string().nullable(),
  source: z.string(),
  simulated: z.boolean(),
});

export function latestPricesKey(prefix: string): string {
  return `${prefix}:prices:latest`;
}

export function priceHistoryKey(prefix: string, symbol: string): string {
  return `${prefix}:prices:history:${symbol}`;
}

/** One history entry: `<ms>:<price>` (the score repeated in the member keeps equal prices at different times distinct). */
export function priceHistoryMember(ms: number, price: string): string {
  return `${ms}:${price}`;
}

/** A history member read back. */
export function parsePriceHistoryMember(member: string): { ms: number; price: string } {
  const colon = member.indexOf(':');
  return { ms: Number(member.slice(0, colon)), price: member.slice(colon + 1) };
}

export function priceUpdatesChannel(prefix: string): string {
  return `${prefix}:prices`;
}

export function toLatestPrice(quote: Quote): LatestPrice {
  return {
    symbol: quote.symbol,
    price: quote.price,
    at: quote.at.toISOString(),
    change24hPercent: quote.change24hPercent,
    source: quote.source,
    simulated: quote.simulated,
  };
}

/** A stored price update: the new price and the one it replaced (null when none was stored). */
export interface StoredPriceUpdate {
  latest: LatestPrice;
  previous: string | null;
}

/**
 * Stores quotes as the latest prices, appends them to each symbol's 24 h history and publishes
 * them, in one round trip. A quote not newer than the stored one is ignored (a late or repeated
 * poll never moves the price backwards), so calling this twice with the same quotes is harmless.
 * Returns the updates that were applied, each with the price it replaced.
 */
export async function storeQuotes(redis: Redis, prefix: string, quotes: readonly Quote[]): Promise<StoredPriceUpdate[]> {
  if (!quotes.length) return [];
  const key = latestPricesKey(prefix);
  const stored = await redis.hmget(key, ...quotes.map((q) => q.symbol));
  const updates: StoredPriceUpdate[] = [];
  const pipeline = redis.pipeline();
  quotes.forEach((quote, i) => {
    const before = parseLatest(stored[i]);
    if (before && Date.parse(before.at) >= quote.at.getTime()) return;
    const latest = toLatestPrice(quote);
    const ms = quote.at.getTime();
    const historyKey = priceHistoryKey(prefix, quote.symbol);
    pipeline.hset(key, quote.symbol, JSON.stringify(latest));
    pipeline.zadd(historyKey, ms, priceHistoryMember(ms, quote.price));
    pipeline.zremrangebyscore(historyKey, '-inf', ms - PRICE_HISTORY_MS);
    pipeline.pexpire(historyKey, PRICE_HISTORY_MS);
    pipeline.publish(priceUpdatesChannel(prefix), JSON.stringify(latest));
    updates.push({ latest, previous: before?.price ?? null });
  });
  if (updates.length) {
    const results = await pipeline.exec();
    const failed = results?.find(([error]) => error);
    if (failed?.[0]) throw failed[0];
  }
  return updates;
}

/** The latest stored prices of the symbols (missing ones are left out). */
export async function latestPrices(redis: Redis, prefix: string, symbols: readonly string[]): Promise<Map<string, LatestPrice>> {
  const out = new Map<string, LatestPrice>();
  if (!symbols.length) return out;
  const stored = await redis.hmget(latestPricesKey(prefix), ...symbols);
  stored.forEach((value) => {
    const latest = parseLatest(value);
    if (latest) out.set(latest.symbol, latest);
  });
  return out;
}

/** The symbol's stored prices at or after `sinceMs`, oldest first. */
export async function priceHistory(redis: Redis, prefix: string, symbol: string, sinceMs: number): Promise<{ at: Date; price: string }[]> {
  const members = await redis.zrangebyscore(priceHistoryKey(prefix, symbol), sinceMs, '+inf');
  return members.map((member) => {
    const { ms, price } = parsePriceHistoryMember(member);
    return { at: new Date(ms), price };
  });
}

function parseLatest(value: string | null): LatestPrice | null {
  if (!value) return null;
  const parsed = latestPriceSchema.safeParse(JSON.parse(value));
  return parsed.success ? parsed.data : null;
}
