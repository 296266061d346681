import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { QUEUE_NAMES } from '../queues';
import { heartbeatPattern, type WorkerHeartbeat } from '../runtime/heartbeat';
import type { JobQueues } from '../runtime/job-queues';
import { listSourceHealth } from '../sources/source-health';
import type { QueueStatus, SourceStatus, SystemStatus } from './status.shapes';

/** The readiness check of the database: resolves when it answers a query. */
export async function pingDatabase(dataSource: DataSource): Promise<void> {
  await dataSource.query('SELECT 1');
}

/** The heartbeats of the worker processes alive now (their keys expire when a process stops beating). */
export async function liveHeartbeats(redis: Redis, prefix: string): Promise<WorkerHeartbeat[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', heartbeatPattern(prefix), 'COUNT', 100);
    cursor = next;
    keys.push(...batch);
  } while (cursor !== '0');
  if (!keys.length) return [];
  const values = await redis.mget(...keys);
  return values.flatMap((v) => (v ? [JSON.parse(v) as WorkerHeartbeat] : []));
}

/**
 * The public system status: each queue's backlog and live workers, each data source's freshness.
 * Error texts stay in the admin view: they can name internal hosts. Degraded while a queue has no
 * worker or a source is failing.
 */
export async function readSystemStatus(deps: { dataSource: DataSource; redis: Redis; queues: JobQueues }, now: Date): Promise<SystemStatus> {
  const heartbeats = (await liveHeartbeats(deps.redis, deps.queues.prefix)).filter((h) => h.running);
  const queues: QueueStatus[] = await Promise.all(
    QUEUE_NAMES.map(async (name) => {
      const counts = await deps.queues.queue(name).getJobCounts('waiting', 'active', 'delayed', 'failed');
      return {
        name,
        waiting: counts.waiting ?? 0,
        active: counts.active ?? 0,
        delayed: counts.delayed ?? 0,
        failed: counts.failed ?? 0,
        workers: heartbeats.filter((h) => h.queues.includes(name)).length,
      };
    }),
  );
  const sources: SourceStatus[] = (await listSourceHealth(deps.dataSource)).map((row) => ({
    source: row.source,
    healthy: row.consecutiveFailures === 0,
    lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
    lastErrorAt: row.lastErrorAt?.toISOString() ?? null,
    lastDataAt: row.lastDataAt?.toISOString() ?? null,
    consecutiveFailures: row.consecutiveFailures,
  }));
  const degraded = queues.some((q) => q.workers === 0) || sources.some((s) => !s.healthy);
  return { status: degraded ? 'degraded' : 'operational', checkedAt: now.toISOString(), queues, sources };
}
