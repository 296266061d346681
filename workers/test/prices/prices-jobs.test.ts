import { join } from 'node:path';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { defaultDomainConfigs, startDomains, JobQueues, SCHEDULES, createWorkerConnection, fixedClock } from '@tickerbell/jobs';
import { SEEDS, runSeeds } from '@tickerbell/jobs/seeds';
import { alertsBarDemand } from '@tickerbell/jobs/alerts';
import {
  PRICES_SCHEDULES,
  createPricesHandlers,
  latestPrices,
  loadPricesConfig,
  priceSourcesFromConfig,
  type PriceSources,
} from '@tickerbell/jobs/prices';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers, type WorkersRuntime } from '../../src/runtime';

const logger = pino({ level: 'silent' });
const RECORDINGS = join(__dirname, '..', '..', '..', 'jobs', 'test', 'fixtures', 'prices');

describe('prices jobs on real workers (replay sources, fixed clock)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const clock = fixedClock('2021-10-22T23:30:00Z');
  const producer = createWorkerConnection(testRedisUrl());
  const queues = new JobQueues(producer, prefix);
  const workerConnection = createWorkerConnection(testRedisUrl());
  const workerQueuesConnection = createWorkerConnection(testRedisUrl());
  const workerQueues = new JobQueues(workerQueuesConnection, prefix);
  let runtime: WorkersRuntime;
  let built = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    await runSeeds(db.dataSource, SEEDS.filter((s) => s.name === '2026-11-markets'));
    const [{ id: userId }] = await db.dataSource.query(`INSERT INTO users (email) VALUES ('w@example.test') RETURNING id`);
    const [{ id: listId }] = await db.dataSource.query(`INSERT INTO watchlists (user_id, name) VALUES ($1, 'Main') RETURNING id`, [userId]);
    await db.dataSource.query(`INSERT INTO watchlist_items (watchlist_id, market_id) SELECT $1, id FROM markets WHERE symbol = 'BTCUSDT'`, [listId]);
    let sources: PriceSources | undefined;
    runtime = await startWorkers({
      dataSource: db.dataSource,
      connection: workerConnection,
      queues: workerQueues,
      logger,
      clock,
      queueNames: ['prices'],
      schedules: [],
      // The production handlers for every other job; prices with replay sources built once.
      overrides: [
        ...createPricesHandlers({
          sources: async (context) => {
            if (!sources) built++;
            return (sources ??= priceSourcesFromConfig(loadPricesConfig({ PRICES_SOURCE: 'replay', PRICES_REPLAY_DIR: RECORDINGS }), { clock: context.clock }));
          },
          barDemand: [alertsBarDemand],
        }),
      ],
    });
  });

  afterAll(async () => {
    await runtime.close();
    await workerQueues.close();
    await queues.close();
    workerConnection.disconnect();
    workerQueuesConnection.disconnect();
    producer.disconnect();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  it('schedules crypto every 10 s and stocks every 60 s', async () => {
    expect(PRICES_SCHEDULES.map((s) => [s.id, s.data, s.repeat])).toEqual([
      ['prices.poll-crypto', { kind: 'crypto' }, { every: 10_000 }],
      ['prices.poll-stocks', { kind: 'stocks' }, { every: 60_000 }],
    ]);
    expect(SCHEDULES.filter((s) => s.job === 'prices.poll')).toEqual(PRICES_SCHEDULES);
    const domains = startDomains(defaultDomainConfigs(), { dataSource: db.dataSource, queues: workerQueues, clock, logger });
    expect(domains.handlers.filter((h) => h.name.startsWith('prices.')).map((h) => h.name).sort()).toEqual(['prices.backfill-bars', 'prices.poll']);
    await domains.close();
  });

  it('a poll stores the price, queues its evaluation and the missing chart bars; the backfill writes them', async () => {
    await queues.add('prices.poll', { kind: 'crypto' });
    await waitForQueuesIdle([queues.queue('prices')]);
    expect((await latestPrices(producer, prefix, ['BTCUSDT'])).get('BTCUSDT')).toMatchObject({ price: '60740.00000000', source: 'binance' });
    const evaluations = await queues.queue('alerts').getJobs(['waiting']);
    expect(evaluations.map((j) => j.name)).toEqual(['alerts.evaluate']);
    // The watched symbol lacks the chart's 1h bars: the backfill ran and failed for good (no 1h recording), without retries.
    const failed = await queues.queue('prices').getJobs(['failed']);
    expect(failed.map((j) => [j.id, j.attemptsMade, j.failedReason])).toEqual([
      ['prices.backfill-bars/BTCUSDT/1h/2021-10-22', 1, expect.stringContaining('no recorded 1h klines for BTCUSDT')],
    ]);

    await queues.add('prices.backfill-bars', { symbol: 'BTCUSDT', interval: '1m', limit: 5 });
    await waitForQueuesIdle([queues.queue('prices')]);
    const [{ count }] = await db.dataSource.query(`SELECT count(*)::int AS count FROM price_bars WHERE interval = '1m'`);
    // The five recorded closed candles; the poll's own 1m bar (23:30) is a sixth.
    expect(count).toBe(6);
    expect(built).toBe(1);
  });
});
