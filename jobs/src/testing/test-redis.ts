import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import type { Queue } from 'bullmq';

/** Redis for tests: set by `npm test`, else the local server. */
export function testRedisUrl(): string {
  return process.env.TB_TEST_REDIS_URL ?? process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
}

/** A BullMQ key prefix of its own for each test, so runs and files never share a queue. */
export function testQueuePrefix(): string {
  return `tb-test-${randomUUID()}`;
}

/** Deletes every key under the prefix (BullMQ keys are `<prefix>:<queue>:...`). */
export async function deleteKeysWithPrefix(url: string, prefix: string): Promise<number> {
  const redis = new Redis(url);
  let deleted = 0;
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/** Resolves when no queue has waiting, active, delayed-now or prioritized jobs (or throws on timeout). */
export async function waitForQueuesIdle(queues: Queue[], timeoutMs = 15000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const counts = await Promise.all(queues.map((q) => q.getJobCounts('waiting', 'active', 'prioritized', 'waiting-children')));
    if (counts.every((c) => Object.values(c).every((n) => n === 0))) return;
    if (Date.now() > deadline) throw new Error(`queues still busy after ${timeoutMs} ms: ${JSON.stringify(counts)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
