import { Router } from 'express';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { SourceHealth } from '@tickerbell/entities';
import { QUEUE_NAMES, heartbeatPattern, type JobQueues, type WorkerHeartbeat } from '@tickerbell/jobs';

export interface QueueStatus {
  name: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  /** Live worker processes serving this queue (from their heartbeats). */
  workers: number;
}

export interface SourceStatus {
  source: string;
  healthy: boolean;
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  /** Newest data the source delivered: its freshness. */
  lastDataAt: string | null;
  consecutiveFailures: number;
}

async function liveHeartbeats(redis: Redis, prefix: string): Promise<WorkerHeartbeat[]> {
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
 * GET /api/status: public system status for the /status page: each queue's backlog and live
 * workers, each data source's freshness. Error texts stay in the admin view: they can name
 * internal hosts.
 */
export function statusRoutes(deps: { dataSource: DataSource; redis: Redis; queues: JobQueues }): Router {
  const router = Router();
  router.get('/status', async (_req, res) => {
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
    const rows = await deps.dataSource.getRepository(SourceHealth).find({ order: { source: 'ASC' } });
    const sources: SourceStatus[] = rows.map((row) => ({
      source: row.source,
      healthy: row.consecutiveFailures === 0,
      lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
      lastErrorAt: row.lastErrorAt?.toISOString() ?? null,
      lastDataAt: row.lastDataAt?.toISOString() ?? null,
      consecutiveFailures: row.consecutiveFailures,
    }));
    const degraded = queues.some((q) => q.workers === 0) || sources.some((s) => !s.healthy);
    res.json({ status: degraded ? 'degraded' : 'operational', checkedAt: new Date().toISOString(), queues, sources });
  });
  return router;
}
