import { join } from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createProducerConnection } from '@tickerbell/jobs';
import { importCotRows, openCotFile, recomputeCotAnalyticsFor } from '@tickerbell/jobs/cot';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { createApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';

const SAMPLE = join(__dirname, '../../../jobs/test/fixtures/cot/cftc_tff_futures_only_2022_sample.csv');
const logger = pino({ level: 'silent' });

describe('COT api (real Express and PostgreSQL, the real 2022 sample)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = createProducerConnection(testRedisUrl());
  const queues = new JobQueues(redis, prefix);
  const app = () =>
    createApp({ config: loadApiConfig({ DATABASE_URL: db.url, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: prefix }), dataSource: db.dataSource, redis, queues, logger });

  beforeAll(async () => {
    db = await createTestDatabase();
    const file = openCotFile(SAMPLE);
    const result = await importCotRows(db.dataSource, file.rows, { sourceUrl: file.sourceUrl, now: new Date('2022-08-19T20:00:00Z') });
    await recomputeCotAnalyticsFor(db.dataSource, result.instrumentIds);
  });

  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  it('GET /api/cot/instruments lists every instrument with its latest report', async () => {
    const res = await request(app()).get('/api/cot/instruments').expect(200);
    expect(res.body.items).toHaveLength(4);
    expect(res.body.items.find((i: { cftcCode: string }) => i.cftcCode === '13874A')).toEqual({
      cftcCode: '13874A',
      name: 'E-MINI S&P 500 - CHICAGO MERCANTILE EXCHANGE',
      symbol: 'ES',
      category: 'equity-index',
      exchange: 'CHICAGO MERCANTILE EXCHANGE',
      contractSize: 50,
      isActive: true,
      latestReportDate: '2022-08-16',
      reports: 33,
    });
  });

  it('GET /api/cot/latest gives every instrument\'s latest analytics, by name by default', async () => {
    const res = await request(app()).get('/api/cot/latest').expect(200);
    expect(res.body).toMatchObject({ sort: 'name', order: 'asc', category: null });
    // The bundled 2022 sample is labelled as such, with its newest report date.
    expect(res.body.data).toEqual({ latestReportDate: '2022-08-16', sample: true, stale: true });
    expect(res.body.items.map((i: { instrument: { name: string } }) => i.instrument.name)).toEqual([
      'BITCOIN - CHICAGO MERCANTILE EXCHANGE',
      'E-MINI S&P 500 - CHICAGO MERCANTILE EXCHANGE',
      'EURO FX - CHICAGO MERCANTILE EXCHANGE',
      'UST 10Y NOTE - CHICAGO BOARD OF TRADE',
    ]);
    const euro = res.body.items[2];
    expect(euro).toMatchObject({
      reportDate: '2022-08-16',
      openInterest: 698570,
      // (70967 - 93137) / 698570 and (384008 - 177485) / 698570, x 100.
      netPercent: { leveraged: -3.17, assetManager: 29.56, commercial: -4.56 },
      lookback: 156,
      provisional: false,
    });
    expect(Object.keys(euro.percentileRank)).toEqual(['leveraged', 'commercial', 'assetManager']);
    expect(euro.divergence).toEqual({
      score: euro.percentileRank.leveraged - euro.percentileRank.assetManager,
      type: expect.any(String),
      alertLevel: expect.stringMatching(/^(none|low|medium|high)$/),
    });
  });

  it('sorts the screener by a whitelisted field in either direction', async () => {
    const asc = await request(app()).get('/api/cot/latest?sort=leveragedNetPercent&order=asc').expect(200);
    const values = asc.body.items.map((i: { netPercent: { leveraged: number } }) => i.netPercent.leveraged);
    expect(values).toEqual([...values].sort((a, b) => a - b));
    expect(new Set(values).size).toBe(4);
    const desc = await request(app()).get('/api/cot/latest?sort=leveragedNetPercent').expect(200);
    expect(desc.body.order).toBe('desc');
    expect(desc.body.items.map((i: { netPercent: { leveraged: number } }) => i.netPercent.leveraged)).toEqual([...values].reverse());
  });

  it('filters the screener by category', async () => {
    const res = await request(app()).get('/api/cot/latest?category=crypto').expect(200);
    expect(res.body.items.map((i: { instrument: { symbol: string } }) => i.instrument.symbol)).toEqual(['BTC']);
  });

  it('answers 400 naming the field for an unknown sort, category or parameter', async () => {
    const sort = await request(app()).get('/api/cot/latest?sort=password').expect(400);
    expect(sort.body.error).toMatchObject({ code: 'validation_failed', message: 'Invalid input: sort' });
    const category = await request(app()).get('/api/cot/latest?category=metals').expect(400);
    expect(category.body.error.message).toBe('Invalid input: category');
    await request(app()).get('/api/cot/latest?limit=5').expect(400);
  });

  it('GET /api/cot/instruments/:code/history gives the last N weeks, oldest first, with positions', async () => {
    const res = await request(app()).get('/api/cot/instruments/13874A/history?weeks=4').expect(200);
    expect(res.body.instrument).toMatchObject({ cftcCode: '13874A', symbol: 'ES' });
    expect(res.body.history.map((h: { reportDate: string }) => h.reportDate)).toEqual(['2022-07-26', '2022-08-02', '2022-08-09', '2022-08-16']);
    expect(res.body.history[3]).toMatchObject({
      openInterest: 2346224,
      positions: {
        dealer: { long: 538487, short: 168060, spreading: 24237 },
        assetManager: { long: 988150, short: 612060, spreading: 265976 },
        leveraged: { long: 125609, short: 724278, spreading: 56698 },
        other: { long: 116512, short: 198127, spreading: 3011 },
        nonReportable: { long: 227544, short: 293777 },
      },
    });
    const all = await request(app()).get('/api/cot/instruments/13874A/history').expect(200);
    expect(all.body.weeks).toBe(156);
    expect(all.body.history).toHaveLength(33);
  });

  it('answers 404 for an unknown code and 400 for bad weeks', async () => {
    const missing = await request(app()).get('/api/cot/instruments/999999/history').expect(404);
    expect(missing.body.error).toMatchObject({ code: 'not_found', message: 'No COT instrument with code 999999' });
    for (const weeks of ['0', '-3', 'abc', '1041', '2.5']) {
      const bad = await request(app()).get(`/api/cot/instruments/13874A/history?weeks=${weeks}`).expect(400);
      expect(bad.body.error.message).toBe('Invalid input: weeks');
    }
  });
});
