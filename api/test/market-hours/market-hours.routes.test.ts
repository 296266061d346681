import express from 'express';
import pino from 'pino';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createProducerConnection, fixedClock, type Clock } from '@tickerbell/jobs';
import { BUNDLED_EXCHANGE_CALENDARS_PATH, importExchangeCalendarFile, readExchangeCalendarFile } from '@tickerbell/jobs/market-hours';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { createApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';
import { errorHandler } from '../../src/http/errors';
import type { ExchangeView } from '@tickerbell/jobs/market-hours/shapes';
import { marketHoursRoutes } from '../../src/market-hours/market-hours.routes';

const logger = pino({ level: 'silent' });

describe('GET /api/exchanges (real Express and PostgreSQL, fixed clock)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = createProducerConnection(testRedisUrl());
  const queues = new JobQueues(redis, prefix);

  /** The real app, its clock fixed. */
  const app = (clock: Clock) => {
    const config = loadApiConfig({ DATABASE_URL: db.url, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: prefix });
    return createApp({ config, dataSource: db.dataSource, redis, queues, logger, clock });
  };

  const byId = (body: ExchangeView[]) => new Map(body.map((e) => [e.id, e]));

  beforeAll(async () => {
    db = await createTestDatabase();
    await importExchangeCalendarFile(db.dataSource, readExchangeCalendarFile(BUNDLED_EXCHANGE_CALENDARS_PATH));
  });

  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  it('returns every exchange in the spec client shape plus status, next transition and following', async () => {
    const res = await request(app(fixedClock('2026-11-23T15:00:00Z'))).get('/api/exchanges').expect(200);
    const [count] = await db.dataSource.query('SELECT count(*)::int AS n FROM exchanges');
    expect(res.body).toHaveLength(count.n);
    expect(byId(res.body).get('XNYS')).toEqual({
      id: 'XNYS',
      name: 'New York Stock Exchange',
      location: 'New York, United States',
      open: '09:30',
      close: '16:00',
      timezone: 'America/New_York',
      days: [1, 2, 3, 4, 5],
      breakStart: null,
      breakEnd: null,
      status: 'open',
      nextTransition: { kind: 'close', at: '2026-11-23T21:00:00.000Z' },
      following: false,
    });
  });

  it('carries the lunch break of the exchanges that have one, and null for those that trade through', async () => {
    const list = byId((await request(app(fixedClock('2026-11-24T02:00:00Z'))).get('/api/exchanges').expect(200)).body);
    expect(list.get('XHKG')).toMatchObject({ open: '09:30', close: '16:00', breakStart: '12:00', breakEnd: '13:00' });
    expect(list.get('XTKS')).toMatchObject({ open: '09:00', close: '15:30', breakStart: '11:30', breakEnd: '12:30' });
    expect(list.get('XLON')).toMatchObject({ breakStart: null, breakEnd: null });
  });

  it('computes each status at the injected instant, not the wall clock', async () => {
    // Wednesday 2026-11-25 03:00Z: Tokyo at lunch (12:00 JST), Riyadh before open, New York at night.
    const res = await request(app(fixedClock('2026-11-25T03:00:00Z'))).get('/api/exchanges').expect(200);
    const list = byId(res.body);
    expect(list.get('XTKS')).toMatchObject({ status: 'lunch', nextTransition: { kind: 'break_end', at: '2026-11-25T03:30:00.000Z' } });
    expect(list.get('XSAU')).toMatchObject({ status: 'closed', nextTransition: { kind: 'open', at: '2026-11-25T07:00:00.000Z' } });
    expect(list.get('XNYS')).toMatchObject({ status: 'closed', nextTransition: { kind: 'open', at: '2026-11-25T14:30:00.000Z' } });
  });

  it('reports holidays and weekends', async () => {
    const thanksgiving = byId((await request(app(fixedClock('2026-11-26T16:00:00Z'))).get('/api/exchanges').expect(200)).body);
    expect(thanksgiving.get('XNYS')).toMatchObject({ status: 'holiday', nextTransition: { kind: 'open', at: '2026-11-27T14:30:00.000Z' } });
    expect(thanksgiving.get('XLON')?.status).toBe('open');
    // Labour Thanksgiving Day in Japan, from the XTKS session fixture.
    const tokyoHoliday = byId((await request(app(fixedClock('2026-11-23T03:00:00Z'))).get('/api/exchanges').expect(200)).body);
    expect(tokyoHoliday.get('XTKS')).toMatchObject({ status: 'holiday', nextTransition: { kind: 'open', at: '2026-11-24T00:00:00.000Z' } });

    const friday = byId((await request(app(fixedClock('2026-11-27T09:00:00Z'))).get('/api/exchanges').expect(200)).body);
    expect(friday.get('XSAU')?.status).toBe('weekend');
  });

  it('marks the exchanges the user follows through the followedExchangeIds seam', async () => {
    const router = express()
      .use('/api', marketHoursRoutes({ dataSource: db.dataSource, clock: fixedClock('2026-11-23T15:00:00Z'), followedExchangeIds: async () => new Set(['XLON']) }))
      .use(errorHandler(logger));
    const list = byId((await request(router).get('/api/exchanges').expect(200)).body);
    expect(list.get('XLON')?.following).toBe(true);
    expect(list.get('XNYS')?.following).toBe(false);
  });
});
