import type Redis from 'ioredis';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createWorkerConnection, fixedClock } from '@tickerbell/jobs';
import { publishAlertChanges, type AlertCondition } from '@tickerbell/jobs/alerts';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { alertWorkerProcess } from './alert-worker-process';


describe('volatility alerts: exactly-once firing on real workers (two processes, one closed bar)', () => {
  let db: TestDatabase;
  const closers: (() => Promise<void> | void)[] = [];
  const prefixes: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await db.dataSource.query('TRUNCATE users, markets, alerts, alert_logs, notifications, price_bars CASCADE');
  });

  afterAll(async () => {
    await db.drop();
    for (const prefix of prefixes) await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  /** A worker "process" (alert-worker-process.ts), closed after the test. */
  async function workerProcess(prefix: string, clock: ReturnType<typeof fixedClock>): Promise<void> {
    const worker = await alertWorkerProcess({ databaseUrl: db.url, prefix, clock });
    closers.push(() => worker.close());
  }

  it('writes one alert log and one MARKET_ALERT_VOLATILITY notification per alert when two workers evaluate the same bar', async () => {
    const prefix = testQueuePrefix();
    prefixes.push(prefix);
    // The last 1h bar opened at 23:00 and closed at 23:59:59.999.
    const clock = fixedClock('2026-11-24T00:00:05Z');
    const redis: Redis = createWorkerConnection(testRedisUrl());
    const queues = new JobQueues(redis, prefix);
    closers.push(async () => {
      await queues.close();
      redis.disconnect();
    });
    const [{ id: userId }] = await db.dataSource.query(`INSERT INTO users (email) VALUES ('trader@example.test') RETURNING id`);
    const [{ id: marketId }] = await db.dataSource.query(`INSERT INTO markets (symbol, name, type) VALUES ('BTCUSDT', 'Bitcoin', 'crypto') RETURNING id`);

    // 24 hourly bars: 20 quiet ones (100 / 100.2), then a violent hour-by-hour swing.
    const closes = [...Array.from({ length: 20 }, (_, i) => (i % 2 ? 100.2 : 100)), 100, 106, 97, 108];
    for (const [i, close] of closes.entries()) {
      const open = i ? closes[i - 1] : close;
      await db.dataSource.query(
        `INSERT INTO price_bars (market_id, interval, open_time, open, high, low, close, source) VALUES ($1, '1h', $2, $3, $4, $5, $6, 'simulated')`,
        [marketId, new Date(Date.UTC(2026, 10, 23, i)), open, Math.max(open, close) + 0.1, Math.min(open, close) - 0.1, close],
      );
    }

    const conditions: AlertCondition[] = [
      { type: 'volatility_above', period: 5, level: 60 },
      { type: 'volatility_spike', period: 3, longPeriod: 10, factor: 1.5 },
      { type: 'atr_above', period: 5, unit: 'percent', level: 1 },
      { type: 'bollinger_squeeze', period: 5, level: 5 },
      { type: 'bollinger_breakout', period: 5, factor: 1.5, lookback: 4 },
    ];
    const ids: number[] = [];
    for (const condition of conditions) {
      const [{ id }] = await db.dataSource.query(
        `INSERT INTO alerts (user_id, market_id, name, condition, value, params, interval, frequency, cooldown_seconds)
         VALUES ($1, $2, $3, $4, 1, $5::jsonb, '1h', 'once_per_day', 60) RETURNING id`,
        [userId, marketId, `BTC ${condition.type}`, condition.type, JSON.stringify(condition)],
      );
      ids.push(id);
    }
    await publishAlertChanges(redis, prefix, ids);

    await workerProcess(prefix, clock);
    await workerProcess(prefix, clock);
    const bar = { symbol: 'BTCUSDT', interval: '1h' as const, openTime: '2026-11-23T23:00:00.000Z' };
    await queues.addBulk(Array.from({ length: 6 }, () => ({ name: 'alerts.evaluate-bars' as const, data: { bars: [bar] } })));
    await waitForQueuesIdle([queues.queue('alerts')], 20_000);

    const logs: { alert_id: number; n: number; triggered_at: Date; value: string }[] = await db.dataSource.query(
      `SELECT alert_id, count(*)::int AS n, min(triggered_at) AS triggered_at, min(value) AS value FROM alert_logs GROUP BY alert_id ORDER BY alert_id`,
    );
    expect(logs.map((l) => [l.alert_id, l.n])).toEqual(ids.map((id) => [id, 1]));
    expect(logs.every((l) => l.triggered_at.toISOString() === '2026-11-23T23:59:59.999Z' && Number(l.value) === 108)).toBe(true);

    const notifications: { activity_type: string; message: string }[] = await db.dataSource.query(
      `SELECT activity_type, message FROM notifications ORDER BY id`,
    );
    expect(notifications).toHaveLength(conditions.length);
    expect(new Set(notifications.map((n) => n.activity_type))).toEqual(new Set(['MARKET_ALERT_VOLATILITY']));
    const messages = notifications.map((n) => n.message).sort();
    expect(messages.some((m) => /^BTCUSDT 1h realised volatility [\d,.]+ % is above 60 % \(5 bars, annualised\)$/.test(m))).toBe(true);
    expect(messages.some((m) => /^BTCUSDT 1h ATR\(5\) [\d.]+ % of the close is above 1 %$/.test(m))).toBe(true);
    expect(messages.some((m) => /^BTCUSDT 1h Bollinger Band width\(5\) [\d.]+ is below 5$/.test(m))).toBe(true);
  });
});
