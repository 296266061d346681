import type Redis from 'ioredis';
import { z } from 'zod';

/**
 * Which symbols a user watches decides which price updates their live stream carries. Whoever
 * changes a user's watchlists (the api) publishes the user's id on `<prefix>:watchlists:changed`
 * after the commit; each api instance reloads that user's watched symbols (loadWatchedSymbols) for
 * their open streams.
 */
export function watchlistChangesChannel(prefix: string): string {
  return `${prefix}:watchlists:changed`;
}

export const watchlistChangeSchema = z.object({ userId: z.number().int().positive() });

export async function publishWatchlistChange(redis: Redis, prefix: string, userId: number): Promise<void> {
  await redis.publish(watchlistChangesChannel(prefix), JSON.stringify({ userId }));
}
