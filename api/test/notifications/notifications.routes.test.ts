import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import pino from 'pino';
import request from 'supertest';
import { fixedClock } from '@tickerbell/jobs';
import { BUNDLED_EXCHANGE_CALENDARS_PATH, importExchangeCalendarFile, readExchangeCalendarFile } from '@tickerbell/jobs/market-hours';
import { deliverNotifications, type ClientNotification } from '@tickerbell/jobs/notifications';
import { AccountsHarness, csrfOf, signIn, signedInUser, type Agent, cookieHeaderOf } from '../support/accounts-harness';
import { browserKeys } from '@tickerbell/jobs/testing/push-service';
import { SseClient } from './sse-client';
import type { ExchangeView } from '@tickerbell/jobs/market-hours/shapes';

const logger = pino({ level: 'silent' });

describe('notifications api, exchange follows and the live stream (real app, PostgreSQL, Redis)', () => {
  const harness = new AccountsHarness();
  const servers: Server[] = [];
  const streams: SseClient[] = [];
  let alice: { agent: Agent; id: number; csrf: string; cookie: string };
  let bob: { agent: Agent; id: number; csrf: string; cookie: string };

  async function user(email: string) {
    const app = harness.app();
    const agent = request.agent(app);
    const id = await signedInUser(harness, agent, email);
    // Sign in once more to read the session cookie, for the raw http streams.
    const res = await signIn(agent, email);
    const cookie = cookieHeaderOf(res);
    return { agent, id, csrf: await csrfOf(agent), cookie };
  }

  async function insert(userId: number, count: number, title = 'Note'): Promise<string[]> {
    const rows: { id: string }[] = await harness.db.dataSource.query(
      `INSERT INTO notifications (user_id, title, message, type, created_at)
       SELECT $1, $2 || ' ' || g, 'message ' || g, 'info', now() + g * interval '1 second' FROM generate_series(1, $3) g RETURNING id`,
      [userId, title, count],
    );
    return rows.map((r) => String(r.id));
  }

  async function listen(): Promise<string> {
    const server = harness.app().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async function stream(base: string, who: { cookie: string }, headers: Record<string, string> = {}): Promise<SseClient> {
    const client = await SseClient.open(`${base}/api/stream`, { Cookie: who.cookie, ...headers });
    streams.push(client);
    return client;
  }

  beforeAll(async () => {
    await harness.start();
    await importExchangeCalendarFile(harness.db.dataSource, readExchangeCalendarFile(BUNDLED_EXCHANGE_CALENDARS_PATH));
    alice = await user('alice@example.test');
    bob = await user('bob@example.test');
  });

  afterEach(async () => {
    streams.splice(0).forEach((s) => s.close());
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
    await harness.db.dataSource.query('DELETE FROM notifications');
  });

  afterAll(async () => {
    await harness.stop();
  });

  it('lists the signed-in user\'s notifications newest first, 50 a page with a cursor, and the unread count', async () => {
    const ids = await insert(alice.id, 55);
    await insert(bob.id, 3, 'Bob');

    const first = await alice.agent.get('/api/notifications').expect(200);
    expect(first.body.notifications).toHaveLength(50);
    expect(first.body.notifications[0]).toEqual({
      id: ids[54],
      timestamp: expect.any(String),
      read: false,
      title: 'Note 55',
      message: 'message 55',
      type: 'info',
      activityType: null,
      exchangeId: null,
      symbolId: null,
      details: null,
    });
    expect(first.body.unreadCount).toBe(55);
    const second = await alice.agent.get('/api/notifications').query({ cursor: first.body.nextCursor }).expect(200);
    expect(second.body.notifications.map((n: ClientNotification) => n.id)).toEqual(ids.slice(0, 5).reverse());
    expect(second.body.nextCursor).toBeNull();
  });

  it('marks one read, then all read, then clears the list; needs the CSRF token', async () => {
    const ids = await insert(alice.id, 3);
    await alice.agent.post(`/api/notifications/${ids[0]}/read`).expect(403);

    const one = await alice.agent.post(`/api/notifications/${ids[0]}/read`).set('x-csrf-token', alice.csrf).expect(200);
    expect(one.body).toMatchObject({ notification: { id: ids[0], read: true }, unreadCount: 2 });
    const all = await alice.agent.post('/api/notifications/read-all').set('x-csrf-token', alice.csrf).expect(200);
    expect(all.body).toEqual({ updated: 2, unreadCount: 0 });
    const cleared = await alice.agent.delete('/api/notifications').set('x-csrf-token', alice.csrf).expect(200);
    expect(cleared.body).toEqual({ deleted: 3 });
    expect((await alice.agent.get('/api/notifications').expect(200)).body).toEqual({ notifications: [], unreadCount: 0, nextCursor: null });
  });

  it("answers 404 for another user's notification and leaves it untouched; 401 when signed out", async () => {
    const [bobsId] = await insert(bob.id, 1, 'Bob');
    const res = await alice.agent.post(`/api/notifications/${bobsId}/read`).set('x-csrf-token', alice.csrf).expect(404);
    expect(res.body.error.code).toBe('not_found');
    await alice.agent.delete('/api/notifications').set('x-csrf-token', alice.csrf).expect(200);
    expect((await bob.agent.get('/api/notifications').expect(200)).body).toMatchObject({ unreadCount: 1, notifications: [{ id: bobsId, read: false }] });
    await request(harness.app()).get('/api/notifications').expect(401);
    await request(harness.app()).get('/api/stream').expect(401);
  });

  it('follows and unfollows exchanges; GET /api/exchanges reports them, starting from the defaults', async () => {
    const following = async (agent: Agent) =>
      ((await agent.get('/api/exchanges').expect(200)).body as ExchangeView[]).filter((e) => e.following).map((e) => e.id).sort();
    expect(await following(bob.agent)).toEqual(['XLON', 'XNAS', 'XNYS']);

    await bob.agent.put('/api/exchanges/XETR/follow').set('x-csrf-token', bob.csrf).expect(200);
    const res = await bob.agent.delete('/api/exchanges/XNYS/follow').set('x-csrf-token', bob.csrf).expect(200);
    expect(res.body).toEqual({ id: 'XNYS', following: false, followedExchangeIds: ['XETR', 'XLON', 'XNAS'] });
    expect(await following(bob.agent)).toEqual(['XETR', 'XLON', 'XNAS']);
    await bob.agent.put('/api/exchanges/NOPE/follow').set('x-csrf-token', bob.csrf).expect(404);
    expect(await following(alice.agent)).toEqual(['XLON', 'XNAS', 'XNYS']);

    for (const id of ['XETR', 'XLON']) await bob.agent.delete(`/api/exchanges/${id}/follow`).set('x-csrf-token', bob.csrf).expect(200);
    const last = await bob.agent.delete('/api/exchanges/XNAS/follow').set('x-csrf-token', bob.csrf).expect(409);
    expect(last.body.error.code).toBe('last_follow');
    expect(await following(bob.agent)).toEqual(['XNAS']);
  });

  it('relays a notification published through Redis to the user\'s streams on both api instances, and to no one else', async () => {
    const [one, two] = [await listen(), await listen()];
    const aliceOnOne = await stream(one, alice);
    const aliceOnTwo = await stream(two, alice);
    const bobOnTwo = await stream(two, bob);
    expect([aliceOnOne.status, aliceOnTwo.status, bobOnTwo.status]).toEqual([200, 200, 200]);

    // The workers' delivery job, run directly: writes the row and publishes it.
    await deliverNotifications(
      {
        notification: { title: 'NYSE now open', message: 'NYSE has opened for trading', type: 'success', activityType: 'MARKET_OPEN', exchangeId: 'XNYS', symbolId: null, details: { importance: 'medium' }, dedupeKey: 'test:open' },
        push: { ttlSeconds: 60, urgency: 'normal', topic: null, url: '/dashboard/exchanges' },
        email: false,
        userIds: [alice.id],
      },
      { dataSource: harness.db.dataSource, queues: harness.queues, redis: harness.queues.redis, clock: fixedClock('2026-11-23T14:30:00Z'), logger },
    );

    const [onOne] = await aliceOnOne.waitFor(1);
    const [onTwo] = await aliceOnTwo.waitFor(1);
    const [row] = await harness.db.dataSource.query('SELECT id FROM notifications WHERE user_id = $1', [alice.id]);
    for (const event of [onOne, onTwo]) {
      expect(event.event).toBe('notification');
      expect(event.id).toBe(String(row.id));
      expect(JSON.parse(event.data)).toMatchObject({ id: String(row.id), title: 'NYSE now open', type: 'success', exchangeId: 'XNYS', read: false });
    }
    await new Promise((r) => setTimeout(r, 200));
    expect(bobOnTwo.events).toEqual([]);
  });

  it('resumes after Last-Event-ID with what was written meanwhile, then goes on live', async () => {
    const base = await listen();
    const ids = await insert(alice.id, 3);
    const resumed = await stream(base, alice, { 'Last-Event-ID': ids[0] });
    const replayed = await resumed.waitFor(2);
    expect(replayed.map((e) => e.id)).toEqual([ids[1], ids[2]]);

    await deliverNotifications(
      {
        notification: { title: 'Later', message: 'live', type: 'info', activityType: null, exchangeId: null, symbolId: null, details: null, dedupeKey: null },
        push: { ttlSeconds: 60, urgency: 'normal', topic: null, url: '/' },
        email: false,
        userIds: [alice.id],
      },
      { dataSource: harness.db.dataSource, queues: harness.queues, redis: harness.queues.redis, clock: fixedClock('2026-11-23T14:30:00Z'), logger },
    );
    const all = await resumed.waitFor(3);
    expect(JSON.parse(all[2].data).title).toBe('Later');
    expect(BigInt(all[2].id as string)).toBeGreaterThan(BigInt(ids[2]));
  });

  it('hands out one VAPID public key per deployment, on every api instance', async () => {
    const first = await request(harness.app()).get('/api/push/public-key').expect(200);
    const second = await request(harness.app()).get('/api/push/public-key').expect(200);
    expect(Buffer.from(first.body.publicKey, 'base64url')).toHaveLength(65);
    expect(second.body.publicKey).toBe(first.body.publicKey);
  });

  it('stores, takes over and deletes push subscriptions of the signed-in user', async () => {
    const keys = browserKeys();
    const subscription = { endpoint: 'https://push.example.test/send/abc', expirationTime: null, keys: { p256dh: keys.p256dh, auth: keys.auth } };
    const created = await alice.agent.post('/api/push/subscriptions').set('x-csrf-token', alice.csrf).send(subscription).expect(201);
    // The same browser, now signed in as Bob: the subscription follows the session user.
    const taken = await bob.agent.post('/api/push/subscriptions').set('x-csrf-token', bob.csrf).send(subscription).expect(201);
    expect(taken.body.id).toBe(created.body.id);
    const rows = await harness.db.dataSource.query('SELECT user_id, p256dh, auth FROM push_subscriptions');
    expect(rows).toEqual([{ user_id: bob.id, p256dh: keys.p256dh, auth: keys.auth }]);

    await alice.agent.delete('/api/push/subscriptions').set('x-csrf-token', alice.csrf).send({ endpoint: subscription.endpoint }).expect(404);
    await bob.agent.delete('/api/push/subscriptions').set('x-csrf-token', bob.csrf).send({ endpoint: subscription.endpoint }).expect(204);
    expect(await harness.db.dataSource.query('SELECT id FROM push_subscriptions')).toEqual([]);
  });

  it('refuses subscriptions with bad keys or a plain-http endpoint elsewhere than this machine', async () => {
    const keys = browserKeys();
    const badKey = await alice.agent
      .post('/api/push/subscriptions')
      .set('x-csrf-token', alice.csrf)
      .send({ endpoint: 'https://push.example.test/x', keys: { p256dh: keys.auth, auth: keys.auth } })
      .expect(400);
    expect(badKey.body.error.details).toEqual([{ field: 'keys.p256dh', message: '65 bytes, base64url' }]);
    const http = await alice.agent
      .post('/api/push/subscriptions')
      .set('x-csrf-token', alice.csrf)
      .send({ endpoint: 'http://push.example.test/x', keys: { p256dh: keys.p256dh, auth: keys.auth } })
      .expect(400);
    expect(http.body.error.details).toEqual([{ field: 'endpoint', message: 'must be an https URL' }]);
  });
});
