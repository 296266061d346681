import express from 'express';
import Redis from 'ioredis';
import pino from 'pino';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createProducerConnection } from '@tickerbell/jobs';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { createApp } from '../src/app';
import { loadApiConfig } from '../src/config';
import { HttpError, errorHandler } from '../src/http/errors';

const logger = pino({ level: 'silent' });

describe('api app (real Express, PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = createProducerConnection(testRedisUrl());
  const queues = new JobQueues(redis, prefix);
  const token = 'a-long-admin-queues-token';

  const app = (env: Record<string, string> = {}, deps: { redis?: Redis } = {}) => {
    const config = loadApiConfig({ DATABASE_URL: db.url, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: prefix, ...env });
    return createApp({ config, dataSource: db.dataSource, redis: deps.redis ?? redis, queues, logger });
  };

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  it('GET /api/health says the process is alive', async () => {
    const res = await request(app()).get('/api/health').expect(200);
    expect(res.body).toMatchObject({ status: 'ok' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('GET /api/ready is 200 when the database and Redis answer', async () => {
    const res = await request(app()).get('/api/ready').expect(200);
    expect(res.body.status).toBe('ready');
    expect(res.body.checks.database).toMatchObject({ ok: true });
    expect(res.body.checks.redis).toMatchObject({ ok: true });
  });

  it('GET /api/ready is 503 naming Redis when Redis is unreachable', async () => {
    const dead = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
    dead.on('error', () => undefined);
    try {
      const res = await request(app({}, { redis: dead })).get('/api/ready').expect(503);
      expect(res.body.status).toBe('not_ready');
      expect(res.body.checks.database.ok).toBe(true);
      expect(res.body.checks.redis).toMatchObject({ ok: false });
      expect(res.body.checks.redis.error).toEqual(expect.any(String));
    } finally {
      dead.disconnect();
    }
  });

  it('answers an unknown api route with the JSON error shape and the request id', async () => {
    const res = await request(app()).get('/api/nothing-here').set('X-Request-Id', 'req-12345678').expect(404);
    expect(res.body).toEqual({
      error: { code: 'not_found', message: 'No route for GET /api/nothing-here', requestId: 'req-12345678' },
    });
    expect(res.headers['x-request-id']).toBe('req-12345678');
  });

  it('ignores a malformed incoming request id and makes its own', async () => {
    const res = await request(app()).get('/api/health').set('X-Request-Id', 'bad id with spaces').expect(200);
    expect(res.headers['x-request-id']).not.toBe('bad id with spaces');
  });

  it('rejects a body that is not JSON with 400 invalid_json', async () => {
    const res = await request(app())
      .post('/api/health')
      .set('Content-Type', 'application/json')
      .send('{"unterminated": ')
      .expect(400);
    expect(res.body.error.code).toBe('invalid_json');
  });

  it('rejects a body over the limit with 413', async () => {
    const res = await request(app({ BODY_LIMIT: '1kb' }))
      .post('/api/health')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ blob: 'x'.repeat(4096) }))
      .expect(413);
    expect(res.body.error.code).toBe('payload_too_large');
  });

  it('sets security headers', async () => {
    const res = await request(app()).get('/api/health');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  describe('bull-board at /admin/queues', () => {
    it('is 401 without ADMIN_QUEUES_TOKEN and without an admin session', async () => {
      const res = await request(app()).get('/admin/queues').expect(401);
      expect(res.body.error.code).toBe('unauthorized');
    });

    it('is 401 without the token or with a wrong one', async () => {
      const res = await request(app({ ADMIN_QUEUES_TOKEN: token })).get('/admin/queues').expect(401);
      expect(res.body.error.code).toBe('unauthorized');
      await request(app({ ADMIN_QUEUES_TOKEN: token })).get('/admin/queues?token=wrong-token-of-same-len').expect(401);
    });

    it('serves the board and its queue API with the token', async () => {
      const agent = request.agent(app({ ADMIN_QUEUES_TOKEN: token }));
      const page = await agent.get(`/admin/queues?token=${token}`).expect(200);
      expect(page.text).toContain('<div id="root">');
      expect(page.headers['set-cookie']?.[0]).toMatch(/HttpOnly/);
      // The UI's own calls ride on the cookie.
      const api = await agent.get('/admin/queues/api/queues').expect(200);
      expect(api.body.queues.map((q: { name: string }) => q.name)).toContain('housekeeping');
      await request(app({ ADMIN_QUEUES_TOKEN: token }))
        .get('/admin/queues/api/queues')
        .set('Authorization', `Bearer ${token}`)
        .expect(200);
    });
  });
});

describe('errorHandler', () => {
  const build = (thrown: unknown) => {
    const mini = express();
    mini.use((_req, res, next) => {
      res.locals.requestId = 'req-abcdefgh';
      next();
    });
    mini.get('/boom', () => {
      throw thrown;
    });
    mini.use(errorHandler(logger));
    return mini;
  };

  it('turns an unexpected error into a 500 without its message, stack or SQL', async () => {
    const error = new Error('relation "secret_table" does not exist');
    const res = await request(build(error)).get('/boom').expect(500);
    expect(res.body).toEqual({
      error: { code: 'internal_error', message: 'Something went wrong on our side', requestId: 'req-abcdefgh' },
    });
    expect(res.text).not.toContain('secret_table');
    expect(res.text).not.toContain('at ');
  });

  it('passes an HttpError through with its status, code, details and headers', async () => {
    const res = await request(build(new HttpError(429, 'rate_limited', 'Slow down', { retryAfter: 5 }, { 'Retry-After': '5' })))
      .get('/boom')
      .expect(429);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body.error).toEqual({ code: 'rate_limited', message: 'Slow down', details: { retryAfter: 5 }, requestId: 'req-abcdefgh' });
  });
});
