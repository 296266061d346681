import pino from 'pino';
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createProducerConnection } from '@tickerbell/jobs';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { createApp } from '../../src/app';
import { loadApiConfig } from '../../src/config';

describe('POST /api/contact', () => {
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
  const valid = { name: 'Grace Hopper', email: 'grace@example.com', message: 'The COT screener is lovely; can it export CSV?' };

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  it('records the message and answers 201', async () => {
    const res = await request(app()).post('/api/contact').send({ ...valid, name: '  Grace Hopper  ' }).expect(201);
    expect(res.body).toEqual({ id: expect.any(Number), received: true });
    const rows = await db.dataSource.query('SELECT name, email, message, ip_address FROM contact_messages WHERE id = $1', [res.body.id]);
    expect(rows).toEqual([{ name: 'Grace Hopper', email: valid.email, message: valid.message, ip_address: expect.any(String) }]);
  });

  it('rejects bad input with 400 naming each field, and stores nothing', async () => {
    const [{ before }] = await db.dataSource.query('SELECT count(*)::int AS before FROM contact_messages');
    const res = await request(app()).post('/api/contact').send({ name: '', email: 'not-an-email', message: 'short' }).expect(400);
    expect(res.body.error.code).toBe('validation_failed');
    expect(res.body.error.details.map((d: { field: string }) => d.field).sort()).toEqual(['email', 'message', 'name']);
    const [{ after }] = await db.dataSource.query('SELECT count(*)::int AS after FROM contact_messages');
    expect(after).toBe(before);
  });

  it('rejects a message over 5,000 characters', async () => {
    await request(app()).post('/api/contact').send({ ...valid, message: 'x'.repeat(5001) }).expect(400);
  });

  it('limits each address to 5 messages per window with 429 and Retry-After', async () => {
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await request(app()).post('/api/contact').send(valid)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    const limited = await request(app()).post('/api/contact').send(valid).expect(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });
});
