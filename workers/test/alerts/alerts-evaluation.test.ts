import type Redis from 'ioredis';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createWorkerConnection, defineHandler, fixedClock, type JobHandler } from '@tickerbell/jobs';
import { alertsJobIds, evaluatePriceTicks, publishAlertChanges, type AlertCondition } from '@tickerbell/jobs/alerts';
import { notificationChannel, notificationMessageSchema, notificationsJobIds, type NotificationMessage } from '@tickerbell/jobs/notifications';
import { storeQuotes } from '@tickerbell/jobs/prices';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import type { WorkersRuntime } from '../../src/runtime';
import { alertWorkerProcess } from './alert-worker-process';


describe('alerts: exactly-once triggering on real workers (two processes, retries)', () => {
  let db: TestDatabase;
  const closers: (() => Promise<void> | void)[] = [];
  const prefixes: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await db.dataSource.query('TRUNCATE users, markets, alerts, alert_logs, notifications CASCADE');
  });

  afterAll(async () => {
    await db.drop();
    for (const prefix of prefixes) await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  /** A worker "process" (alert-worker-process.ts), closed after the test. */
  async function workerProcess(prefix: string, clock: ReturnType<typeof fixedClock>, handlers?: JobHandler[]): Promise<WorkersRuntime> {
    const worker = await alertWorkerProcess({ databaseUrl: db.url, prefix, clock, handlers });
    closers.push(() => worker.close());
    return worker.runtime;
  }

  async function setup() {
    const prefix = testQueuePrefix();
    prefixes.push(prefix);
    const clock = fixedClock('2026-11-23T10:00:00Z');
    const redis: Redis = createWorkerConnection(testRedisUrl());
    const queues = new JobQueues(redis, prefix);
    const subscriber = createWorkerConnection(testRedisUrl());
    const live: NotificationMessage[] = [];
    subscriber.on('message', (_c: string, text: string) => live.push(notificationMessageSchema.parse(JSON.parse(text))));
    await subscriber.subscribe(notificationChannel(prefix));
    closers.push(async () => {
      subscriber.disconnect();
      await queues.close();
      redis.disconnect();
    });
    const [{ id: userId }] = await db.dataSource.query(`INSERT INTO users (email) VALUES ('trader@example.test') RETURNING id`);
    await db.dataSource.query(`INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, 'http://127.0.0.1:9/p', 'p', 'a')`, [userId]);
    const markets = new Map<string, number>();
    for (const symbol of ['BTCUSDT', 'ETHUSDT', 'SOLUSDT']) {
      const [{ id }] = await db.dataSource.query(`INSERT INTO markets (symbol, name, type) VALUES ($1, $1, 'crypto') RETURNING id`, [symbol]);
      markets.set(symbol, id);
    }
    const alert = async (symbol: string, condition: AlertCondition, frequency: string, extra: { notifyEmail?: boolean; webhookUrl?: string } = {}) => {
      const [{ id }] = await db.dataSource.query(
        `INSERT INTO alerts (user_id, market_id, name, condition, value, params, frequency, cooldown_seconds, notify_email, webhook_url, webhook_secret)
         VALUES ($1, $2, $3, $4, 1, $5::jsonb, $6, 60, $7, $8, 'secret') RETURNING id`,
        [userId, markets.get(symbol), `${symbol} ${condition.type}`, condition.type, JSON.stringify(condition), frequency, extra.notifyEmail ?? false, extra.webhookUrl ?? null],
      );
      await publishAlertChanges(redis, prefix, [id]);
      return id as number;
    };
    /** Stores the prices as the prices jobs do and queues the same alerts.evaluate job `copies` times. */
    const tick = async (prices: Record<string, string>, at: string, copies: number) => {
      clock.set(at);
      const updates = await storeQuotes(
        redis,
        prefix,
        Object.entries(prices).map(([symbol, price]) => ({ symbol, price, at: new Date(at), change24hPercent: null, volume24h: null, source: 'simulated', simulated: true })),
      );
      const ticks = updates.map((u) => ({ symbol: u.latest.symbol, previous: u.previous, current: u.latest.price, at: u.latest.at }));
      await queues.addBulk(Array.from({ length: copies }, () => ({ name: 'alerts.evaluate' as const, data: { ticks } })));
      await waitForQueuesIdle([queues.queue('alerts')], 20_000);
    };
    return { prefix, clock, queues, live, userId, alert, tick };
  }

  it('two worker processes evaluating the same ticks at once write and deliver each firing once', async () => {
    const s = await setup();
    const expected = new Map<number, number>();
    for (let i = 0; i < 20; i++) {
      expected.set(await s.alert('BTCUSDT', { type: 'greater_than', value: String(100 + i) }, 'once_per_day'), 1);
      expected.set(await s.alert('ETHUSDT', { type: 'crossing_up', value: String(50 + i) }, 'once'), 1);
      expected.set(await s.alert('SOLUSDT', { type: 'greater_than', value: String(10 + i) }, 'every_time'), 2);
    }
    // Each process builds its index from the database on its first job: the same 60 alerts.
    await workerProcess(s.prefix, s.clock);
    await workerProcess(s.prefix, s.clock);
    await s.tick({ BTCUSDT: '90', ETHUSDT: '40', SOLUSDT: '5' }, '2026-11-23T09:59:00Z', 2);

    await s.tick({ BTCUSDT: '150', ETHUSDT: '80', SOLUSDT: '40' }, '2026-11-23T10:00:00Z', 6);
    await s.tick({ BTCUSDT: '151', ETHUSDT: '81', SOLUSDT: '41' }, '2026-11-23T10:00:30Z', 6);
    await s.tick({ BTCUSDT: '152', ETHUSDT: '82', SOLUSDT: '42' }, '2026-11-23T10:01:00Z', 6);

    const logs: { alert_id: number; n: number; notified: number }[] = await db.dataSource.query(
      `SELECT alert_id, count(*)::int AS n, count(*) FILTER (WHERE was_notified AND notification_id IS NOT NULL)::int AS notified
       FROM alert_logs GROUP BY alert_id ORDER BY alert_id`,
    );
    expect(new Map(logs.map((l) => [l.alert_id, l.n]))).toEqual(expected);
    expect(logs.every((l) => l.notified === l.n)).toBe(true);
    const [{ notifications }] = await db.dataSource.query('SELECT count(*)::int AS notifications FROM notifications');
    expect(notifications).toBe(80);
    // Each firing published once, pushed once.
    const deadline = Date.now() + 5000;
    while (s.live.length < 80 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(s.live.length).toBe(80);
    expect(new Set(s.live.map((m) => m.notification.id)).size).toBe(80);
    const pushJobs = await s.queues.queue('notifications').getJobs(['waiting', 'delayed']);
    const pushed = pushJobs.flatMap((j) => (j.data as { targets: { notificationId: string }[] }).targets.map((t) => t.notificationId));
    expect(pushed.length).toBe(80);
    expect(new Set(pushed).size).toBe(80);
  });

  it('a job retried after a crash between its commit and its deliveries delivers them once, under the same job ids', async () => {
    const s = await setup();
    const alertId = await s.alert('BTCUSDT', { type: 'crossing_up', value: '100' }, 'once_per_day', { notifyEmail: true, webhookUrl: 'http://127.0.0.1:9/hook' });
    let crashes = 0;
    // The first attempt commits its writes, publishes, then dies before queueing the deliveries.
    const crashingEvaluate = defineHandler('alerts.evaluate', async (payload, context) => {
      if ((context.job?.attemptsMade ?? 0) > 0) return evaluatePriceTicks(payload, context);
      const queues = new Proxy(context.queues, {
        get(target, property, receiver) {
          if (property === 'addBulk') {
            return async () => {
              crashes++;
              throw new Error('worker died');
            };
          }
          const value: unknown = Reflect.get(target, property, receiver);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      return evaluatePriceTicks(payload, { ...context, queues });
    });
    await workerProcess(s.prefix, s.clock, [crashingEvaluate, defineHandler('alerts.webhook', async () => 'not sent in this test')]);
    await s.tick({ BTCUSDT: '90' }, '2026-11-23T09:59:00Z', 1);

    await s.tick({ BTCUSDT: '101' }, '2026-11-23T10:00:00Z', 1);
    // The fixed 500 ms backoff of alerts.evaluate: wait for the retry to finish.
    const deadline = Date.now() + 10_000;
    for (;;) {
      const counts = await s.queues.queue('alerts').getJobCounts('completed', 'delayed', 'waiting', 'active');
      if (counts.completed >= 3 && counts.delayed + counts.waiting + counts.active === 0) break;
      if (Date.now() > deadline) throw new Error(`retry did not finish: ${JSON.stringify(counts)}`);
      await new Promise((r) => setTimeout(r, 50));
    }

    expect(crashes).toBe(1);
    const logs: { id: string; notification_id: string }[] = await db.dataSource.query('SELECT id, notification_id FROM alert_logs WHERE alert_id = $1', [alertId]);
    expect(logs).toHaveLength(1);
    const [{ notifications }] = await db.dataSource.query('SELECT count(*)::int AS notifications FROM notifications');
    expect(notifications).toBe(1);
    const [{ id: logId, notification_id: notificationId }] = logs;
    const [{ id: subscriptionId }]: { id: number }[] = await db.dataSource.query('SELECT id FROM push_subscriptions');
    expect(await s.queues.queue('notifications').getJob(notificationsJobIds.push([{ notificationId, subscriptionId }]))).toBeDefined();
    expect(await s.queues.queue('mail').getJob(notificationsJobIds.mail(notificationId))).toBeDefined();
    expect((await s.queues.queue('alerts').getJob(alertsJobIds.webhook(logId)))?.data).toEqual({ alertLogId: logId });
    expect(await s.queues.queue('notifications').count()).toBe(1);
    expect(await s.queues.queue('mail').count()).toBe(1);
    // Live: published by the crashed attempt and again by the retry, the same notification (clients key on its id).
    expect(new Set(s.live.map((m) => m.notification.id))).toEqual(new Set([notificationId]));
  });
});
