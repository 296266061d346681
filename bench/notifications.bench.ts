import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { runMigrations } from '@tickerbell/entities';
import { JobQueues, createWorkerConnection, fixedClock } from '@tickerbell/jobs';
import { BUNDLED_EXCHANGE_CALENDARS_PATH, importExchangeCalendarFile, readExchangeCalendarFile } from '@tickerbell/jobs/market-hours';
import { notificationChannel } from '@tickerbell/jobs/notifications';
import { LocalPushService, browserKeys, decryptPushMessage } from '@tickerbell/jobs/testing/push-service';
import { deleteKeysWithPrefix } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers } from '../workers/src/runtime';
import { benchDatabase, type Benchmark, type BenchRow } from './bench';

const USERS = 10_000;


const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

/**
 * One market event (XNYS opened) fanned out to 10,000 followers, end to end in one process: the
 * market-clock job, fan-out, delivery batches (rows + pub/sub), web push (encrypted, VAPID) to a
 * local push service. Latency is from queueing the clock job to each push arriving.
 */
export const notificationsBench: Benchmark = {
  name: 'notifications',
  description: `Notifications: one market event fanned out to ${USERS.toLocaleString('en-US')} followers (rows, stream events, web pushes to a local push service)`,
  async run({ redisUrl, pgAdminUrl }) {
    const database = await benchDatabase(pgAdminUrl, 'notifications', 10);
    const { dataSource } = database;
    const prefix = `tb-bench-${randomUUID()}`;
    const service = new LocalPushService();
    const connection = createWorkerConnection(redisUrl);
    const queueConnection = createWorkerConnection(redisUrl);
    const subscriber = createWorkerConnection(redisUrl);
    const queues = new JobQueues(queueConnection, prefix);
    const rows: BenchRow[] = [];
    try {
      await dataSource.initialize();
      await runMigrations(dataSource);
      await importExchangeCalendarFile(dataSource, readExchangeCalendarFile(BUNDLED_EXCHANGE_CALENDARS_PATH));
      await service.start();
      const keys = browserKeys();
      await dataSource.query(`INSERT INTO users (email) SELECT 'user' || g || '@bench.test' FROM generate_series(1, $1) g`, [USERS]);
      // Everyone follows XNYS only (XNAS opens at the same minute and would double the work).
      await dataSource.query(`INSERT INTO exchange_follows (user_id, exchange_id) SELECT id, 'XNYS' FROM users`);
      await dataSource.query(
        `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) SELECT id, $1 || '/' || id, $2, $3 FROM users`,
        [service.endpoint('u'), keys.p256dh, keys.auth],
      );

      let published = 0;
      subscriber.on('message', () => (published += 1));
      await subscriber.subscribe(notificationChannel(prefix));
      const arrivals: number[] = [];
      let resolveAll: () => void = () => undefined;
      const allArrived = new Promise<void>((resolve) => (resolveAll = resolve));
      service.onPush = (push) => {
        arrivals.push(push.at);
        if (arrivals.length === USERS) resolveAll();
      };

      const runtime = await startWorkers({
        dataSource,
        connection,
        queues,
        logger: pino({ level: 'silent' }),
        clock: fixedClock('2026-11-23T14:30:00Z'),
        queueNames: ['market-hours', 'notifications'],
        schedules: [],
      });
      const started = performance.now();
      await queues.add('market-hours.clock', {});
      await Promise.race([allArrived, new Promise((_, reject) => setTimeout(() => reject(new Error(`only ${arrivals.length} pushes after 120 s`)), 120_000))]);
      const seconds = (performance.now() - started) / 1000;
      const pushes = arrivals.length;
      await runtime.close();

      const [{ count }] = await dataSource.query(`SELECT count(*)::int AS count FROM notifications WHERE dedupe_key = 'market:XNYS:2026-11-23:opened'`);
      const sample = JSON.parse(decryptPushMessage(service.received[0].body, keys).toString()) as { title: string };
      if (sample.title !== 'New York Stock Exchange now open') throw new Error(`unexpected push ${sample.title}`);
      const latencies = arrivals.map((at) => at - started).sort((a, b) => a - b);
      rows.push({
        scenario: 'XNYS opened -> 10,000 followers',
        notifications: Number(count),
        'stream events': published,
        pushes,
        'pushes after the run': arrivals.length - pushes,
        seconds,
        'pushes/s': pushes / seconds,
        'p50 ms': percentile(latencies, 0.5),
        'p99 ms': percentile(latencies, 0.99),
      });
    } finally {
      await queues.close();
      connection.disconnect();
      queueConnection.disconnect();
      subscriber.disconnect();
      await service.stop();
      await database.drop();
      await deleteKeysWithPrefix(redisUrl, prefix);
    }
    return rows;
  },
};
