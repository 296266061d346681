import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Job } from 'bullmq';
import { UnrecoverableError } from 'bullmq';
import type Redis from 'ioredis';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createWorkerConnection, fixedClock, type JobContext } from '@tickerbell/jobs';
import { alertsJobIds, closeAlertIndexes, deliverAlertWebhook } from '@tickerbell/jobs/alerts';
import { storeQuotes } from '@tickerbell/jobs/prices';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers, type WorkersRuntime } from '../../src/runtime';

const logger = pino({ level: 'silent' });

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local webhook receiver: records each request and answers with `reply` (null: never answers). */
class WebhookReceiver {
  readonly received: Received[] = [];
  reply: (n: number) => number | null = () => 200;
  private server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const status = this.reply(this.received.length);
      if (status !== null) res.writeHead(status, { 'content-type': 'text/plain' }).end('ok');
    });
  });

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}${path}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

describe('alerts: signed webhooks with retries (real workers, PostgreSQL, Redis, a local receiver)', () => {
  let db: TestDatabase;
  const receiver = new WebhookReceiver();
  const prefix = testQueuePrefix();
  const clock = fixedClock('2026-11-23T10:00:00Z');
  const connection = createWorkerConnection(testRedisUrl());
  const producer: Redis = createWorkerConnection(testRedisUrl());
  const workerQueuesConnection = createWorkerConnection(testRedisUrl());
  const workerQueues = new JobQueues(workerQueuesConnection, prefix);
  const queues = new JobQueues(producer, prefix);
  let runtime: WorkersRuntime;
  let userId: number;
  let marketId: number;

  beforeAll(async () => {
    db = await createTestDatabase();
    await receiver.start();
    runtime = await startWorkers({ dataSource: db.dataSource, connection, queues: workerQueues, logger, clock, queueNames: ['alerts'], schedules: [] });
    [{ id: userId }] = await db.dataSource.query(`INSERT INTO users (email) VALUES ('hooks@example.test') RETURNING id`);
    [{ id: marketId }] = await db.dataSource.query(`INSERT INTO markets (symbol, name, type) VALUES ('BTCUSDT', 'Bitcoin', 'crypto') RETURNING id`);
  });

  afterEach(() => {
    receiver.received.length = 0;
    receiver.reply = () => 200;
  });

  afterAll(async () => {
    await runtime.close();
    await closeAlertIndexes();
    await workerQueues.close();
    await queues.close();
    connection.disconnect();
    producer.disconnect();
    workerQueuesConnection.disconnect();
    await receiver.stop();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  /** An alert with a webhook and one firing of it (as the evaluator writes it); returns the log id. */
  async function firing(secret: string | null, url = receiver.url()): Promise<{ alertId: number; logId: string }> {
    const [{ id: alertId }] = await db.dataSource.query(
      `INSERT INTO alerts (user_id, market_id, name, condition, value, params, frequency, webhook_url, webhook_secret, is_active)
       VALUES ($1, $2, 'BTC 60k', 'crossing_up', 60000, '{"type":"crossing_up","value":"60000"}', 'once', $3, $4, false) RETURNING id`,
      [userId, marketId, url, secret],
    );
    const [{ id: logId }] = await db.dataSource.query(
      `INSERT INTO alert_logs (alert_id, triggered_at, value, was_notified, dedupe_key, message, webhook_status)
       VALUES ($1, '2026-11-23T10:00:10Z', 60012.5, true, $2, 'BTCUSDT crossed above 60,000 (now 60,012.50)', 'pending') RETURNING id`,
      [alertId, `${alertId}:once`],
    );
    return { alertId, logId: String(logId) };
  }

  async function logOf(logId: string): Promise<{ webhook_status: string; webhook_attempts: number; webhook_last_error: string | null }> {
    const [row] = await db.dataSource.query('SELECT webhook_status, webhook_attempts, webhook_last_error FROM alert_logs WHERE id = $1', [logId]);
    return row;
  }

  const context = (): JobContext => ({ dataSource: db.dataSource, queues, redis: queues.redis, clock, logger });

  it('a firing on the workers posts signed JSON that the receiver can verify', async () => {
    const [{ id: alertId }] = await db.dataSource.query(
      `INSERT INTO alerts (user_id, market_id, name, condition, value, params, frequency, webhook_url, webhook_secret)
       VALUES ($1, $2, 'BTC breakout', 'crossing_up', 60000, '{"type":"crossing_up","value":"60000"}', 'once', $3, 'whsec_test') RETURNING id`,
      [userId, marketId, receiver.url()],
    );
    for (const [price, at] of [['59990', '2026-11-23T10:00:00Z'], ['60012.5', '2026-11-23T10:00:10Z']]) {
      clock.set(at);
      const [u] = await storeQuotes(producer, prefix, [{ symbol: 'BTCUSDT', price, at: new Date(at), change24hPercent: null, volume24h: null, source: 'simulated', simulated: true }]);
      await queues.add('alerts.evaluate', { ticks: [{ symbol: 'BTCUSDT', previous: u.previous, current: price, at: u.latest.at }] });
      await waitForQueuesIdle([queues.queue('alerts')], 10_000);
    }

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    const expected = `sha256=${createHmac('sha256', 'whsec_test').update(request.body).digest('hex')}`;
    const signature = String(request.headers['x-tickerbell-signature']);
    expect(timingSafeEqual(Buffer.from(signature), Buffer.from(expected))).toBe(true);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toMatch(/^Tickerbell-Webhooks\//);
    expect(request.headers['x-tickerbell-timestamp']).toBe(String(Date.parse('2026-11-23T10:00:10Z') / 1000));
    const [log] = await db.dataSource.query('SELECT id, webhook_status, webhook_attempts FROM alert_logs WHERE alert_id = $1', [alertId]);
    expect(JSON.parse(request.body)).toEqual({
      alert: { id: alertId, name: 'BTC breakout', symbol: 'BTCUSDT', condition: { type: 'crossing_up', value: '60000' } },
      firing: { logId: String(log.id), triggeredAt: '2026-11-23T10:00:10.000Z', value: '60012.5000000000', message: 'BTCUSDT crossed above 60,000 (now 60,012.50)' },
    });
    expect(log).toMatchObject({ webhook_status: 'delivered', webhook_attempts: 1 });
    // A tampered body no longer matches the signature.
    const tampered = `sha256=${createHmac('sha256', 'whsec_test').update(request.body.replace('60012.5', '70012.5')).digest('hex')}`;
    expect(tampered).not.toBe(signature);
  });

  it('a 500 is retried with the job backoff: delivered on the second attempt', async () => {
    receiver.reply = (n) => (n === 1 ? 500 : 200);
    const { logId } = await firing('s3cret');
    await queues.add('alerts.webhook', { alertLogId: logId }, { jobId: alertsJobIds.webhook(logId) });
    const deadline = Date.now() + 15_000;
    while ((await logOf(logId)).webhook_status !== 'delivered') {
      if (Date.now() > deadline) throw new Error(`not delivered: ${JSON.stringify(await logOf(logId))}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[0].body).toBe(receiver.received[1].body);
    expect(await logOf(logId)).toEqual({ webhook_status: 'delivered', webhook_attempts: 2, webhook_last_error: null });
  });

  it('a receiver that never answers times out; the last attempt marks the log failed', async () => {
    receiver.reply = () => null;
    const { logId } = await firing('s3cret');
    const started = Date.now();
    await expect(deliverAlertWebhook({ alertLogId: logId }, context(), { timeoutMs: 300, allowPrivate: true })).rejects.toThrow(/timeout after 300 ms/);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(await logOf(logId)).toEqual({ webhook_status: 'pending', webhook_attempts: 1, webhook_last_error: 'timeout after 300 ms' });

    const lastAttempt = { attemptsMade: 5, opts: { attempts: 6 } } as unknown as Job;
    await expect(deliverAlertWebhook({ alertLogId: logId }, { ...context(), job: lastAttempt }, { timeoutMs: 300, allowPrivate: true })).rejects.toThrow(/timeout/);
    expect(await logOf(logId)).toEqual({ webhook_status: 'failed', webhook_attempts: 2, webhook_last_error: 'timeout after 300 ms' });
  });

  it('a 4xx other than 408/429 fails for good; 429 is retried; a delivered log is never sent again', async () => {
    receiver.reply = () => 410;
    const gone = await firing(null);
    const error = await deliverAlertWebhook({ alertLogId: gone.logId }, context(), { allowPrivate: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect(await logOf(gone.logId)).toEqual({ webhook_status: 'failed', webhook_attempts: 1, webhook_last_error: 'HTTP 410' });
    expect(receiver.received[0].headers['x-tickerbell-signature']).toBeUndefined();

    receiver.reply = (n) => (n === 2 ? 429 : 204);
    const limited = await firing('k');
    const retry = await deliverAlertWebhook({ alertLogId: limited.logId }, context(), { allowPrivate: true }).catch((e: unknown) => e);
    expect(retry).toBeInstanceOf(Error);
    expect(retry).not.toBeInstanceOf(UnrecoverableError);
    expect(await deliverAlertWebhook({ alertLogId: limited.logId }, context(), { allowPrivate: true })).toMatchObject({ status: 'delivered', httpStatus: 204, attempts: 2 });
    expect(await deliverAlertWebhook({ alertLogId: limited.logId }, context(), { allowPrivate: true })).toEqual({ status: 'skipped' });
    expect(receiver.received).toHaveLength(3);
  });

  it('refuses a webhook on a private address for good, without sending, when private targets are not allowed (production)', async () => {
    const { logId } = await firing('k');
    const error = await deliverAlertWebhook({ alertLogId: logId }, context(), { allowPrivate: false }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnrecoverableError);
    expect(String(error)).toMatch(/127\.0\.0\.1 .*not a public address/);
    expect(await logOf(logId)).toMatchObject({ webhook_status: 'failed', webhook_attempts: 1 });
    expect(receiver.received).toHaveLength(0);
  });
});
