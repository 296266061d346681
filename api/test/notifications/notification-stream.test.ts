import http, { type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createProducerConnection } from '@tickerbell/jobs';
import { publishNotifications, readPushEnv } from '@tickerbell/jobs/notifications';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { errorHandler } from '../../src/http/errors';
import { notificationsRoutes } from '../../src/notifications/notifications.routes';
import { SseClient } from './sse-client';
import { entitlementsFromConfig } from '@tickerbell/jobs/billing';

const logger = pino({ level: 'silent' });

describe('GET /api/stream: heartbeat and relaying (routes alone, a stand-in session user)', () => {
  let db: TestDatabase;
  let server: Server;
  let base: string;
  const prefix = testQueuePrefix();
  const redis = createProducerConnection(testRedisUrl());
  const queues = new JobQueues(redis, prefix);

  beforeAll(async () => {
    db = await createTestDatabase();
    const app = express();
    app.use(express.json());
    // The session lookup of the real app: the route runs a moment after the body was read.
    app.use((_req, _res, next) => setTimeout(next, 5));
    // The session stand-in: the user id comes from a header.
    app.use((req, _res, next) => {
      const id = Number(req.get('x-test-user'));
      if (id) req.user = { id, name: null, email: `u${id}@example.test`, image: null, role: 'member', isVerified: true };
      next();
    });
    app.use('/api', notificationsRoutes({ config: readPushEnv({ NODE_ENV: 'test' }), dataSource: db.dataSource, redis, queues, logger, streamHeartbeatMs: 100, entitlements: entitlementsFromConfig({ BILLING_GRACE_DAYS: 7, BILLING_SELF_HOSTED_LIMITS: {} }) }));
    app.use(errorHandler(logger));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await queues.close();
    redis.disconnect();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  it('answers with an event stream and sends heartbeat comments while idle', async () => {
    const client = await SseClient.open(`${base}/api/stream`, { 'x-test-user': '1' });
    try {
      await new Promise((r) => setTimeout(r, 350));
      expect(client.status).toBe(200);
      expect(client.comments.filter((c) => c === 'heartbeat').length).toBeGreaterThanOrEqual(2);
      expect(client.events).toEqual([]);
    } finally {
      client.close();
    }
  });

  it('sends a message published for the user once, and ignores malformed messages', async () => {
    const client = await SseClient.open(`${base}/api/stream`, { 'x-test-user': '7' });
    try {
      await redis.publish(`${prefix}:notifications`, 'not json');
      const notification = { id: '42', timestamp: '2026-11-23T14:30:00.000Z', read: false, title: 'T', message: 'M', type: 'info' as const, activityType: null, exchangeId: null, symbolId: null, details: null };
      // The same id twice (a redelivered batch): one event.
      await publishNotifications(redis, prefix, [{ userId: 7, notification }, { userId: 7, notification }, { userId: 8, notification: { ...notification, id: '43' } }]);
      const [event] = await client.waitFor(1);
      await new Promise((r) => setTimeout(r, 150));
      expect(client.events).toHaveLength(1);
      expect(event).toEqual({ id: '42', event: 'notification', data: JSON.stringify(notification) });
    } finally {
      client.close();
    }
  });

  it('keeps a stream whose GET carried a body, and leaves no subscription behind once its client goes (found by the fuzz test)', async () => {
    const subscribers = async () => ((await redis.pubsub('NUMSUB', `${prefix}:notifications`)) as [string, number])[1];
    // A consumed request body ends the request itself early: only the response's close says the client left.
    for (const body of [undefined, '{"a":1}']) {
      const comments = await new Promise<string>((resolve, reject) => {
        const headers: Record<string, string> = { 'x-test-user': '9', ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}) };
        const req = http.request(`${base}/api/stream`, { method: 'GET', headers }, (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          setTimeout(() => {
            res.destroy();
            resolve(text);
          }, 350);
        });
        req.on('error', reject);
        req.end(body);
      });
      expect([body, comments.split(': heartbeat').length - 1 >= 2]).toEqual([body, true]);
    }
    const deadline = Date.now() + 2000;
    while ((await subscribers()) > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await subscribers()).toBe(0);
  });
});
