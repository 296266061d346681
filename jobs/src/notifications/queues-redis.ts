import type Redis from 'ioredis';
import type { QueueName } from '../queues';
import type { JobQueues } from '../runtime/job-queues';

/**
 * The ioredis connection behind a queue producer, for the few plain Redis commands processors
 * need (claims, pub/sub publish). BullMQ wraps the ioredis instance it was given in a proxy that
 * forwards every ioredis method (Queue.backend.client), so this is the process's own connection, not a new one.
 */
export async function queuesRedis(queues: JobQueues, queue: QueueName): Promise<Redis> {
  return (await queues.queue(queue).backend.client) as unknown as Redis;
}
