import { createPublicKey, verify } from 'node:crypto';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createWorkerConnection, fixedClock } from '@tickerbell/jobs';
import { resolveVapidKeys, readPushEnv } from '@tickerbell/jobs/notifications';
import { LocalPushService, browserKeys, decryptPushMessage, type BrowserKeys } from '@tickerbell/jobs/testing/push-service';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers, type WorkersRuntime } from '../../src/runtime';

const logger = pino({ level: 'silent' });

/** Checks a VAPID Authorization header (RFC 8292): ES256 JWT for the push service's origin, signed by `k`. */
function vapidClaims(header: string): { k: string; claims: { aud: string; exp: number; sub: string } } {
  const match = /^vapid t=([^,]+), k=(.+)$/.exec(header);
  if (!match) throw new Error(`not a vapid header: ${header}`);
  const [, jwt, k] = match;
  const [head, claims, signature] = jwt.split('.');
  const raw = Buffer.from(k, 'base64url');
  const key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') }, format: 'jwk' });
  const valid = verify('sha256', Buffer.from(`${head}.${claims}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!valid) throw new Error('bad vapid signature');
  return { k, claims: JSON.parse(Buffer.from(claims, 'base64url').toString()) };
}

describe('notifications: web push to a local push service (real workers, PostgreSQL, Redis)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const service = new LocalPushService();
  const connection = createWorkerConnection(testRedisUrl());
  const queueConnections = [createWorkerConnection(testRedisUrl()), createWorkerConnection(testRedisUrl())];
  const workerQueues = new JobQueues(queueConnections[0], prefix);
  const queues = new JobQueues(queueConnections[1], prefix);
  const clock = fixedClock('2026-11-23T14:30:00Z');
  let runtime: WorkersRuntime;

  beforeAll(async () => {
    db = await createTestDatabase();
    await service.start();
    runtime = await startWorkers({ dataSource: db.dataSource, connection, queues: workerQueues, logger, clock, queueNames: ['notifications'], schedules: [] });
  });

  afterEach(async () => {
    service.received.length = 0;
    service.reply = () => ({ status: 201 });
    await db.dataSource.query('TRUNCATE users CASCADE');
  });

  afterAll(async () => {
    // Closes the workers and their domains: the push sender's sockets with them.
    await runtime.close();
    await workerQueues.close();
    await queues.close();
    connection.disconnect();
    queueConnections.forEach((c) => c.disconnect());
    await service.stop();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  async function subscribedUser(email: string, name: string, push = true): Promise<{ userId: number; keys: BrowserKeys; subscriptionId: number }> {
    const [{ id: userId }] = await db.dataSource.query('INSERT INTO users (email) VALUES ($1) RETURNING id', [email]);
    if (!push) await db.dataSource.query('INSERT INTO user_preferences (user_id, push_notifications) VALUES ($1, false)', [userId]);
    const keys = browserKeys();
    const [{ id: subscriptionId }] = await db.dataSource.query(
      'INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, $2, $3, $4) RETURNING id',
      [userId, service.endpoint(name), keys.p256dh, keys.auth],
    );
    return { userId, keys, subscriptionId };
  }

  async function deliver(userIds: number[], urgency: 'normal' | 'high' = 'normal') {
    await queues.add('notifications.deliver', {
      notification: {
        title: 'New York Stock Exchange now open',
        message: 'New York Stock Exchange has opened for trading',
        type: 'success',
        activityType: 'MARKET_OPEN',
        exchangeId: 'XNYS',
        symbolId: null,
        details: { exchangeId: 'XNYS', importance: 'medium' },
        dedupeKey: `market:XNYS:2026-11-23:opened:${urgency}`,
      },
      push: { ttlSeconds: 3600, urgency, topic: 'market-XNYS', url: '/dashboard/exchanges' },
      email: false,
      userIds,
    });
    await waitForQueuesIdle([queues.queue('notifications')], 20_000);
  }

  async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('condition not met in time');
      await new Promise((r) => setTimeout(r, 25));
    }
  }

  it('sends an aes128gcm message the browser keys decrypt, with TTL, Urgency, Topic and a VAPID signature', async () => {
    const alice = await subscribedUser('alice@example.test', 'alice');
    await deliver([alice.userId]);

    expect(service.received).toHaveLength(1);
    const [push] = service.received;
    const payload = JSON.parse(decryptPushMessage(push.body, alice.keys).toString('utf8'));
    const [{ id }] = await db.dataSource.query('SELECT id FROM notifications WHERE user_id = $1', [alice.userId]);
    expect(payload).toEqual({
      title: 'New York Stock Exchange now open',
      body: 'New York Stock Exchange has opened for trading',
      url: '/dashboard/exchanges',
      id: String(id),
      type: 'success',
      activityType: 'MARKET_OPEN',
      exchangeId: 'XNYS',
      tag: 'market-XNYS',
    });
    expect(push.headers).toMatchObject({ ttl: '3600', urgency: 'normal', topic: 'market-XNYS', 'content-encoding': 'aes128gcm' });
    expect(() => decryptPushMessage(push.body, browserKeys())).toThrow();

    const redis = createWorkerConnection(testRedisUrl());
    const keys = await resolveVapidKeys(redis, prefix, readPushEnv({}));
    redis.disconnect();
    const vapid = vapidClaims(String(push.headers.authorization));
    expect(vapid.k).toBe(keys.publicKey);
    expect(vapid.claims.aud).toBe(service.url);
    expect(vapid.claims.exp * 1000).toBeGreaterThan(Date.now());
    const [sub] = await db.dataSource.query('SELECT last_success_at, failure_count FROM push_subscriptions WHERE id = $1', [alice.subscriptionId]);
    expect(sub).toEqual({ last_success_at: clock.now(), failure_count: 0 });
  });

  it('sets Urgency high when the producer asks for it (alerts)', async () => {
    const alice = await subscribedUser('alert@example.test', 'alert');
    await deliver([alice.userId], 'high');
    expect(service.received.map((p) => p.headers.urgency)).toEqual(['high']);
  });

  it('deletes a subscription the push service answers 410 or 404 for', async () => {
    const gone = await subscribedUser('gone@example.test', 'gone');
    const missing = await subscribedUser('missing@example.test', 'missing');
    const kept = await subscribedUser('kept@example.test', 'kept');
    service.reply = (push) => ({ status: push.path.endsWith('/gone') ? 410 : push.path.endsWith('/missing') ? 404 : 201 });
    await deliver([gone.userId, missing.userId, kept.userId]);

    expect(service.received).toHaveLength(3);
    const left = await db.dataSource.query('SELECT id FROM push_subscriptions ORDER BY id');
    expect(left).toEqual([{ id: kept.subscriptionId }]);
  });

  it('retries a 429 after its Retry-After and a 503 with backoff, then delivers', async () => {
    const limited = await subscribedUser('limited@example.test', 'limited');
    const failing = await subscribedUser('failing@example.test', 'failing');
    service.reply = (_push, index) => (index < 2 ? (_push.path.endsWith('/limited') ? { status: 429, headers: { 'Retry-After': '1' } } : { status: 503 }) : { status: 201 });
    await deliver([limited.userId, failing.userId]);

    const delayed = await queues.queue('notifications').getJobs(['delayed']);
    const delays = Object.fromEntries(delayed.map((j) => [j.data.targets[0].subscriptionId, [j.opts.delay, j.data.attempt]]));
    expect(delays).toEqual({ [limited.subscriptionId]: [1000, 2], [failing.subscriptionId]: [2000, 2] });

    await until(() => service.received.length === 4);
    const paths = service.received.map((p) => p.path.split('/').pop());
    expect(paths.slice(2).sort()).toEqual(['failing', 'limited']);
    const limitedPushes = service.received.filter((p) => p.path.endsWith('/limited'));
    expect(limitedPushes[1].at - limitedPushes[0].at).toBeGreaterThanOrEqual(950);
    expect(JSON.parse(decryptPushMessage(limitedPushes[1].body, limited.keys).toString()).title).toBe('New York Stock Exchange now open');
  });

  it('sends nothing to users who turned push notifications off', async () => {
    const quiet = await subscribedUser('quiet@example.test', 'quiet', false);
    await deliver([quiet.userId]);
    expect(service.received).toEqual([]);
    expect(await db.dataSource.query('SELECT count(*)::int AS n FROM notifications')).toEqual([{ n: 1 }]);
  });
});
