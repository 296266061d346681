import pino from 'pino';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createWorkerConnection, fixedClock } from '@tickerbell/jobs';
import { SEEDS, runSeeds } from '@tickerbell/jobs/seeds';
import { createPricesHandlers, loadPricesConfig, priceSourcesFromConfig, upsertTickBars, type PriceSources } from '@tickerbell/jobs/prices';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers, type WorkersRuntime } from '../../../workers/src/runtime';
import { createApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';

// A chart opened on a fresh system: one bar stored, the backfill queued by the request. The answer
// says the backfill is pending until a real worker has written the bars, so the page asks again.
describe('GET /api/markets/:symbol/bars while its backfill runs (real app, worker, PostgreSQL, Redis)', () => {
  const logger = pino({ level: 'silent' });
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const clock = fixedClock('2026-11-23T10:00:00Z');
  const redis = createWorkerConnection(testRedisUrl());
  const queues = new JobQueues(redis, prefix);
  const workerConnection = createWorkerConnection(testRedisUrl());
  const workerQueuesConnection = createWorkerConnection(testRedisUrl());
  const workerQueues = new JobQueues(workerQueuesConnection, prefix);
  let runtime: WorkersRuntime | undefined;
  const app = () =>
    createApp({
      config: loadApiConfig({ DATABASE_URL: db.url, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: prefix }),
      dataSource: db.dataSource,
      redis,
      queues,
      logger,
      clock,
    });
  const bars = (query: { interval: string; limit: number }) => request(app()).get('/api/markets/ETHUSDT/bars').query(query).expect(200);

  beforeAll(async () => {
    db = await createTestDatabase();
    await runSeeds(db.dataSource, SEEDS.filter((s) => s.name === '2026-11-markets'));
    const [{ id }] = await db.dataSource.query(`SELECT id FROM markets WHERE symbol = 'ETHUSDT'`);
    // The poll's first tick: the one bar a fresh system has.
    await upsertTickBars(db.dataSource, [{ marketId: id, symbol: 'ETHUSDT', price: '3001.5', at: new Date('2026-11-23T09:59:50Z'), source: 'simulated', simulated: true }]);
  });

  afterAll(async () => {
    await runtime?.close();
    await workerQueues.close();
    await queues.close();
    workerConnection.disconnect();
    workerQueuesConnection.disconnect();
    redis.disconnect();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  it('says the backfill is pending while it waits, then answers its bars and stops saying so', async () => {
    const first = await bars({ interval: '1d', limit: 300 });
    expect(first.body.bars).toHaveLength(1);
    expect(first.body.backfill).toEqual({ pending: true });
    // Asking again before it runs: still pending (the same day's job), nothing queued twice.
    expect((await bars({ interval: '1d', limit: 300 })).body.backfill).toEqual({ pending: true });
    expect(await queues.queue('prices').getJobCounts('waiting')).toEqual({ waiting: 1 });

    let sources: PriceSources | undefined;
    runtime = await startWorkers({
      dataSource: db.dataSource,
      connection: workerConnection,
      queues: workerQueues,
      logger,
      clock,
      queueNames: ['prices'],
      schedules: [],
      overrides: createPricesHandlers({
        sources: async (context) => (sources ??= priceSourcesFromConfig(loadPricesConfig({ PRICES_SOURCE: 'simulated' }), { clock: context.clock })),
        barDemand: [],
      }),
    });
    await waitForQueuesIdle([queues.queue('prices')]);

    const after = await bars({ interval: '1d', limit: 300 });
    expect(after.body.bars).toHaveLength(300);
    expect(after.body.backfill).toEqual({ pending: false });
    // More than the source gave: the day's backfill has run, so there is nothing to wait for.
    const more = await bars({ interval: '1d', limit: 1000 });
    expect(more.body.bars).toHaveLength(300);
    expect(more.body.backfill).toEqual({ pending: false });
  });
});
