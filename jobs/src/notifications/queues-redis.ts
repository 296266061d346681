import Redis from 'ioredis';
import type { QueueName } from '../queues';
import type { JobQueues } from '../runtime/job-queues';

/**
 * The ioredis connection behind a queue producer, for the few plain Redis commands processors
 * need (claims, pub/sub publish, the price store). The ioredis instance the queues were given is
 * returned as it is: BullMQ's own client (Queue.backend.client) is a proxy that reinterprets some
 * commands in its structured form (its pipeline's hset(key, field, value) writes the field's
 * characters and drops the value). Queues built from connection options fall back to that proxy.
 */
export async function queuesRedis(queues: JobQueues, queue: QueueName): Promise<Redis> {
  const bullQueue = queues.queue(queue);
  const given: unknown = bullQueue.opts.connection;
  if (given instanceof Redis) return given;
  return (await bullQueue.backend.client) as unknown as Redis;
}
