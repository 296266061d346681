import { Router } from 'express';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import type { JobQueues } from '@tickerbell/jobs';
import { readSystemStatus } from '@tickerbell/jobs/status';

/**
 * GET /api/status: public system status for the /status page: each queue's backlog and live
 * workers, each data source's freshness (jobs/src/status). Error texts stay in the admin view:
 * they can name internal hosts.
 */
export function statusRoutes(deps: { dataSource: DataSource; redis: Redis; queues: JobQueues }): Router {
  const router = Router();
  router.get('/status', async (_req, res) => {
    res.json(await readSystemStatus(deps, new Date()));
  });
  return router;
}
