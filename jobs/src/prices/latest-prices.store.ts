import type Redis from 'ioredis';
import { z } from 'zod';
import type { Quote } from './price-source';
import type { LatestPrice } from './prices.shapes';

/**
 * The latest prices in Redis (architecture: "short-lived caches (latest prices)"). Keys, all
 * under the deployment's QUEUE_PREFIX:
 * - `<prefix>:prices:latest`            hash symbol -> JSON LatestPrice
 * - `<prefix>:prices:history:<symbol>`  sorted set, score = ms, member = `<ms>:<price>`, the last 24 h
 * - `<prefix>:prices` (pub/sub channel)  one JSON LatestPrice per price update, relayed by the
 *   api to the live streams of users who watch the symbol.
 */
export const PRICE_HISTORY_MS = 24 * 3600_000;

export type { LatestPrice } from './prices.shapes';

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
 * them. A quote not newer than the stored one is ignored (a late or repeated poll never moves the
 * price backwards), so calling this twice with the same quotes is harmless. Returns the updates
 * that were applied, each with the price it replaced.
 */
export async function storeQuotes(redis: Redis, prefix: string, quotes: readonly Quote[]): Promise<StoredPriceUpdate[]> {
  const updates = await planQuoteUpdates(redis, prefix, quotes);
  await writeQuoteUpdates(redis, prefix, updates);
  return updates;
}

/** The updates `quotes` would make: the quotes newer than the stored price, each with the price it replaces. Writes nothing. */
export async function planQuoteUpdates(redis: Redis, prefix: string, quotes: readonly Quote[]): Promise<StoredPriceUpdate[]> {
  if (!quotes.length) return [];
  const stored = await redis.hmget(latestPricesKey(prefix), ...quotes.map((q) => q.symbol));
  const updates: StoredPriceUpdate[] = [];
  quotes.forEach((quote, i) => {
    const before = parseLatest(stored[i]);
    if (before && Date.parse(before.at) >= quote.at.getTime()) return;
    updates.push({ latest: toLatestPrice(quote), previous: before?.price ?? null });
  });
  return updates;
}

/**
 * Writes planned updates (latest, history, publish) in one MULTI, so a crash leaves all or none of
 * them. `alongside`: fields written into a hash in the same transaction (the poll's record of the
 * evaluations it has yet to queue), so the prices are never stored without it.
 */
export async function writeQuoteUpdates(
  redis: Redis,
  prefix: string,
  updates: readonly StoredPriceUpdate[],
  alongside?: { key: string; fields: Record<string, string> },
): Promise<void> {
  if (!updates.length) return;
  const key = latestPricesKey(prefix);
  const multi = redis.multi();
  if (alongside && Object.keys(alongside.fields).length) multi.hset(alongside.key, alongside.fields);
  for (const { latest } of updates) {
    const ms = Date.parse(latest.at);
    const historyKey = priceHistoryKey(prefix, latest.symbol);
    multi.hset(key, latest.symbol, JSON.stringify(latest));
    multi.zadd(historyKey, ms, priceHistoryMember(ms, latest.price));
    multi.zremrangebyscore(historyKey, '-inf', ms - PRICE_HISTORY_MS);
    multi.pexpire(historyKey, PRICE_HISTORY_MS);
    multi.publish(priceUpdatesChannel(prefix), JSON.stringify(latest));
  }
  const results = await multi.exec();
  const failed = results?.find(([error]) => error);
  if (failed?.[0]) throw failed[0];
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

/** Every stored latest price, by symbol (an unreadable entry is left out: the next poll overwrites it). */
export async function allLatestPrices(redis: Redis, prefix: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [symbol, json] of Object.entries(await redis.hgetall(latestPricesKey(prefix)))) {
    try {
      const price = (JSON.parse(json) as { price?: unknown }).price;
      if (typeof price === 'string') out[symbol] = price;
    } catch {
      // Left out.
    }
  }
  return out;
}

/**
 * Several symbols' history members (`<ms>:<price>`, oldest first) from a lower bound on, in one
 * round trip. `from` is in ZRANGEBYSCORE syntax (`(<ms>` excludes the score). One answer per
 * request, in order: the members, or the error of that read.
 */
export async function readPriceHistoryMembers(
  redis: Redis,
  prefix: string,
  requests: readonly { symbol: string; from: string }[],
): Promise<{ error: Error | null; members: string[] }[]> {
  if (!requests.length) return [];
  const pipeline = redis.pipeline();
  for (const { symbol, from } of requests) pipeline.zrangebyscore(priceHistoryKey(prefix, symbol), from, '+inf');
  const results = (await pipeline.exec()) ?? [];
  return requests.map((_, i) => {
    const [error, members] = results[i] ?? [new Error('no reply'), null];
    return { error: error ?? null, members: (members as string[] | null) ?? [] };
  });
}
