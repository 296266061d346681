import http from 'node:http';
import pino from 'pino';
import request from 'supertest';
import { testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { METRICS_PATH } from '../../src/admin/metrics.routes';
import { createApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';
import { routeKey } from '../../src/http/route-table';
import { API_ROUTES } from '../../src/route-table';
import { AlertsHarness } from '../support/alerts-support';
import { cuttableDatabase } from '../support/cuttable-database';
import { quickUser, type SignedIn } from '../support/route-requests';
import { mountedKey, mountedRoutes } from '../support/route-walk';
import { sample } from '@tickerbell/jobs/testing/prometheus-text';

const METRICS_TOKEN = 'metrics-token-of-the-operators';
const QUEUES_TOKEN = 'admin-queues-token-of-the-operators';

describe('GET /metrics on the api (real app, PostgreSQL, Redis)', () => {
  const harness = new AlertsHarness({ TRUST_PROXY: '1', METRICS_TOKEN, ADMIN_QUEUES_TOKEN: QUEUES_TOKEN });
  let server: http.Server;
  let user: SignedIn;
  let admin: SignedIn;

  const scrape = async () => {
    const res = await request(server).get(METRICS_PATH).set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
    return res.text;
  };

  beforeAll(async () => {
    await harness.start();
    server = http.createServer(harness.api).listen(0);
    user = await quickUser(harness.db.dataSource, server, 'metrics-user@example.com');
    admin = await quickUser(harness.db.dataSource, server, 'metrics-admin@example.com');
    await harness.db.dataSource.query(`UPDATE users SET role = 'admin' WHERE id = $1`, [admin.id]);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    await harness.stop();
  });

  it('is 401 signed out or with a wrong token, 403 for a user who is not an admin', async () => {
    const anonymous = await request(server).get(METRICS_PATH).expect(401);
    expect(anonymous.body.error).toMatchObject({ code: 'unauthorized', requestId: anonymous.headers['x-request-id'] });
    await request(server).get(METRICS_PATH).set('Authorization', 'Bearer not-the-metrics-token-at-all').expect(401);
    // METRICS_TOKEN is set: the admin queues token is not the metrics token.
    await request(server).get(METRICS_PATH).set('Authorization', `Bearer ${QUEUES_TOKEN}`).expect(401);
    const res = await user.agent.get(METRICS_PATH).expect(403);
    expect(res.body.error.code).toBe('forbidden');
  });

  it('answers Prometheus text with the token and to an admin session', async () => {
    const res = await request(server).get(METRICS_PATH).set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).toMatch(/^# HELP tickerbell_process_cpu_user_seconds_total /m);
    expect(res.text).toMatch(/^# TYPE tickerbell_http_request_duration_seconds histogram$/m);
    const session = await admin.agent.get(METRICS_PATH).expect(200);
    expect(session.text).toContain('# TYPE tickerbell_queue_jobs gauge');
  });

  it('takes ADMIN_QUEUES_TOKEN when METRICS_TOKEN is not set', async () => {
    const app = harness.app({ ADMIN_QUEUES_TOKEN: QUEUES_TOKEN });
    await request(app).get(METRICS_PATH).set('Authorization', `Bearer ${QUEUES_TOKEN}`).expect(200);
    await request(app).get(METRICS_PATH).set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(401);
  });

  it('times requests by the route table template, never the raw URL', async () => {
    await user.agent.get('/api/alerts/123').expect(404);
    await user.agent.get('/api/alerts/456').expect(404);
    await request(server).get('/api/alerts/789').expect(401);
    await request(server).get('/no/such/page/42').expect(404);
    await request(server).get('/api/health').expect(200);

    const text = await scrape();
    const count = (labels: Record<string, string>) => sample(text, 'tickerbell_http_request_duration_seconds_count', labels);
    expect(count({ method: 'GET', route: '/api/alerts/:id', status: '404' })).toBe(2);
    expect(count({ method: 'GET', route: '/api/alerts/:id', status: '401' })).toBe(1);
    expect(count({ method: 'GET', route: '/api/health', status: '200' })).toBe(1);
    expect(count({ method: 'GET', route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'tickerbell_http_request_duration_seconds_bucket', { route: '/api/alerts/:id', status: '404', le: '+Inf' })).toBe(2);
    expect(text).not.toMatch(/route="\/api\/alerts\/\d+"/);
    expect(text).not.toContain('/no/such/page');
    // Scrapes count themselves under their own route.
    expect(count({ method: 'GET', route: METRICS_PATH, status: '401' })).toBeGreaterThanOrEqual(1);
  });

  it('reports the depth of every queue by state, read from BullMQ when scraped', async () => {
    // No worker serves housekeeping in this harness: the jobs stay where they were put.
    await harness.queues.add('housekeeping.purge-expired', {});
    await harness.queues.add('housekeeping.purge-expired', {});
    await harness.queues.add('housekeeping.purge-expired', {}, { delay: 3_600_000 });

    const text = await scrape();
    expect(sample(text, 'tickerbell_queue_jobs', { queue: 'housekeeping', state: 'waiting' })).toBe(2);
    expect(sample(text, 'tickerbell_queue_jobs', { queue: 'housekeeping', state: 'delayed' })).toBe(1);
    expect(sample(text, 'tickerbell_queue_jobs', { queue: 'housekeeping', state: 'failed' })).toBe(0);
    expect(sample(text, 'tickerbell_queue_jobs', { queue: 'cot', state: 'waiting-children' })).toBe(0);
  });

  it('reports each data source as up or down with its last success, from source_health', async () => {
    await harness.db.dataSource.query(
      `INSERT INTO source_health (source, last_success_at, consecutive_failures) VALUES ('binance', '2026-11-21T11:59:30Z', 0);
       INSERT INTO source_health (source, last_success_at, last_error_at, last_error, consecutive_failures)
         VALUES ('cftc', '2026-11-20T22:00:00Z', '2026-11-21T11:50:00Z', 'HTTP 503', 3);
       INSERT INTO source_health (source, last_error_at, last_error, consecutive_failures) VALUES ('alpaca', '2026-11-21T11:50:00Z', 'HTTP 401', 1)`,
    );
    const text = await scrape();
    expect(sample(text, 'tickerbell_source_up', { source: 'binance' })).toBe(1);
    expect(sample(text, 'tickerbell_source_up', { source: 'cftc' })).toBe(0);
    expect(sample(text, 'tickerbell_source_up', { source: 'alpaca' })).toBe(0);
    expect(sample(text, 'tickerbell_source_last_success_seconds', { source: 'binance' })).toBe(Date.parse('2026-11-21T11:59:30Z') / 1000);
    expect(sample(text, 'tickerbell_source_last_success_seconds', { source: 'cftc' })).toBe(Date.parse('2026-11-20T22:00:00Z') / 1000);
    expect(sample(text, 'tickerbell_source_last_success_seconds', { source: 'alpaca' })).toBeUndefined();
  });

  it('with PostgreSQL gone, still answers 200: the source samples are left out and counted as scrape errors', async () => {
    const database = await cuttableDatabase(harness.db.url, 'tickerbell-metrics-outage-test');
    const { dataSource } = database;
    await harness.db.dataSource.query(`INSERT INTO source_health (source, last_success_at, consecutive_failures) VALUES ('coingecko', '2026-11-21T11:59:00Z', 0)`);
    try {
      const config = loadApiConfig({ NODE_ENV: 'test', DATABASE_URL: harness.db.url, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: harness.prefix, METRICS_TOKEN });
      const app = createApp({ config, dataSource, redis: harness.redis, queues: harness.queues, logger: pino({ level: 'silent' }) });
      const before = await request(app).get(METRICS_PATH).set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
      expect(sample(before.text, 'tickerbell_source_up', { source: 'coingecko' })).toBe(1);
      await database.cut();

      const res = await request(app).get(METRICS_PATH).set('Authorization', `Bearer ${METRICS_TOKEN}`).expect(200);
      expect(sample(res.text, 'tickerbell_source_up')).toBeUndefined();
      expect(sample(res.text, 'tickerbell_source_last_success_seconds')).toBeUndefined();
      expect(sample(res.text, 'tickerbell_scrape_errors_total', { collector: 'source_up' })).toBeGreaterThanOrEqual(1);
      expect(sample(res.text, 'tickerbell_scrape_errors_total', { collector: 'source_last_success_seconds' })).toBeGreaterThanOrEqual(1);
      // Redis still answers: the queue depth is there.
      expect(sample(res.text, 'tickerbell_queue_jobs', { queue: 'housekeeping', state: 'waiting' })).toEqual(expect.any(Number));
    } finally {
      await database.close();
    }
  });

  it('is in the route table as the app mounts it (outside /api and /admin), described by the OpenAPI document as text', async () => {
    const route = API_ROUTES.find((r) => routeKey(r) === `GET ${METRICS_PATH}`);
    expect(route).toMatchObject({ auth: 'admin-or-operator', response: 'text', body: 'none' });
    expect(mountedRoutes(harness.api).map(mountedKey)).toContain(`GET ${METRICS_PATH}`);
    const doc = (await request(server).get('/api/openapi.json').expect(200)).body;
    const operation = doc.paths[METRICS_PATH].get;
    expect(operation['x-auth']).toBe('admin-or-operator');
    expect(Object.keys(operation.responses['200'].content)).toEqual(['text/plain']);
    expect(operation.security).toEqual([{ session: [] }, { operatorToken: [] }]);
  });
});
