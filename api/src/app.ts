import fs from 'node:fs';
import path from 'node:path';
import express, { type Express } from 'express';
import helmet from 'helmet';
import type Redis from 'ioredis';
import { pinoHttp } from 'pino-http';
import type { DataSource } from 'typeorm';
import { createMetricsRegistry, type Clock, type JobQueues, type Logger } from '@tickerbell/jobs';
import { entitlementsFromConfig, type Entitlements } from '@tickerbell/jobs/billing';
import { createAccounts } from './accounts/accounts';
import { cotRoutes } from './cot/cot.routes';
import { contactRoutes } from './contact/contact.routes';
import { cotFollowsRoutes } from './cot/cot-follows.routes';
import { METRICS_PATH, metricsRoutes } from './admin/metrics.routes';
import { adminQueuesRoutes } from './admin/queues.routes';
import { alertsRoutes } from './alerts/alerts.routes';
import type { ApiConfig } from './config';
import { healthRoutes } from './health/health.routes';
import { insidersRoutes } from './insiders/insiders.routes';
import { lockupsRoutes } from './lockups/lockups.routes';
import { chatRoutes } from './chat/chat.routes';
import { openapiRoutes } from './http/openapi.routes';
import { API_ROUTES } from './route-table';
import apiPackage from '../package.json';
import { errorHandler, notFoundHandler } from './http/errors';
import { entitlementErrors } from './http/entitlement-error';
import { httpMetrics } from './http/metrics';
import { rejectMalformedInput } from './http/input';
import { marketHoursRoutes } from './market-hours/market-hours.routes';
import { predictionsRoutes } from './predictions/predictions.routes';
import { pricesRoutes } from './prices/prices.routes';
import { newsRoutes } from './news/news.routes';
import { notificationsRoutes } from './notifications/notifications.routes';
import { requestId } from './http/request-id';
import { statusRoutes } from './status/status.routes';
import { watchlistsRoutes } from './watchlists/watchlists.routes';
import { whalesRoutes } from './whales/whales.routes';
import { yieldsRoutes } from './yields/yields.routes';
import { chartLayoutsRoutes } from './chart-layouts/chart-layouts.routes';
import { billingDepsOf, billingRoutes, billingWebhookRoutes } from './billing/billing.routes';

export interface AppDeps {
  config: ApiConfig;
  dataSource: DataSource;
  /** A fail-fast connection (createProducerConnection). */
  redis: Redis;
  queues: JobQueues;
  logger: Logger;
  /** "Now" for token expiries and the like (default: the system clock). */
  clock?: Clock;
  /** What each user's plan allows (issue 19): built once at start (main.ts); default: from the configuration. */
  entitlements?: Entitlements;
}

/** The Express app, without listening: tests drive it with supertest, main.ts serves it. */
export function createApp(appDeps: AppDeps): Express {
  // ONE Entitlements for every route of the app (limit checks, billing screens).
  const deps = { ...appDeps, entitlements: appDeps.entitlements ?? entitlementsFromConfig(appDeps.config) };
  const { config, logger } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  // Queue depth and source health are read when scraped; request latency is counted from here on.
  const metrics = createMetricsRegistry({ queues: deps.queues, dataSource: deps.dataSource, logger });
  app.use(httpMetrics(API_ROUTES, metrics));
  app.use(requestId);
  app.use(
    pinoHttp({
      logger,
      genReqId: (_req, res) => String(res.getHeader('x-request-id')),
      autoLogging: { ignore: (req) => req.url === '/api/health' || req.url === METRICS_PATH },
      // One short line per request: no headers (cookies, tokens) in the logs.
      serializers: {
        req: (req: { id: unknown; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
    }),
  );

  const accounts = createAccounts(deps);
  app.use(accounts.session);

  // bull-board's UI needs its own scripts: mounted before the strict content security policy.
  app.use(
    helmet({ contentSecurityPolicy: false }),
    adminQueuesRoutes({ queues: deps.queues, token: config.ADMIN_QUEUES_TOKEN, publicUrl: config.PUBLIC_URL, bodyLimit: config.BODY_LIMIT }),
  );
  app.use(helmet());
  // Billing: one Stripe client and entitlements for the app; Stripe's webhook reads its raw body (signature), so before express.json.
  const billing = billingDepsOf(deps);
  app.use('/api', billingWebhookRoutes(deps, billing));
  app.use(express.json({ limit: config.BODY_LIMIT }));
  app.use(express.urlencoded({ extended: false, limit: config.BODY_LIMIT }));
  // Input no route can use (bad escapes, NUL) is a 400 naming where it is, before any route runs.
  app.use(rejectMalformedInput);
  app.use(accounts.csrf);

  app.use(metricsRoutes({ registry: metrics, token: config.METRICS_TOKEN ?? config.ADMIN_QUEUES_TOKEN }));

  app.use('/api', healthRoutes(deps));
  app.use('/api', openapiRoutes(API_ROUTES, { title: 'Tickerbell API', version: apiPackage.version }));
  app.use('/api', statusRoutes(deps));
  app.use('/api', accounts.routes);
  app.use('/api', marketHoursRoutes(deps));
  app.use('/api', notificationsRoutes(deps));
  app.use('/api', cotRoutes(deps));
  app.use('/api', cotFollowsRoutes(deps));
  app.use('/api', pricesRoutes(deps));
  app.use('/api', newsRoutes(deps));
  app.use('/api', insidersRoutes(deps));
  app.use('/api', whalesRoutes(deps));
  app.use('/api', yieldsRoutes(deps));
  app.use('/api', predictionsRoutes(deps));
  app.use('/api', lockupsRoutes(deps));
  app.use('/api', chatRoutes(deps));
  app.use('/api', contactRoutes(deps));
  app.use('/api', alertsRoutes(deps));
  app.use('/api', watchlistsRoutes(deps));
  app.use('/api', chartLayoutsRoutes(deps));
  app.use('/api', billingRoutes(deps, billing));
  app.use('/api', notFoundHandler);

  if (config.WEB_DIST_DIR) serveWeb(app, path.resolve(config.WEB_DIST_DIR));
  app.use(notFoundHandler);
  app.use(entitlementErrors);
  app.use(errorHandler(logger));
  return app;
}

/** The built single-page client: static files, and index.html for every other GET. */
function serveWeb(app: Express, dir: string): void {
  const index = path.join(dir, 'index.html');
  if (!fs.existsSync(index)) return;
  app.use(express.static(dir, { index: false, maxAge: '1h' }));
  app.get(/^(?!\/api\/|\/admin\/).*/, (_req, res) => res.sendFile(index));
}
