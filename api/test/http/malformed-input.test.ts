import { Writable } from 'node:stream';
import Redis from 'ioredis';
import pino from 'pino';
import request from 'supertest';
import { createDataSource } from '@tickerbell/entities';
import { createApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';
import { AlertsHarness, createAlert, patchAlert, type AlertsUser } from '../support/alerts-support';
import { cuttableDatabase } from '../support/cuttable-database';

/**
 * Issue 12's reproductions, each a 500 before the fix: malformed input is a 400 (or 404 for an id
 * no one can own) naming the field, and an unreachable store is a 503 naming it, with Retry-After.
 */
describe('malformed input and outages (real Express, PostgreSQL and Redis)', () => {
  const harness = new AlertsHarness();
  let user: AlertsUser;

  beforeAll(async () => {
    await harness.start();
    user = await harness.user('malformed@example.com');
  });
  afterAll(() => harness.stop());

  /** An app whose log lines are kept, to see that bad input does not log at error level. */
  function loggedApp(deps: { redis?: Redis; dataSource?: ReturnType<typeof createDataSource> } = {}) {
    const lines: { level: number; msg: string }[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const config = loadApiConfig({ NODE_ENV: 'test', DATABASE_URL: harness.db.url, REDIS_URL: 'redis://127.0.0.1:6379', QUEUE_PREFIX: harness.prefix });
    const logger = pino({ level: 'info' }, sink);
    const app = createApp({ config, dataSource: deps.dataSource ?? harness.db.dataSource, redis: deps.redis ?? harness.redis, queues: harness.queues, logger });
    return { app, errors: () => lines.filter((l) => l.level >= 50) };
  }

  it('a body that is not what its Content-Encoding says is a 400, logged below error level (defect 1)', async () => {
    const { app, errors } = loggedApp();
    const res = await request(app).post('/api/health').set('Content-Type', 'application/json').set('Content-Encoding', 'gzip').send('notgzip');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'bad_request', details: [{ field: 'body' }] });
    expect(errors()).toEqual([]);
  });

  it('a malformed percent-escape or an escaped NUL in a path is a 400 naming the path (defect 2)', async () => {
    for (const path of ['/api/alerts/%C0%AE', '/api/watchlists/%E0%A4%A', '/api/cot/instruments/%00/history']) {
      const res = await user.agent.get(path);
      expect(res.status).toBe(400);
      expect(res.body.error).toMatchObject({ code: 'invalid_path', details: [{ field: 'path' }] });
    }
  });

  it('a NUL character anywhere in a body or a query is a 400 naming the field (defect 3)', async () => {
    const signIn = await request(harness.api).post('/api/auth/callback/credentials').send({ email: 'a\u0000@example.com', password: 'x' });
    expect(signIn.status).toBe(400);
    expect(signIn.body.error).toMatchObject({ code: 'invalid_input', details: [{ field: 'email', message: 'must not contain the NUL character or unpaired surrogates' }] });

    const layout = await user.agent.post('/api/chart-layouts').set('x-csrf-token', user.csrf).send({ name: 'Desk', layout: { panes: [{ note: 'x\u0000' }] } });
    expect(layout.status).toBe(400);
    expect(layout.body.error.details).toEqual([{ field: 'layout.panes.0.note', message: 'must not contain the NUL character or unpaired surrogates' }]);
    const surrogate = await user.agent.post('/api/teams').set('x-csrf-token', user.csrf).send({ name: 'a\ud800b' });
    expect(surrogate.status).toBe(400);
    expect(surrogate.body.error.details).toEqual([{ field: 'name', message: 'must not contain the NUL character or unpaired surrogates' }]);

    const search = await user.agent.get('/api/markets?q=BTC%00');
    expect(search.status).toBe(400);
    expect(search.body.error.details).toEqual([{ field: 'q', message: 'must not contain the NUL character or unpaired surrogates' }]);
    const [{ count }] = await harness.db.dataSource.query(`SELECT count(*)::int AS count FROM chart_layouts`);
    expect(count).toBe(0);
  });

  it('a team, member or invitation id beyond int4 is a 404, like any id the caller cannot own (defect 4)', async () => {
    for (const path of ['/api/teams/2147483648', '/api/teams/99999999999999999999/members', '/api/teams/2147483648/invitations']) {
      const res = await user.agent.get(path);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });

  it('a threshold that is not a number is a 400 naming it, on create and on patch (defect 5)', async () => {
    for (const value of ['abc', '', ' ', '1e5', '-3']) {
      const res = await createAlert(user, { symbol: 'BTCUSDT', name: 'Bad', condition: { type: 'crossing_up', value } });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'condition.value' })]));
    }
    const created = await createAlert(user, { symbol: 'BTCUSDT', name: 'Channel', condition: { type: 'entering_channel', low: '10', high: '20' } });
    expect(created.status).toBe(201);
    for (const condition of [{ type: 'entering_channel', low: 'low', high: '20' }, { type: 'entering_channel', low: '10', high: 'x' }]) {
      const res = await patchAlert(user, created.body.id, { condition });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
    }
  });

  it('with Redis unreachable, Redis routes are a 503 naming Redis with Retry-After (defect 7)', async () => {
    const dead = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    dead.on('error', () => undefined);
    try {
      const { app, errors } = loggedApp({ redis: dead });
      for (const path of ['/api/markets/quotes?symbols=BTCUSDT', '/api/status']) {
        const res = await request(app).get(path);
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.body.error.code).toBe('redis_unavailable');
      }
      const visitor = request.agent(app);
      const { csrfToken } = (await visitor.get('/api/auth/csrf').expect(200)).body;
      const signIn = await visitor.post('/api/auth/callback/credentials').send({ email: 'someone@example.com', password: 'whatever it is', csrfToken });
      expect(signIn.status).toBe(503);
      expect(errors()).toEqual([]);
      const ready = await request(app).get('/api/ready').expect(503);
      // No driver message (hosts, ports) in the public readiness answer.
      expect(ready.body.checks.redis).toMatchObject({ ok: false, error: 'unavailable' });
    } finally {
      dead.disconnect();
    }
  });

  it('with PostgreSQL gone, database routes are a 503 naming the database with Retry-After (defect 7)', async () => {
    const database = await cuttableDatabase(harness.db.url, 'tickerbell-outage-test');
    const { dataSource } = database;
    try {
      const { app } = loggedApp({ dataSource });
      await request(app).get('/api/cot/instruments').expect(200);
      await database.cut();
      for (const path of ['/api/cot/instruments', '/api/exchanges']) {
        const res = await request(app).get(path);
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBe('5');
        expect(res.body.error.code).toBe('database_unavailable');
      }
      const ready = await request(app).get('/api/ready').expect(503);
      expect(ready.body.checks.database).toMatchObject({ ok: false, error: 'unavailable' });
    } finally {
      await database.close();
    }
  });
});
