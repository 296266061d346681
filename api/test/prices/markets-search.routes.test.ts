import pino from 'pino';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createProducerConnection } from '@tickerbell/jobs';
import { MARKET_SEED, SEEDS, runSeeds } from '@tickerbell/jobs/seeds';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { createApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';

describe('GET /api/markets (real Express and PostgreSQL)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = createProducerConnection(testRedisUrl());
  const queues = new JobQueues(redis, prefix);
  const app = () =>
    createApp({
      config: loadApiConfig({ DATABASE_URL: db.url, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: prefix }),
      dataSource: db.dataSource,
      redis,
      queues,
      logger: pino({ level: 'silent' }),
    });
  const symbols = (body: { markets: { symbol: string }[] }) => body.markets.map((m) => m.symbol);

  beforeAll(async () => {
    db = await createTestDatabase();
    await runSeeds(db.dataSource, SEEDS.filter((s) => s.name === '2026-11-markets'));
    // Markets that make the ranking visible: a longer symbol starting with the query, and a name containing it.
    await db.dataSource.query(
      `INSERT INTO markets (symbol, name, type, description) VALUES
        ('SPYG', 'SPDR Portfolio S&P 500 Growth ETF', 'etf', null),
        ('XSP', 'Mini-SPX Index Options on SPY', 'index', null),
        ('PCT_1', 'Fifty % Fund', 'etf', null)`,
    );
  });

  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  it('ranks the exact symbol first, then symbol prefixes, then name matches, case-insensitively', async () => {
    const res = await request(app()).get('/api/markets').query({ q: 'spy' }).expect(200);
    expect(symbols(res.body)).toEqual(['SPY', 'SPYG', 'XSP']);
    expect(res.body.markets[0]).toEqual({
      id: expect.any(Number),
      symbol: 'SPY',
      name: 'SPDR S&P 500 ETF Trust',
      type: 'etf',
      description: 'NYSE Arca: tracks the S&P 500',
    });
  });

  it('matches a name anywhere in it', async () => {
    const res = await request(app()).get('/api/markets').query({ q: 'tether' }).expect(200);
    expect(symbols(res.body).sort()).toEqual(MARKET_SEED.filter((m) => m.name.includes('Tether')).map((m) => m.symbol).sort());
  });

  it('finds an index by its symbol without the caret', async () => {
    const res = await request(app()).get('/api/markets').query({ q: 'gspc' }).expect(200);
    expect(symbols(res.body)).toEqual(['^GSPC']);
  });

  it('filters by type and limits the answer', async () => {
    const crypto = await request(app()).get('/api/markets').query({ type: 'crypto', limit: 3 }).expect(200);
    expect(crypto.body.markets).toHaveLength(3);
    expect(crypto.body.markets.every((m: { type: string }) => m.type === 'crypto')).toBe(true);
    const etfs = await request(app()).get('/api/markets').query({ q: 's', type: 'etf' }).expect(200);
    // Symbol prefixes first; then names containing an s (GLD: SPDR Gold Shares, QQQ: Invesco QQQ Trust).
    expect(symbols(etfs.body)).toEqual(['SPY', 'SPYG', 'GLD', 'QQQ']);
  });

  it('treats LIKE wildcards in the query literally', async () => {
    const res = await request(app()).get('/api/markets').query({ q: '%' }).expect(200);
    expect(symbols(res.body)).toEqual(['PCT_1']);
    const underscore = await request(app()).get('/api/markets').query({ q: 'pct_' }).expect(200);
    expect(symbols(underscore.body)).toEqual(['PCT_1']);
  });

  it('rejects an unknown type, a limit out of range and unknown parameters, naming the field', async () => {
    for (const [query, field] of [
      [{ type: 'bonds' }, 'type'],
      [{ limit: '0' }, 'limit'],
      [{ limit: '51' }, 'limit'],
      [{ q: 'x'.repeat(51) }, 'q'],
    ] as const) {
      const res = await request(app()).get('/api/markets').query(query).expect(400);
      expect(res.body.error).toMatchObject({ code: 'validation_failed', details: [expect.objectContaining({ field })] });
    }
    const extra = await request(app()).get('/api/markets').query({ sort: 'name' }).expect(400);
    expect(extra.body.error.code).toBe('validation_failed');
  });
});
