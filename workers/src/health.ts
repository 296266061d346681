import http from 'node:http';
import cron from 'node-cron';
import type Redis from 'ioredis';
import { HEARTBEAT_TTL_SECONDS, createMetricsRegistry, heartbeatKey, type MetricsRegistry, type WorkerHeartbeat } from '@tickerbell/jobs';
import type { WorkersRuntime } from './runtime';

function snapshot(runtime: WorkersRuntime, startedAt: Date): WorkerHeartbeat {
  return {
    id: runtime.id,
    queues: runtime.workers.map((w) => w.name),
    startedAt: startedAt.toISOString(),
    at: new Date().toISOString(),
    running: runtime.workers.every((w) => w.isRunning()),
  };
}

/**
 * Each worker process says it is alive in Redis every 10 s (a key with a 30 s TTL), so the api's
 * status page sees every live process. A per-process timer: node-cron's job, not a queue's.
 */
export function startHeartbeat(redis: Redis, prefix: string, runtime: WorkersRuntime): { stop(): Promise<void> } {
  const startedAt = new Date();
  const key = heartbeatKey(prefix, runtime.id);
  const beat = () =>
    redis.set(key, JSON.stringify(snapshot(runtime, startedAt)), 'EX', HEARTBEAT_TTL_SECONDS).catch(() => undefined);
  void beat();
  const task = cron.schedule('*/10 * * * * *', beat, { noOverlap: true });
  return {
    async stop() {
      await task.stop();
      await redis.del(key).catch(() => undefined);
    },
  };
}

/**
 * Optional HTTP endpoint for orchestrators and Prometheus, on an internal port (no auth):
 * `GET /health` answers 200 while every worker runs, else 503; `GET /metrics` this process's
 * metrics (job durations and outcomes, deliveries, process metrics) in Prometheus' text format.
 */
export function startHealthServer(port: number, runtime: WorkersRuntime, metrics: MetricsRegistry = createMetricsRegistry()): http.Server {
  const startedAt = new Date();
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://worker').pathname;
    if (path === '/metrics' && (req.method === 'GET' || req.method === 'HEAD')) {
      metrics.metrics().then(
        (text) => res.writeHead(200, { 'content-type': metrics.contentType }).end(req.method === 'HEAD' ? undefined : text),
        () => res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"code":"internal","message":"Metrics unavailable"}}'),
      );
      return;
    }
    if (path !== '/health') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"code":"not_found","message":"Not found"}}');
      return;
    }
    const body = snapshot(runtime, startedAt);
    res.writeHead(body.running ? 200 : 503, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  server.listen(port, '0.0.0.0');
  return server;
}
