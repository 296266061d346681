import { join } from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createProducerConnection, fixedClock } from '@tickerbell/jobs';
import { FeedReplaySource, pollNewsSource } from '@tickerbell/jobs/news';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { createApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';

const FIXTURES = join(__dirname, '../../../jobs/src/news/data');
const logger = pino({ level: 'silent' });

describe('news api (real Express and PostgreSQL, the recorded Decrypt feed)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = createProducerConnection(testRedisUrl());
  const queues = new JobQueues(redis, prefix);
  const app = () =>
    createApp({ config: loadApiConfig({ DATABASE_URL: db.url, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: prefix }), dataSource: db.dataSource, redis, queues, logger });

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.dataSource.query(
      `INSERT INTO markets (symbol, name, type) VALUES ('BTCUSDT', 'Bitcoin / Tether', 'crypto'), ('DOGEUSDT', 'Dogecoin / Tether', 'crypto'), ('GC', 'Gold Futures', 'futures')`,
    );
    const source = new FeedReplaySource('https://decrypt.co/feed', join(FIXTURES, 'decrypt-feed-2025-12-12.xml'));
    await pollNewsSource({ dataSource: db.dataSource, clock: fixedClock('2025-12-12T22:10:00Z') }, source, { keep: 500 });
  });

  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  it("GET /api/markets/:symbol/news pages a market's news, newest first, with what matched", async () => {
    const first = await request(app()).get('/api/markets/btcusdt/news?limit=2').expect(200);
    expect(first.body).toMatchObject({ symbol: 'BTCUSDT', page: 1, limit: 2, total: expect.any(Number), replay: true });
    expect(first.body.items).toHaveLength(2);
    expect(first.body.items[0]).toEqual({
      id: expect.any(Number),
      source: 'feed:decrypt.co/feed',
      title: "Vanguard Exec Calls Bitcoin a 'Digital Labubu', Even as Firm Offers Crypto ETF Trading",
      link: 'https://decrypt.co/352201/vanguard-exec-calls-bitcoin-digital-labubu-firm-offers-crypto-etf-trading',
      summary: 'The Vanguard equity head dismissed Bitcoin as speculative, though the firm still expanded client access to crypto ETFs.',
      publishedAt: '2025-12-12T21:59:32.000Z',
      fetchedAt: '2025-12-12T22:10:00.000Z',
      formType: null,
      cik: null,
      company: null,
      matchedBy: 'name',
    });
    const second = await request(app()).get('/api/markets/BTCUSDT/news?limit=2&page=2').expect(200);
    expect(second.body.items[0].publishedAt <= first.body.items[1].publishedAt).toBe(true);
    expect(second.body.items[0].id).not.toBe(first.body.items[1].id);
  });

  it('says replay: false once the items come from a live read of their source', async () => {
    await db.dataSource.query(`UPDATE source_health SET details = jsonb_set(details, '{kind}', '"live"') WHERE source = 'feed:decrypt.co/feed'`);
    try {
      expect((await request(app()).get('/api/markets/BTCUSDT/news?limit=1').expect(200)).body.replay).toBe(false);
    } finally {
      await db.dataSource.query(`UPDATE source_health SET details = jsonb_set(details, '{kind}', '"replay"') WHERE source = 'feed:decrypt.co/feed'`);
    }
  });

  it('answers an empty page for a market no item names, 404 for an unknown market, 400 for a bad page', async () => {
    expect((await request(app()).get('/api/markets/GC/news').expect(200)).body).toEqual({ symbol: 'GC', items: [], page: 1, limit: 20, total: 0, replay: false });
    expect((await request(app()).get('/api/markets/NOPE/news').expect(404)).body.error.code).toBe('not_found');
    await request(app()).get('/api/markets/BTCUSDT/news?limit=1000').expect(400);
    await request(app()).get('/api/markets/BTCUSDT/news?sort=old').expect(400);
  });
});
