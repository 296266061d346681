import pino from 'pino';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createProducerConnection, fixedClock } from '@tickerbell/jobs';
import { SEEDS, runSeeds } from '@tickerbell/jobs/seeds';
import { storeQuotes, upsertTickBars } from '@tickerbell/jobs/prices';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { createApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';

describe('GET /api/markets/quotes and /api/markets/:symbol/bars (real Express, PostgreSQL, Redis)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = createProducerConnection(testRedisUrl());
  const queues = new JobQueues(redis, prefix);
  const clock = fixedClock('2026-11-23T10:00:00Z');
  let btc: number;
  const app = () =>
    createApp({
      config: loadApiConfig({ DATABASE_URL: db.url, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: prefix }),
      dataSource: db.dataSource,
      redis,
      queues,
      logger: pino({ level: 'silent' }),
      clock,
    });

  beforeAll(async () => {
    db = await createTestDatabase();
    await runSeeds(db.dataSource, SEEDS.filter((s) => s.name === '2026-11-markets'));
    [{ id: btc }] = await db.dataSource.query(`SELECT id FROM markets WHERE symbol = 'BTCUSDT'`);
    const quote = { change24hPercent: null, volume24h: null, source: 'simulated', simulated: true };
    await storeQuotes(redis, prefix, [
      { ...quote, symbol: 'BTCUSDT', price: '60740.00', at: new Date('2026-11-23T09:59:50Z') },
      { ...quote, symbol: 'ETHUSDT', price: '3001.5', at: new Date('2026-11-23T09:59:50Z'), change24hPercent: '-1.25', source: 'binance', simulated: false },
    ]);
    // Three 1h bars: 08:00 (two ticks), 09:00, 10:00.
    const tick = (price: string, at: string) => ({ marketId: btc, symbol: 'BTCUSDT', price, at: new Date(at), source: 'simulated', simulated: true });
    for (const t of [tick('100', '2026-11-23T08:10:00Z'), tick('105.5', '2026-11-23T08:50:00Z'), tick('103', '2026-11-23T09:30:00Z'), tick('101', '2026-11-23T10:00:00Z')]) {
      await upsertTickBars(db.dataSource, [t]);
    }
  });

  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  it('answers the latest quotes of the symbols asked, in order, leaving out unknown ones (no sign-in)', async () => {
    const res = await request(app()).get('/api/markets/quotes').query({ symbols: 'ethusdt, NOPE,BTCUSDT,ETHUSDT' }).expect(200);
    expect(res.body).toEqual({
      quotes: [
        { symbol: 'ETHUSDT', price: '3001.5', at: '2026-11-23T09:59:50.000Z', change24hPercent: '-1.25', source: 'binance', simulated: false },
        { symbol: 'BTCUSDT', price: '60740.00', at: '2026-11-23T09:59:50.000Z', change24hPercent: null, source: 'simulated', simulated: true },
      ],
    });
  });

  it('queues one poll per kind now for followed symbols without a quote (not for quoted, unfollowed or unknown ones)', async () => {
    const polls = async () => (await queues.queue('prices').getJobs(['waiting', 'prioritized', 'delayed'])).filter((j) => j.name === 'prices.poll');
    await request(app()).get('/api/markets/quotes').query({ symbols: 'BTCUSDT,NOPE' }).expect(200);
    // Known but followed by nobody: no poll would fetch them, so none is queued.
    await request(app()).get('/api/markets/quotes').query({ symbols: 'AAPL,EURUSD,ES,SOLUSDT' }).expect(200);
    expect(await polls()).toHaveLength(0);

    const [{ id: userId }] = await db.dataSource.query(`INSERT INTO users (email) VALUES ('first-quotes@example.test') RETURNING id`);
    const [{ id: listId }] = await db.dataSource.query(`INSERT INTO watchlists (user_id, name) VALUES ($1, 'Across markets') RETURNING id`, [userId]);
    await db.dataSource.query(
      `INSERT INTO watchlist_items (watchlist_id, market_id, "order") SELECT $1, id, row_number() OVER (ORDER BY symbol) FROM markets WHERE symbol = ANY($2)`,
      [listId, ['AAPL', 'EURUSD', 'ES', 'SOLUSDT']],
    );
    for (let i = 0; i < 2; i++) await request(app()).get('/api/markets/quotes').query({ symbols: 'BTCUSDT,AAPL,EURUSD,ES,SOLUSDT' }).expect(200);
    expect((await polls()).map((j) => j.data.kind).sort()).toEqual(['crypto', 'stocks']);
    await queues.queue('prices').obliterate({ force: true });
    await db.dataSource.query(`DELETE FROM users WHERE id = $1`, [userId]);
  });

  it('rejects a missing list, more than 100 symbols and malformed symbols', async () => {
    for (const query of [{}, { symbols: '' }, { symbols: Array.from({ length: 101 }, (_, i) => `S${i}`).join(',') }, { symbols: 'BTC USDT' }, { symbols: 'A', x: '1' }]) {
      const res = await request(app()).get('/api/markets/quotes').query(query).expect(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
  });

  it('answers stored bars oldest first with ISO open times, and queues a backfill when fewer are stored than asked', async () => {
    const res = await request(app()).get('/api/markets/btcusdt/bars').query({ interval: '1h', limit: 300 }).expect(200);
    expect(res.body).toEqual({
      symbol: 'BTCUSDT',
      interval: '1h',
      simulated: true,
      bars: [
        { time: '2026-11-23T08:00:00.000Z', open: '100', high: '105.5', low: '100', close: '105.5', volume: '0' },
        { time: '2026-11-23T09:00:00.000Z', open: '103', high: '103', low: '103', close: '103', volume: '0' },
        { time: '2026-11-23T10:00:00.000Z', open: '101', high: '101', low: '101', close: '101', volume: '0' },
      ],
      backfill: { pending: true },
    });
    const jobs = await queues.queue('prices').getJobs(['waiting']);
    expect(jobs.map((j) => [j.id, j.data])).toEqual([['prices.backfill-bars/BTCUSDT/1h/2026-11-23', { symbol: 'BTCUSDT', interval: '1h', limit: 300 }]]);
    // Asking again the same day queues nothing more; enough bars queue nothing at all.
    await request(app()).get('/api/markets/BTCUSDT/bars').query({ interval: '1h', limit: 300 }).expect(200);
    const last = await request(app()).get('/api/markets/BTCUSDT/bars').query({ interval: '1h', limit: 2 }).expect(200);
    expect(last.body.bars.map((b: { time: string }) => b.time)).toEqual(['2026-11-23T09:00:00.000Z', '2026-11-23T10:00:00.000Z']);
    expect(await queues.queue('prices').getJobCounts('waiting')).toEqual({ waiting: 1 });
  });

  it('answers 404 for an unknown symbol and 400 for a bad interval or limit', async () => {
    const missing = await request(app()).get('/api/markets/NOPE/bars').expect(404);
    expect(missing.body.error.code).toBe('not_found');
    for (const query of [{ interval: '2h' }, { limit: '0' }, { limit: '1001' }, { limit: 'ten' }]) {
      const res = await request(app()).get('/api/markets/BTCUSDT/bars').query(query).expect(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
  });
});
