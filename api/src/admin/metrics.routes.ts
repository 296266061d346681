import { Router } from 'express';
import type { MetricsRegistry } from '@tickerbell/jobs';
import { requireAdminOrOperator } from './admin-access';

export const METRICS_PATH = '/metrics';

/**
 * GET /metrics: the api's metrics in Prometheus' text format (request latency by route, queue
 * depth, source health, process metrics), for administrators and for operators holding
 * METRICS_TOKEN (else ADMIN_QUEUES_TOKEN) as `Authorization: Bearer <token>`.
 */
export function metricsRoutes(deps: { registry: MetricsRegistry; token?: string }): Router {
  const router = Router();
  router.get(METRICS_PATH, requireAdminOrOperator({ token: deps.token, what: 'the metrics' }), async (_req, res) => {
    const text = await deps.registry.metrics();
    res.set('Content-Type', deps.registry.contentType).set('Cache-Control', 'no-store').send(text);
  });
  return router;
}
