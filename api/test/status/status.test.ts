import Redis from 'ioredis';
import pino from 'pino';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, QUEUE_NAMES, createProducerConnection, heartbeatKey, type WorkerHeartbeat } from '@tickerbell/jobs';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { createApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';

describe('GET /api/status', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = createProducerConnection(testRedisUrl());
  const writer = new Redis(testRedisUrl());
  const queues = new JobQueues(redis, prefix);
  const app = () =>
    createApp({
      config: loadApiConfig({ DATABASE_URL: db.url, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: prefix }),
      dataSource: db.dataSource,
      redis,
      queues,
      logger: pino({ level: 'silent' }),
    });
  const beat = (id: string, running: boolean): WorkerHeartbeat => ({
    id,
    queues: ['housekeeping'],
    startedAt: '2026-11-21T10:00:00.000Z',
    at: '2026-11-21T10:00:10.000Z',
    running,
  });

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    writer.disconnect();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  it('is degraded while no worker serves a queue, with each queue backlog', async () => {
    await queues.add('housekeeping.purge-expired', {});
    const res = await request(app()).get('/api/status').expect(200);
    expect(res.body.status).toBe('degraded');
    expect(res.body.queues.map((q: { name: string }) => q.name)).toEqual(QUEUE_NAMES);
    expect(res.body.queues.find((q: { name: string }) => q.name === 'housekeeping')).toMatchObject({ waiting: 1, workers: 0 });
  });

  it('counts live, running workers per queue from their heartbeats', async () => {
    await writer.set(heartbeatKey(prefix, 'host-a:1'), JSON.stringify(beat('host-a:1', true)), 'EX', 30);
    await writer.set(heartbeatKey(prefix, 'host-b:2'), JSON.stringify(beat('host-b:2', false)), 'EX', 30);
    const res = await request(app()).get('/api/status').expect(200);
    expect(res.body.queues.find((q: { name: string }) => q.name === 'housekeeping').workers).toBe(1);
  });

  it('reports each data source freshness without its error text', async () => {
    await db.dataSource.query(
      `INSERT INTO source_health (source, last_success_at, last_data_at, consecutive_failures, last_error, last_error_at)
       VALUES ('cftc', '2026-11-20T20:31:00Z', '2026-11-18T00:00:00Z', 0, NULL, NULL),
              ('sec-edgar', '2026-11-20T10:00:00Z', '2026-11-20T09:59:00Z', 3, 'connect ETIMEDOUT 10.0.0.7:443', '2026-11-21T09:00:00Z')`,
    );
    const res = await request(app()).get('/api/status').expect(200);
    expect(res.body.sources).toEqual([
      {
        source: 'cftc',
        healthy: true,
        lastSuccessAt: '2026-11-20T20:31:00.000Z',
        lastErrorAt: null,
        lastDataAt: '2026-11-18T00:00:00.000Z',
        consecutiveFailures: 0,
      },
      {
        source: 'sec-edgar',
        healthy: false,
        lastSuccessAt: '2026-11-20T10:00:00.000Z',
        lastErrorAt: '2026-11-21T09:00:00.000Z',
        lastDataAt: '2026-11-20T09:59:00.000Z',
        consecutiveFailures: 3,
      },
    ]);
    expect(JSON.stringify(res.body)).not.toContain('10.0.0.7');
    expect(res.body.status).toBe('degraded');
  });
});
