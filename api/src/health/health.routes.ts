import { Router } from 'express';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { pingDatabase } from '@tickerbell/jobs/status';

export interface Check {
  ok: boolean;
  latencyMs: number;
  error?: string;
}

const CHECK_TIMEOUT_MS = 2000;

class CheckTimeout extends Error {}

async function timed(run: () => Promise<unknown>): Promise<Check> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      run(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new CheckTimeout()), CHECK_TIMEOUT_MS);
      }),
    ]);
    return { ok: true, latencyMs: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      ok: false,
      latencyMs: Math.round(performance.now() - started),
      // Never the driver's message: it can name hosts, ports and users.
      error: error instanceof CheckTimeout ? `no answer within ${CHECK_TIMEOUT_MS} ms` : 'unavailable',
    };
  } finally {
    clearTimeout(timer);
  }
}

/** /api/health: the process is alive. /api/ready: it can do its work (database and Redis answer). */
export function healthRoutes(deps: { dataSource: DataSource; redis: Redis }): Router {
  const router = Router();
  const startedAt = Date.now();

  router.get('/health', (_req, res) => {
    res.json({ status: 'ok', uptimeSeconds: Math.round((Date.now() - startedAt) / 1000) });
  });

  router.get('/ready', async (_req, res) => {
    const [database, redis] = await Promise.all([
      timed(() => pingDatabase(deps.dataSource)),
      timed(() => deps.redis.ping()),
    ]);
    const ready = database.ok && redis.ok;
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks: { database, redis } });
  });

  return router;
}
