import type Redis from 'ioredis';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { deliverNotifications } from '../../src/notifications/notification-delivery';
import { notificationChannel, notificationMessageSchema, type NotificationMessage } from '../../src/notifications/notification-channel';
import type { NotificationContent, PushOptions } from '../../src/notifications/notification-content';
import { fanOutToFollowers } from '../../src/notifications/fan-out';
import { MAX_PUSH_TARGETS, notificationsJobIds } from '../../src/notifications/notifications.jobs';
import { followersOf } from '../../src/notifications/notifications.store';
import { dispatchNotifications, notify, writeNotifications, type NotificationRequest } from '../../src/notifications/notify';
import { lazyPushSender } from '../../src/notifications/push-delivery';
import { resolveVapidKeys } from '../../src/notifications/vapid-keys';
import { readPushEnv } from '../../src/notifications/notifications.config';
import { fixedClock } from '../../src/runtime/clock';
import type { JobContext } from '../../src/runtime/job-handler';
import { JobQueues } from '../../src/runtime/job-queues';
import { createWorkerConnection } from '../../src/runtime/redis';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';

const PUSH: PushOptions = { ttlSeconds: 600, urgency: 'normal', topic: 'test', url: '/' };
const NOW = new Date('2026-11-23T14:30:00Z');

