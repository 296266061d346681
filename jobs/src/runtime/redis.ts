import Redis, { type RedisOptions } from 'ioredis';

/**
 * Connections for BullMQ. Workers block on Redis and must wait out outages
 * (maxRetriesPerRequest: null); producers (the api) must fail fast instead of hanging a request.
 */
export function createWorkerConnection(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, { maxRetriesPerRequest: null, ...options });
}

export function createProducerConnection(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    connectTimeout: 5000,
    ...options,
  });
}
