import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { runMigrations } from '@tickerbell/entities';
import { JobQueues, createWorkerConnection } from '@tickerbell/jobs';
import { notificationChannel } from '@tickerbell/jobs/notifications';
import { storeQuotes } from '@tickerbell/jobs/prices';
import { LocalPushService, browserKeys, decryptPushMessage, type ReceivedPush } from '@tickerbell/jobs/testing/push-service';
import { deleteKeysWithPrefix } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers } from '../workers/src/runtime';
import { benchDatabase, type Benchmark, type BenchRow } from './bench';

const SYMBOLS = 100;
const ALERTS_PER_SYMBOL = 10;
/** A poll every 100 ms of 10 symbols, each with 10 alerts that fire on every tick: 1,000 triggers/s. */
const TICK_MS = 100;
const SYMBOLS_PER_TICK = 10;
const SECONDS = Number(process.env.ALERTS_E2E_SECONDS ?? 60);


const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

/**
 * End to end, in one process on this machine: price updates stored as the prices jobs store them
 * (storeQuotes) and handed to alerts.evaluate, the real workers (alerts + notifications queues),
 * PostgreSQL, Redis and web pushes (encrypted, VAPID) to a local push service. 1,000 alerts
 * (every_time, no cooldown) on 100 symbols, each firing on every tick of its symbol. Latency: from
 * the price update to the notification row (its created_at) and to the push request arriving.
 */
export const alertsE2eBench: Benchmark = {
  name: 'alerts-e2e',
  description: `Alerts end to end: ${((SYMBOLS_PER_TICK * ALERTS_PER_SYMBOL * 1000) / TICK_MS).toLocaleString('en-US')} triggers/s for ${SECONDS} s, price update -> notification row and push request`,
  async run({ redisUrl, pgAdminUrl }) {
    const database = await benchDatabase(pgAdminUrl, 'alerts', 10);
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
      await service.start();
      const keys = browserKeys();
      const users = SYMBOLS * ALERTS_PER_SYMBOL;
      await dataSource.query(`INSERT INTO users (email) SELECT 'trader' || g || '@bench.test' FROM generate_series(1, $1) g`, [users]);
      await dataSource.query(
        `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) SELECT id, $1 || '/' || id, $2, $3 FROM users`,
        [service.endpoint('u'), keys.p256dh, keys.auth],
      );
      const symbols = Array.from({ length: SYMBOLS }, (_, i) => `BENCH${String(i).padStart(3, '0')}`);
      await dataSource.query(`INSERT INTO markets (symbol, name, type) SELECT s, s, 'crypto' FROM unnest($1::varchar[]) s`, [symbols]);
      // Alert n belongs to user n: greater_than 1 fires on every tick (every_time, cooldown 0).
      await dataSource.query(
        `INSERT INTO alerts (user_id, market_id, name, condition, value, params, frequency, cooldown_seconds)
         SELECT u.id, m.id, 'Bench ' || u.id, 'greater_than', 1, '{"type":"greater_than","value":"1"}', 'every_time', 0
         FROM (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM users) u
         JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS n FROM markets) m ON m.n = u.n / $1`,
        [ALERTS_PER_SYMBOL],
      );

      let published = 0;
      subscriber.on('message', () => (published += 1));
      await subscriber.subscribe(notificationChannel(prefix));
      const pushes: ReceivedPush[] = [];
      service.onPush = (push) => pushes.push(push);

      const runtime = await startWorkers({
        dataSource,
        connection,
        queues,
        logger: pino({ level: 'silent' }),
        queueNames: ['alerts', 'notifications'],
        schedules: [],
      });

      // Warm-up: the index is built and the VAPID keys made before the clock starts.
      const warmAt = new Date(Date.now() - 60_000);
      await storeQuotes(queueConnection, prefix, symbols.map((symbol) => ({ symbol, price: '0.5', at: warmAt, change24hPercent: null, volume24h: null, source: 'bench', simulated: true })));
      await queues.add('alerts.evaluate', { ticks: symbols.slice(0, 1).map((symbol) => ({ symbol, previous: null, current: '0.5', at: warmAt.toISOString() })) });
      await sleep(1000);

      const ticks = (SECONDS * 1000) / TICK_MS;
      const started = performance.now();
      const epochStart = performance.timeOrigin + started;
      let behind = 0;
      for (let i = 0; i < ticks; i++) {
        const due = started + i * TICK_MS;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        else behind++;
        const at = new Date();
        const batch = symbols.slice(((i * SYMBOLS_PER_TICK) % SYMBOLS), ((i * SYMBOLS_PER_TICK) % SYMBOLS) + SYMBOLS_PER_TICK);
        const price = `${100 + (i % 50)}.${String(i % 100).padStart(2, '0')}`;
        const updates = await storeQuotes(
          queueConnection,
          prefix,
          batch.map((symbol) => ({ symbol, price, at, change24hPercent: null, volume24h: null, source: 'bench', simulated: true })),
        );
        await queues.add(
          'alerts.evaluate',
          { ticks: updates.map((u) => ({ symbol: u.latest.symbol, previous: u.previous, current: u.latest.price, at: u.latest.at })) },
          { jobId: `bench-${i}` },
        );
      }
      const producedSeconds = (performance.now() - started) / 1000;
      const expected = ticks * SYMBOLS_PER_TICK * ALERTS_PER_SYMBOL;
      const deadline = performance.now() + 120_000;
      while (pushes.filter((p) => p.at >= started).length < expected && performance.now() < deadline) await sleep(100);
      const drainedSeconds = (performance.now() - started) / 1000;
      await runtime.close();

      // Each firing's price time, its notification row's time, and (decrypted after the run) its push's arrival.
      const fired: { id: string; at: Date; created_at: Date }[] = await dataSource.query(
        `SELECT n.id, l.triggered_at AS at, n.created_at FROM notifications n JOIN alert_logs l ON l.notification_id = n.id WHERE l.triggered_at >= $1`,
        [new Date(epochStart)],
      );
      const priceAt = new Map(fired.map((f) => [String(f.id), f.at.getTime()]));
      const rowLatencies = fired.map((f) => f.created_at.getTime() - f.at.getTime()).sort((a, b) => a - b);
      const pushLatencies: number[] = [];
      for (const push of pushes) {
        if (push.at < started) continue;
        const { id } = JSON.parse(decryptPushMessage(push.body, keys).toString()) as { id: string };
        const at = priceAt.get(id);
        if (at !== undefined) pushLatencies.push(performance.timeOrigin + push.at - at);
      }
      pushLatencies.sort((a, b) => a - b);
      const [{ duplicates }] = await dataSource.query(
        `SELECT count(*)::int AS duplicates FROM (SELECT alert_id, dedupe_key FROM alert_logs GROUP BY 1, 2 HAVING count(*) > 1) d`,
      );
      rows.push({
        scenario: `${expected.toLocaleString('en-US')} triggers over ${SECONDS} s`,
        'alert logs': fired.length,
        'stream events': published,
        pushes: pushLatencies.length,
        'duplicate logs': duplicates,
        'ticks late': behind,
        'triggers/s': fired.length / producedSeconds,
        'drained s': drainedSeconds,
        'row p50 ms': percentile(rowLatencies, 0.5),
        'row p99 ms': percentile(rowLatencies, 0.99),
        'push p50 ms': percentile(pushLatencies, 0.5),
        'push p99 ms': percentile(pushLatencies, 0.99),
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
