import { Router } from 'express';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { systemClock, type Clock, type JobQueues, type Logger } from '@tickerbell/jobs';
import {
  AlertError,
  alertIdParamSchema,
  alertListQuerySchema,
  alertLogsQuerySchema,
  checkAlerts,
  createAlert,
  createAlertBodySchema,
  deleteAlert,
  getAlert,
  listAlertLogs,
  listAlerts,
  patchAlertBodySchema,
  updateAlert,
  type AlertErrorCode,
  type AlertsServiceDeps,
} from '@tickerbell/jobs/alerts';
import type { Entitlements } from '@tickerbell/jobs/billing';
import { requireUser, sessionUser } from '../accounts/require-user';
import { HttpError } from '../http/errors';

export interface AlertsRouteDeps {
  config: { NODE_ENV: 'development' | 'production' | 'test' };
  dataSource: DataSource;
  /** Publishes alert changes to the workers' indexes. */
  redis: Redis;
  queues: JobQueues;
  logger: Logger;
  clock?: Clock;
  /** Active alerts and webhooks of the user's plan (the app's one Entitlements). */
  entitlements: Entitlements;
}

const STATUS: Record<AlertErrorCode, number> = { not_found: 404, validation_failed: 400 };

/** Domain refusals as HTTP errors (the entitlements' go through http/entitlement-error.ts); anything else goes on to the 500 handler. */
async function http<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AlertError) throw new HttpError(STATUS[error.code], error.code, error.message, error.details);
    throw error;
  }
}

/**
 * The signed-in user's alerts: CRUD, firing history, and the spec's polling endpoint
 * (jobs/src/alerts/alerts.service.ts does the work, scoped to the session user).
 */
export function alertsRoutes(deps: AlertsRouteDeps): Router {
  const service: AlertsServiceDeps = {
    dataSource: deps.dataSource,
    redis: deps.redis,
    queues: deps.queues,
    logger: deps.logger,
    clock: deps.clock ?? systemClock,
    entitlements: deps.entitlements,
    production: deps.config.NODE_ENV === 'production',
  };
  const router = Router();

  router.get('/alerts', requireUser, async (req, res) => {
    const query = alertListQuerySchema.parse(req.query);
    res.set('Cache-Control', 'no-store').json(await listAlerts(service, sessionUser(req).id, query));
  });

  router.post('/alerts', requireUser, async (req, res) => {
    const body = createAlertBodySchema.parse(req.body);
    const alert = await http(() => createAlert(service, sessionUser(req).id, body));
    res.status(201).json({ alert });
  });

  router.get('/alerts/:id', requireUser, async (req, res) => {
    const { id } = alertIdParamSchema.parse(req.params);
    const alert = await http(() => getAlert(service, sessionUser(req).id, id));
    res.set('Cache-Control', 'no-store').json({ alert });
  });

  router.patch('/alerts/:id', requireUser, async (req, res) => {
    const { id } = alertIdParamSchema.parse(req.params);
    const body = patchAlertBodySchema.parse(req.body);
    const alert = await http(() => updateAlert(service, sessionUser(req).id, id, body));
    res.json({ alert });
  });

  router.delete('/alerts/:id', requireUser, async (req, res) => {
    const { id } = alertIdParamSchema.parse(req.params);
    await http(() => deleteAlert(service, sessionUser(req).id, id));
    res.status(204).end();
  });

  router.get('/alerts/:id/logs', requireUser, async (req, res) => {
    const { id } = alertIdParamSchema.parse(req.params);
    const query = alertLogsQuerySchema.parse(req.query);
    const page = await http(() => listAlertLogs(service, sessionUser(req).id, id, query));
    res.set('Cache-Control', 'no-store').json(page);
  });

  /**
   * The spec's polling endpoint (every 30 s from a visible tab). It answers the SIGNED-IN user's
   * firings that no client has picked up yet and marks them picked up, so two tabs (or two api
   * instances) never both get one. The body's `userId` (the spec client sends one from local
   * storage) is never read: trusting it would hand out anyone's alerts.
   */
  router.post('/alerts/crypto/check', requireUser, async (req, res) => {
    res.set('Cache-Control', 'no-store').json({ triggeredAlerts: await checkAlerts(service, sessionUser(req).id) });
  });

  return router;
}
