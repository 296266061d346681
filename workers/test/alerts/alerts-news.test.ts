import { join } from 'node:path';
import type Redis from 'ioredis';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createWorkerConnection, fixedClock } from '@tickerbell/jobs';
import { alertsNewsConsumer } from '@tickerbell/jobs/alerts';
import { FeedReplaySource, pollNewsSource } from '@tickerbell/jobs/news';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import pino from 'pino';
import { alertWorkerProcess } from './alert-worker-process';

const DECRYPT_RECORDING = join(__dirname, '../../../jobs/src/news/data/decrypt-feed-2025-12-12.xml');

describe('news alerts: exactly-once firing on real workers (two processes, one recorded poll)', () => {
  let db: TestDatabase;
  const closers: (() => Promise<void> | void)[] = [];
  const prefix = testQueuePrefix();

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  it('writes one log and one MARKET_ALERT_NEWS notification per alert and item when two workers take six copies of the job', async () => {
    const clock = fixedClock('2025-12-12T22:10:00Z');
    const redis: Redis = createWorkerConnection(testRedisUrl());
    const queues = new JobQueues(redis, prefix);
    closers.push(async () => {
      await queues.close();
      redis.disconnect();
    });
    const [{ id: userId }] = await db.dataSource.query(`INSERT INTO users (email) VALUES ('trader@example.test') RETURNING id`);
    const [{ id: marketId }] = await db.dataSource.query(`INSERT INTO markets (symbol, name, type) VALUES ('BTCUSDT', 'Bitcoin / Tether', 'crypto') RETURNING id`);
    const alertIds: number[] = [];
    for (const [frequency, condition] of [
      ['every_time', { type: 'news', scope: 'any', digest: false }],
      ['once_per_day', { type: 'news', scope: 'any', digest: false }],
      ['every_time', { type: 'news', scope: 'keywords', keywords: ['labubu'], digest: false }],
    ] as const) {
      const [{ id }] = await db.dataSource.query(
        `INSERT INTO alerts (user_id, market_id, name, condition, value, params, frequency) VALUES ($1, $2, 'BTC news', 'news', 0, $3::jsonb, $4) RETURNING id`,
        [userId, marketId, JSON.stringify(condition), frequency],
      );
      alertIds.push(id);
    }

    // The real poll of the recording, and what it queues for the alerts.
    const { linked } = await pollNewsSource({ dataSource: db.dataSource, clock }, new FeedReplaySource('https://decrypt.co/feed', DECRYPT_RECORDING), { keep: 500 });
    const btcItems = linked.links.filter((l) => l.marketId === marketId).length;
    expect(btcItems).toBeGreaterThan(5);
    await alertsNewsConsumer.newsLinked(linked, { dataSource: db.dataSource, queues, redis, clock, logger: pino({ level: 'silent' }) });
    const [queued] = await queues.queue('alerts').getJobs(['waiting']);
    // Five more copies under other ids: as if two polls had queued the same links.
    await queues.addBulk(Array.from({ length: 5 }, () => ({ name: 'alerts.evaluate-news' as const, data: queued.data })));

    for (let i = 0; i < 2; i++) {
      const worker = await alertWorkerProcess({ databaseUrl: db.url, prefix, clock });
      closers.push(() => worker.close());
    }
    await waitForQueuesIdle([queues.queue('alerts')], 20_000);

    const logs: { alert_id: number; n: number; keys: number }[] = await db.dataSource.query(
      `SELECT alert_id, count(*)::int AS n, count(DISTINCT dedupe_key)::int AS keys FROM alert_logs GROUP BY alert_id ORDER BY alert_id`,
    );
    expect(logs).toEqual([
      { alert_id: alertIds[0], n: btcItems, keys: btcItems },
      { alert_id: alertIds[1], n: 1, keys: 1 },
      { alert_id: alertIds[2], n: 1, keys: 1 },
    ]);
    const notifications: { activity_type: string; n: number }[] = await db.dataSource.query(
      `SELECT activity_type, count(*)::int AS n FROM notifications GROUP BY activity_type`,
    );
    expect(notifications).toEqual([{ activity_type: 'MARKET_ALERT_NEWS', n: btcItems + 2 }]);
  });
});