/** The one way to notify and the one fan-out, on real PostgreSQL and Redis. */
describe('notifications: notify() and fanOutToFollowers() (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  const closers: (() => Promise<void> | void)[] = [];
  const prefixes: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await db.dataSource.query('TRUNCATE users, notifications, push_subscriptions CASCADE');
  });

  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeysWithPrefix(testRedisUrl(), prefix);
    await db.drop();
  });

  /** A context on its own prefix, and what it publishes on the live channel. */
  async function setup(): Promise<{ context: JobContext; live: NotificationMessage[]; drained: () => Promise<void> }> {
    const prefix = testQueuePrefix();
    prefixes.push(prefix);
    const redis: Redis = createWorkerConnection(testRedisUrl());
    const queues = new JobQueues(redis, prefix);
    const subscriber: Redis = createWorkerConnection(testRedisUrl());
    const live: NotificationMessage[] = [];
    let sentinels = 0;
    subscriber.on('message', (_channel: string, text: string) => {
      const message = JSON.parse(text);
      if (message === 'sentinel') sentinels++;
      else live.push(notificationMessageSchema.parse(message));
    });
    await subscriber.subscribe(notificationChannel(prefix));
    closers.push(async () => {
      subscriber.disconnect();
      await queues.close();
      redis.disconnect();
    });
    const context: JobContext = { dataSource: db.dataSource, queues, redis, clock: fixedClock(NOW), logger: pino({ level: 'silent' }) };
    /** Resolves once everything published before it has arrived (pub/sub keeps the order of one connection). */
    const drained = async () => {
      const expected = sentinels + 1;
      await redis.publish(notificationChannel(prefix), JSON.stringify('sentinel'));
      const deadline = Date.now() + 5000;
      while (sentinels < expected) {
        if (Date.now() > deadline) throw new Error('the sentinel did not arrive');
        await new Promise((r) => setTimeout(r, 10));
      }
    };
    return { context, live, drained };
  }

  async function users(emails: string[]): Promise<number[]> {
    const rows: { id: number }[] = await db.dataSource.query('INSERT INTO users (email) SELECT unnest($1::varchar[]) RETURNING id', [emails]);
    return rows.map((r) => r.id);
  }

  async function subscription(userId: number, name: string): Promise<number> {
    const [{ id }]: { id: number }[] = await db.dataSource.query(
      `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, $2, 'p', 'a') RETURNING id`,
      [userId, `https://push.example.test/${name}`],
    );
    return id;
  }

  async function rows(dedupeKey?: string): Promise<{ id: string; user_id: number; title: string; dedupe_key: string | null; details: unknown }[]> {
    return db.dataSource.query(
      `SELECT id, user_id, title, dedupe_key, details FROM notifications ${dedupeKey ? 'WHERE dedupe_key = $1' : ''} ORDER BY id`,
      dedupeKey ? [dedupeKey] : [],
    );
  }

  const request = (recipients: number[], over: Partial<NotificationRequest> = {}): NotificationRequest => ({
    recipients,
    content: { title: 'NYSE now open', message: 'NYSE has opened for trading', type: 'success', activityType: 'MARKET_OPEN', exchangeId: 'XNYS', details: { importance: 'medium' } },
    dedupeKey: 'test:open',
    channels: { push: PUSH, email: { to: 'opted-in' }, telegram: null },
    ...over,
  });

  it('writes one row per recipient, publishes each, queues pushes and emails; the same dedupe key again does nothing', async () => {
    const { context, live, drained } = await setup();
    const [alice, bob, gone] = await users(['alice@example.test', 'bob@example.test', 'gone@example.test']);
    await db.dataSource.query('UPDATE users SET deleted_at = now() WHERE id = $1', [gone]);
    await db.dataSource.query('INSERT INTO user_preferences (user_id, email_notifications) VALUES ($1, true)', [bob]);
    const [aliceBrowser, bobBrowser] = [await subscription(alice, 'a'), await subscription(bob, 'b')];

    const first = await notify(context, [request([alice, bob, gone])], { now: NOW });
    expect(first).toEqual({ inserted: 2, published: 2, pushTargets: 2, emails: 1, telegrams: 0 });
    const written = await rows('test:open');
    expect(written.map((r) => r.user_id)).toEqual([alice, bob]);
    await drained();
    expect(live.map((m) => [m.userId, m.notification.id, m.notification.title])).toEqual(written.map((r) => [r.user_id, r.id, 'NYSE now open']));

    const targets = written.map((r, i) => ({ notificationId: r.id, subscriptionId: [aliceBrowser, bobBrowser][i] }));
    const push = await context.queues.queue('notifications').getJob(notificationsJobIds.push(targets));
    expect(push?.data).toEqual({ targets, push: PUSH, attempt: 1 });
    const mail = await context.queues.queue('mail').getJob(notificationsJobIds.mail(written[1].id));
    expect(mail?.data).toMatchObject({ to: 'bob@example.test', subject: 'NYSE now open' });
    expect(mail?.data.text).toContain('NYSE has opened for trading.');

    // A second producer run (a duplicated job): nothing written, published or queued.
    expect(await notify(context, [request([alice, bob])], { now: NOW })).toEqual({ inserted: 0, published: 0, pushTargets: 0, emails: 0, telegrams: 0 });
    await drained();
    expect(live).toHaveLength(2);
    expect(await rows()).toHaveLength(2);
    expect(await context.queues.queue('notifications').count()).toBe(1);
    expect(await context.queues.queue('mail').count()).toBe(1);
  });

  it('a retry (existing: include) dispatches the existing rows again under the same job ids, writing nothing', async () => {
    const { context, live, drained } = await setup();
    const [alice] = await users(['alice@example.test']);
    await subscription(alice, 'a');
    await notify(context, [request([alice])], { now: NOW });
    const retried = await notify(context, [request([alice])], { now: NOW, existing: 'include' });
    expect(retried).toEqual({ inserted: 0, published: 1, pushTargets: 1, emails: 0, telegrams: 0 });
    await drained();
    // Published twice (the clients key on the id), queued once.
    expect(new Set(live.map((m) => m.notification.id)).size).toBe(1);
    expect(live).toHaveLength(2);
    expect(await rows()).toHaveLength(1);
    expect(await context.queues.queue('notifications').count()).toBe(1);
  });

  it('notifications.deliver retried after its first attempt died: the whole batch once, its deliveries queued again under the same ids', async () => {
    const { context, live, drained } = await setup();
    const [alice, bob] = await users(['alice@example.test', 'bob@example.test']);
    await subscription(alice, 'a');
    await subscription(bob, 'b');
    const notification: NotificationContent = {
      title: 'NYSE opening soon',
      message: 'NYSE will open in 10 minutes',
      type: 'warning',
      activityType: 'MARKET_OPENING_SOON',
      exchangeId: 'XNYS',
      symbolId: null,
      details: { importance: 'high' },
      dedupeKey: 'test:soon',
    };
    const payload = { notification, push: PUSH, email: false, userIds: [bob, alice] };
    expect(await deliverNotifications(payload, context)).toEqual({ inserted: 2, published: 2, pushTargets: 2, emails: 0, telegrams: 0 });
    const pushJobs = await context.queues.queue('notifications').getJobs(['waiting']);
    await context.queues.queue('notifications').drain();

    const retry = { ...context, job: { attemptsMade: 1 } as JobContext['job'] };
    expect(await deliverNotifications(payload, retry)).toEqual({ inserted: 0, published: 2, pushTargets: 2, emails: 0, telegrams: 0 });
    const again = await context.queues.queue('notifications').getJobs(['waiting']);
    expect(again.map((j) => j.id).sort()).toEqual(pushJobs.map((j) => j.id).sort());
    expect(again).toHaveLength(1);
    // Rows in user id order whatever the payload's order.
    expect((await rows('test:soon')).map((r) => r.user_id)).toEqual([alice, bob]);
    await drained();
    expect(live).toHaveLength(4);
  });

  it('inside a caller\'s transaction: a rollback leaves no row and nothing published or queued; after a commit the dispatch delivers', async () => {
    const { context, live, drained } = await setup();
    const [alice] = await users(['alice@example.test']);
    await subscription(alice, 'a');

    await expect(
      db.dataSource.transaction(async (manager) => {
        const written = await writeNotifications(manager, [request([alice])], { now: NOW });
        expect(written).toHaveLength(1);
        // Visible inside the transaction (a caller links it, as alert_logs.notification_id does).
        const [{ n }] = await manager.query('SELECT count(*)::int AS n FROM notifications WHERE id = $1', [written[0].row.id]);
        expect(n).toBe(1);
        throw new Error('the caller failed');
      }),
    ).rejects.toThrow('the caller failed');
    expect(await rows()).toEqual([]);
    await drained();
    expect(live).toEqual([]);
    expect(await context.queues.queue('notifications').count()).toBe(0);

    const written = await db.dataSource.transaction((manager) => writeNotifications(manager, [request([alice])], { now: NOW }));
    expect(await dispatchNotifications(context, written)).toEqual({ published: 1, pushTargets: 1, emails: 0, telegrams: 0 });
    await drained();
    expect(live.map((m) => m.notification.id)).toEqual([written[0].row.id]);
    expect(await context.queues.queue('notifications').count()).toBe(1);
  });

  it('per-request content and channels in one call: its own push options, email to all with its own text, or none', async () => {
    const { context } = await setup();
    const [alice, bob] = await users(['alice@example.test', 'bob@example.test']);
    const [aliceBrowser, bobBrowser] = [await subscription(alice, 'a'), await subscription(bob, 'b')];
    const urgent: PushOptions = { ttlSeconds: 3600, urgency: 'high', topic: null, url: '/dashboard/alerts' };
    const result = await notify(
      context,
      [
        request([alice], { dedupeKey: 'alert:1', content: { title: 'BTC', message: 'BTC crossed', type: 'warning', activityType: 'MARKET_ALERT_PRICE', details: { useAudio: true } }, channels: { push: urgent, email: { to: 'all', text: 'Your alert.' }, telegram: null } }),
        request([bob], { dedupeKey: 'alert:2', content: { title: 'ETH', message: 'ETH crossed', type: 'warning', activityType: 'MARKET_ALERT_PRICE', details: null }, channels: { push: null, email: null, telegram: null } }),
        request([bob], { dedupeKey: null, channels: { push: PUSH, email: null, telegram: null } }),
      ],
      { now: NOW },
    );
    expect(result).toEqual({ inserted: 3, published: 3, pushTargets: 2, emails: 1, telegrams: 0 });
    const [btc, eth, open] = await rows();
    expect([btc.title, eth.title, open.title]).toEqual(['BTC', 'ETH', 'NYSE now open']);
    expect([btc.details, eth.details, open.dedupe_key]).toEqual([{ useAudio: true }, null, null]);
    const alertPush = await context.queues.queue('notifications').getJob(notificationsJobIds.push([{ notificationId: btc.id, subscriptionId: aliceBrowser }]));
    expect(alertPush?.data.push).toEqual(urgent);
    const marketPush = await context.queues.queue('notifications').getJob(notificationsJobIds.push([{ notificationId: open.id, subscriptionId: bobBrowser }]));
    expect(marketPush?.data.push).toEqual(PUSH);
    // 'all': the alert's own setting, without the user's email preference.
    const mail = await context.queues.queue('mail').getJob(notificationsJobIds.mail(btc.id));
    expect(mail?.data).toEqual({ to: 'alice@example.test', subject: 'BTC', text: 'Your alert.', userId: alice });
    // The push preference rules over every producer's channels.
    await db.dataSource.query('INSERT INTO user_preferences (user_id, push_notifications) VALUES ($1, false)', [alice]);
    expect(await notify(context, [request([alice], { dedupeKey: 'alert:3' })], { now: NOW })).toMatchObject({ inserted: 1, pushTargets: 0 });
  });

  it('splits pushes into jobs of MAX_PUSH_TARGETS browsers, by notification, with ids that follow from the targets', async () => {
    const { context } = await setup();
    const [alice, bob] = await users(['alice@example.test', 'bob@example.test']);
    // Alice has MAX_PUSH_TARGETS browsers, Bob one: one job full of Alice's, one with Bob's.
    await db.dataSource.query(
      `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) SELECT $1, 'https://push.example.test/a/' || g, 'p', 'a' FROM generate_series(1, $2) g`,
      [alice, MAX_PUSH_TARGETS],
    );
    const bobBrowser = await subscription(bob, 'b');
    expect(await notify(context, [request([alice, bob])], { now: NOW })).toMatchObject({ pushTargets: MAX_PUSH_TARGETS + 1 });
    const jobs = await context.queues.queue('notifications').getJobs(['waiting']);
    const sizes = jobs.map((j) => (j.data as { targets: unknown[] }).targets.length).sort((a, b) => a - b);
    expect(sizes).toEqual([1, MAX_PUSH_TARGETS]);
    const [, bobRow] = await rows();
    expect(jobs.map((j) => j.id)).toContain(notificationsJobIds.push([{ notificationId: bobRow.id, subscriptionId: bobBrowser }]));
    for (const job of jobs) expect(job.id).toBe(notificationsJobIds.push(job.data.targets));
  });

  it('lazyPushSender: one sender per process, built on first use from the deployment\'s VAPID keys, closed at shutdown', async () => {
    const { context } = await setup();
    const env = readPushEnv({ NODE_ENV: 'test' });
    const senders = lazyPushSender({ redis: context.redis, prefix: context.queues.prefix, clock: context.clock, logger: context.logger }, env);
    const [first, second] = await Promise.all([senders.get(), senders.get()]);
    expect(second).toBe(first);
    const keys = await resolveVapidKeys(context.redis, context.queues.prefix, env);
    expect(keys.source).toBe('stored');
    await senders.close();
    // After a close, the next use builds a new one (with the same stored keys).
    const third = await senders.get();
    expect(third).not.toBe(first);
    await senders.close();
  });

  describe('fanOutToFollowers', () => {
    const content = (dedupeKey: string): NotificationContent & { dedupeKey: string } => ({
      title: 'ES: leveraged funds at a long extreme',
      message: 'Leveraged funds are at the 95th percentile.',
      type: 'info',
      activityType: 'MARKET_ALERT_TECHNICAL',
      exchangeId: null,
      symbolId: 'ES',
      details: null,
      dedupeKey,
    });

    async function follows(userIds: number[], instrumentId: number): Promise<void> {
      await db.dataSource.query(
        `INSERT INTO cot_instruments (id, cftc_code, instrument_name) VALUES ($1, $2, 'TEST') ON CONFLICT DO NOTHING`,
        [instrumentId, `T${instrumentId}`],
      );
      await db.dataSource.query('INSERT INTO cot_follows (user_id, instrument_id) SELECT unnest($1::int[]), $2', [userIds, instrumentId]);
    }

    afterEach(async () => {
      await db.dataSource.query('TRUNCATE cot_instruments CASCADE');
    });

    it('pages the audience by user id: one delivery job per batch, the last one short, followers only', async () => {
      const { context } = await setup();
      const ids = await users(Array.from({ length: 7 }, (_, i) => `f${i}@example.test`));
      const [outsider, deleted] = ids.slice(5);
      const followers = ids.slice(0, 5);
      await follows([...followers, deleted], 1);
      await follows([outsider], 2);
      await db.dataSource.query('UPDATE users SET deleted_at = now() WHERE id = $1', [deleted]);

      const fanOut = { audience: followersOf('cot_follows', 'instrument_id', 1), notification: content('cot:T1:2022-08-16'), push: PUSH, email: true, batchSize: 2 };
      expect(await fanOutToFollowers(context, fanOut)).toEqual({ batches: 3, users: 5 });
      const jobs = await context.queues.queue('notifications').getJobs(['waiting']);
      const batches = jobs.map((j) => j.data.userIds as number[]).sort((a, b) => a[0] - b[0]);
      expect(batches).toEqual([followers.slice(0, 2), followers.slice(2, 4), followers.slice(4)]);
      for (const job of jobs) expect(job.id).toBe(notificationsJobIds.deliver('cot:T1:2022-08-16', job.data.userIds[0]));
      expect(jobs.every((j) => j.name === 'notifications.deliver' && j.data.email === true)).toBe(true);

      // A retried fan-out re-adds the same ids: nothing new is queued.
      expect(await fanOutToFollowers(context, fanOut)).toEqual({ batches: 3, users: 5 });
      expect(await context.queues.queue('notifications').count()).toBe(3);
    });

    it('an audience that fills its last batch exactly queues no empty batch; an empty audience queues nothing', async () => {
      const { context } = await setup();
      const ids = await users(Array.from({ length: 4 }, (_, i) => `g${i}@example.test`));
      await follows(ids, 3);
      const fanOut = { audience: followersOf('cot_follows', 'instrument_id', 3), notification: content('cot:T3:2022-08-16'), push: PUSH, email: false, batchSize: 2 };
      expect(await fanOutToFollowers(context, fanOut)).toEqual({ batches: 2, users: 4 });
      expect(await fanOutToFollowers(context, { ...fanOut, audience: followersOf('cot_follows', 'instrument_id', 4), notification: content('cot:T4:2022-08-16') })).toEqual({ batches: 0, users: 0 });
      expect(await context.queues.queue('notifications').count()).toBe(2);
      await expect(fanOutToFollowers(context, { ...fanOut, batchSize: 0 })).rejects.toThrow(RangeError);
      expect(() => followersOf('cot_follows; DROP TABLE users', 'instrument_id', 1)).toThrow();
    });

    it('the delivery of every batch, run twice, notifies each follower exactly once', async () => {
      const { context } = await setup();
      const ids = await users(Array.from({ length: 5 }, (_, i) => `h${i}@example.test`));
      await follows(ids, 5);
      const fanOut = { audience: followersOf('cot_follows', 'instrument_id', 5), notification: content('cot:T5:2022-08-16'), push: PUSH, email: false, batchSize: 2 };
      await fanOutToFollowers(context, fanOut);
      const jobs = await context.queues.queue('notifications').getJobs(['waiting']);
      for (const job of [...jobs, ...jobs]) await deliverNotifications(job.data, context);
      expect((await rows('cot:T5:2022-08-16')).map((r) => r.user_id).sort((a, b) => a - b)).toEqual(ids);
    });
  });
});
