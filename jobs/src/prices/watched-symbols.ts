import type Redis from 'ioredis';
import type { DataSource, EntityManager } from 'typeorm';
import { z } from 'zod';

/**
 * Which symbols a user watches decides which price updates their live stream carries. Whoever
 * changes a user's watchlists (the api) publishes the user's id on `<prefix>:watchlists:changed`
 * after the commit; each api instance reloads that user's watched symbols for their open streams.
 */
export function watchlistChangesChannel(prefix: string): string {
  return `${prefix}:watchlists:changed`;
}

export const watchlistChangeSchema = z.object({ userId: z.number().int().positive() });

export async function publishWatchlistChange(redis: Redis, prefix: string, userId: number): Promise<void> {
  await redis.publish(watchlistChangesChannel(prefix), JSON.stringify({ userId }));
}

/** The symbols on any of the user's watchlists (what their live stream carries prices of). */
export async function loadWatchedSymbols(db: DataSource | EntityManager, userId: number): Promise<string[]> {
  const rows: { symbol: string }[] = await db.query(
    `SELECT DISTINCT m.symbol FROM watchlists w
       JOIN watchlist_items i ON i.watchlist_id = w.id
       JOIN markets m ON m.id = i.market_id
      WHERE w.user_id = $1`,
    [userId],
  );
  return rows.map((r) => r.symbol);
}
