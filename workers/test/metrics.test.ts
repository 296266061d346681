import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createWorkerConnection } from '@tickerbell/jobs';
import { closeAlertIndexes } from '@tickerbell/jobs/alerts';
import { createMailer } from '@tickerbell/jobs/mail';
import { LocalPushService, browserKeys } from '@tickerbell/jobs/testing/push-service';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { startHealthServer } from '../src/health';
import { startWorkers, type WorkersRuntime } from '../src/runtime';
import { sample } from '@tickerbell/jobs/testing/prometheus-text';

const logger = pino({ level: 'silent' });

/** A local webhook receiver answering by path: `/ok` 200, anything else 410 (refused for good). */
function webhookReceiver(): http.Server {
  return http.createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(req.url === '/ok' ? 200 : 410).end());
  });
}

describe('worker metrics on the health port (real workers, PostgreSQL, Redis)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const outbox = fs.mkdtempSync(path.join(os.tmpdir(), 'tb-metrics-outbox-'));
  const mailer = createMailer({ from: 'Tickerbell <no-reply@tickerbell.test>', outboxDir: outbox, logger });
  const pushService = new LocalPushService();
  const receiver = webhookReceiver();
  const connection = createWorkerConnection(testRedisUrl());
  const queueConnections = [createWorkerConnection(testRedisUrl()), createWorkerConnection(testRedisUrl())];
  const workerQueues = new JobQueues(queueConnections[0], prefix);
  const queues = new JobQueues(queueConnections[1], prefix);
  let runtime: WorkersRuntime;
  let health: http.Server;

  const get = async (pathname: string) => {
    const res = await fetch(`http://127.0.0.1:${(health.address() as AddressInfo).port}${pathname}`);
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    await pushService.start();
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    runtime = await startWorkers({
      dataSource: db.dataSource,
      connection,
      queues: workerQueues,
      logger,
      mailer,
      queueNames: ['housekeeping', 'mail', 'notifications', 'alerts'],
      schedules: [],
    });
    health = startHealthServer(0, runtime);
    await new Promise((resolve) => health.once('listening', resolve));
  });

  afterAll(async () => {
    await new Promise((resolve) => health.close(resolve));
    await runtime.close();
    await closeAlertIndexes();
    mailer.close();
    await workerQueues.close();
    await queues.close();
    connection.disconnect();
    queueConnections.forEach((c) => c.disconnect());
    await pushService.stop();
    receiver.closeAllConnections();
    await new Promise((resolve) => receiver.close(resolve));
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
    fs.rmSync(outbox, { recursive: true, force: true });
  });

  it('serves Prometheus text beside /health, without auth', async () => {
    const res = await get('/metrics');
    expect(res.status).toBe(200);
    expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(res.text).toMatch(/^tickerbell_process_cpu_user_seconds_total \d/m);
    expect(res.text).toContain('# TYPE tickerbell_job_duration_seconds histogram');
    expect((await get('/health')).status).toBe(200);
    expect((await get('/nothing')).status).toBe(404);
  });

  it('times and counts each job attempt by queue and job name: one completed, one failed', async () => {
    await queues.add('housekeeping.purge-expired', {});
    // Straight to Redis, past the producer's check: the worker fails it for good.
    await queues.queue('housekeeping').add('housekeeping.purge-expired', { bogus: 1 }, { attempts: 1 });
    await waitForQueuesIdle([queues.queue('housekeeping')]);

    const { text } = await get('/metrics');
    const job = { queue: 'housekeeping', job: 'housekeeping.purge-expired' };
    expect(sample(text, 'tickerbell_jobs_total', { ...job, outcome: 'completed' })).toBe(1);
    expect(sample(text, 'tickerbell_jobs_total', { ...job, outcome: 'failed' })).toBe(1);
    expect(sample(text, 'tickerbell_job_duration_seconds_count', { ...job, outcome: 'completed' })).toBe(1);
    expect(sample(text, 'tickerbell_job_duration_seconds_count', { ...job, outcome: 'failed' })).toBe(1);
    expect(sample(text, 'tickerbell_job_duration_seconds_sum', { ...job, outcome: 'completed' })).toBeGreaterThan(0);
    expect(sample(text, 'tickerbell_job_duration_seconds_bucket', { ...job, outcome: 'completed', le: '+Inf' })).toBe(1);
  });

  it('counts an email sent through mail.send', async () => {
    await queues.add('mail.send', { to: 'reader@example.test', subject: 'Metrics', text: 'Counted once.' });
    await waitForQueuesIdle([queues.queue('mail')]);
    expect(fs.readdirSync(outbox)).toHaveLength(1);
    expect(sample((await get('/metrics')).text, 'tickerbell_deliveries_total', { channel: 'email', outcome: 'sent' })).toBe(1);
  });

  it('counts web pushes the push service took and the ones it says are gone', async () => {
    const subscribe = async (name: string) => {
      const [{ id }] = await db.dataSource.query('INSERT INTO users (email) VALUES ($1) RETURNING id', [`${name}@example.test`]);
      const keys = browserKeys();
      await db.dataSource.query('INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4)', [id, pushService.endpoint(name), keys.p256dh, keys.auth]);
      return id as number;
    };
    const users = [await subscribe('kept'), await subscribe('gone')];
    pushService.reply = (push) => ({ status: push.path.endsWith('/gone') ? 410 : 201 });
    await queues.add('notifications.deliver', {
      notification: {
        title: 'New York Stock Exchange now open',
        message: 'New York Stock Exchange has opened for trading',
        type: 'success',
        activityType: 'MARKET_OPEN',
        exchangeId: 'XNYS',
        symbolId: null,
        details: { exchangeId: 'XNYS', importance: 'medium' },
        dedupeKey: 'market:XNYS:metrics',
      },
      push: { ttlSeconds: 3600, urgency: 'normal', topic: 'market-XNYS', url: '/dashboard/exchanges' },
      email: false,
      userIds: users,
    });
    await waitForQueuesIdle([queues.queue('notifications')], 20_000);

    expect(pushService.received).toHaveLength(2);
    const { text } = await get('/metrics');
    expect(sample(text, 'tickerbell_deliveries_total', { channel: 'push', outcome: 'sent' })).toBe(1);
    expect(sample(text, 'tickerbell_deliveries_total', { channel: 'push', outcome: 'gone' })).toBe(1);
  });

  it('counts a webhook delivered and one refused for good', async () => {
    const [{ id: userId }] = await db.dataSource.query(`INSERT INTO users (email) VALUES ('hooks@example.test') RETURNING id`);
    const [{ id: marketId }] = await db.dataSource.query(`INSERT INTO markets (symbol, name, type) VALUES ('BTCUSDT', 'Bitcoin', 'crypto') RETURNING id`);
    const port = (receiver.address() as AddressInfo).port;
    for (const hook of ['ok', 'refused']) {
      const [{ id: alertId }] = await db.dataSource.query(
        `INSERT INTO alerts (user_id, market_id, name, condition, value, params, frequency, webhook_url, is_active)
         VALUES ($1, $2, 'BTC 60k', 'crossing_up', 60000, '{"type":"crossing_up","value":"60000"}', 'once', $3, false) RETURNING id`,
        [userId, marketId, `http://127.0.0.1:${port}/${hook}`],
      );
      const [{ id: logId }] = await db.dataSource.query(
        `INSERT INTO alert_logs (alert_id, triggered_at, value, was_notified, dedupe_key, message, webhook_status)
         VALUES ($1, now(), 60012.5, true, $2, 'BTCUSDT crossed above 60,000', 'pending') RETURNING id`,
        [alertId, `${alertId}:once`],
      );
      await queues.add('alerts.webhook', { alertLogId: String(logId) });
    }
    await waitForQueuesIdle([queues.queue('alerts')]);

    const { text } = await get('/metrics');
    expect(sample(text, 'tickerbell_deliveries_total', { channel: 'webhook', outcome: 'sent' })).toBe(1);
    expect(sample(text, 'tickerbell_deliveries_total', { channel: 'webhook', outcome: 'failed' })).toBe(1);
    expect(sample(text, 'tickerbell_jobs_total', { queue: 'alerts', job: 'alerts.webhook', outcome: 'failed' })).toBe(1);
  });
});
