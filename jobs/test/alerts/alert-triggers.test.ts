import type Redis from 'ioredis';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { alertChangesChannel } from '../../src/alerts/alert-changes';
import { expireAlerts } from '../../src/alerts/alert-expiry';
import { alertIndexFor } from '../../src/alerts/alert-index-cache';
import { ALERTS_SCHEDULES } from '../../src/alerts/alerts.schedules';
import { SCHEDULES } from '../../src/domains';
import { notificationChannel, notificationMessageSchema, type NotificationMessage } from '../../src/notifications/notification-channel';
import { notificationsJobIds } from '../../src/notifications/notifications.jobs';
import { alertsJobIds } from '../../src/alerts/alerts.jobs';
import { createWorkerConnection } from '../../src/runtime/redis';
import { testRedisUrl } from '../../src/testing/test-redis';
import { AlertsHarness } from './alerts-harness';

describe('alerts: trigger frequency, expiry, deliveries and index consistency (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  let h: AlertsHarness;
  let userId: number;
  const subscribers: Redis[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  beforeEach(async () => {
    h = new AlertsHarness(db);
    userId = await h.user(`user-${h.prefix}@example.test`);
  });

  afterEach(async () => {
    for (const s of subscribers.splice(0)) s.disconnect();
    await h.close();
    await db.dataSource.query('TRUNCATE users, markets, alerts, alert_logs, notifications CASCADE');
  });

  afterAll(async () => {
    await db.drop();
  });

  async function listen<T>(channel: string, parse: (text: string) => T): Promise<T[]> {
    const subscriber = createWorkerConnection(testRedisUrl());
    subscribers.push(subscriber);
    const received: T[] = [];
    subscriber.on('message', (_c: string, text: string) => received.push(parse(text)));
    await subscriber.subscribe(channel);
    return received;
  }

  async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  describe('frequency', () => {
    it('once: fires the first time, then the alert is inactive and out of the index', async () => {
      const alertId = await h.alert(userId, 'BTCUSDT', { type: 'crossing_up', value: '100' }, { frequency: 'once' });
      const fired = await h.sequence('BTCUSDT', ['90', '101', '90', '102']);
      expect(fired).toEqual([1]);
      expect(await h.alertRow(alertId)).toEqual({ is_active: false, last_triggered: new Date('2026-11-23T10:01:00Z') });
      expect((await h.logs(alertId)).map((l) => l.dedupe_key)).toEqual([`${alertId}:once`]);
      expect((await alertIndexFor(h.context)).index.get(alertId)).toBeUndefined();
    });

    it('once, re-activated by its owner: fires once more under a new key, then is inactive again', async () => {
      const alertId = await h.alert(userId, 'BTCUSDT', { type: 'crossing_up', value: '100' }, { frequency: 'once' });
      expect(await h.sequence('BTCUSDT', ['90', '101'])).toEqual([1]);
      const cache = await alertIndexFor(h.context);
      // What PATCH /api/alerts/:id {isActive: true} does: the row, then the change message.
      await db.dataSource.query('UPDATE alerts SET is_active = true WHERE id = $1', [alertId]);
      await h.publishChanges([alertId], () => cache.index.get(alertId) !== undefined);
      expect(await h.sequence('BTCUSDT', ['90', '103', '90', '104'], '2026-11-23T11:00:00Z')).toEqual([1]);
      expect((await h.logs(alertId)).map((l) => l.dedupe_key)).toEqual([`${alertId}:once`, `${alertId}:once:${Date.parse('2026-11-23T10:01:00Z')}`]);
      expect(await h.alertRow(alertId)).toEqual({ is_active: false, last_triggered: new Date('2026-11-23T11:01:00Z') });
    });

    it('once_per_day: at most once per UTC day, again after midnight if the level still holds', async () => {
      const alertId = await h.alert(userId, 'BTCUSDT', { type: 'greater_than', value: '100' }, { frequency: 'once_per_day' });
      const times = ['2026-11-23T10:00:00Z', '2026-11-23T15:00:00Z', '2026-11-23T23:59:59Z', '2026-11-24T00:00:05Z', '2026-11-24T12:00:00Z'];
      const fired: number[] = [];
      for (const [i, at] of times.entries()) if ((await h.price('BTCUSDT', '150', at)).fired) fired.push(i);
      expect(fired).toEqual([0, 3]);
      expect((await h.logs(alertId)).map((l) => l.dedupe_key)).toEqual([`${alertId}:day:2026-11-23`, `${alertId}:day:2026-11-24`]);
      // Disarmed between firings: the steady ticks did not even reach the database.
      const cache = await alertIndexFor(h.context);
      expect(cache.index.isArmed(alertId)).toBe(false);
    });

    it('every_time: not again within the cooldown, again exactly at its end', async () => {
      const alertId = await h.alert(userId, 'BTCUSDT', { type: 'greater_than', value: '100' }, { frequency: 'every_time', cooldownSeconds: 60 });
      const fired = await h.sequence('BTCUSDT', ['150', '151', '152', '153', '154'], '2026-11-23T10:00:00Z', 30_000);
      // t0 fires; t+30s cools down; t+60s fires; t+90s cools down; t+120s fires.
      expect(fired).toEqual([0, 2, 4]);
      expect((await h.logs(alertId)).map((l) => l.dedupe_key)).toEqual([
        `${alertId}:at:${Date.parse('2026-11-23T10:00:00Z')}`,
        `${alertId}:at:${Date.parse('2026-11-23T10:01:00Z')}`,
        `${alertId}:at:${Date.parse('2026-11-23T10:02:00Z')}`,
      ]);
    });
  });

  describe('expiry', () => {
    it('an alert never fires once its expiry has come (the instant included) and is deactivated', async () => {
      const changes = await listen(alertChangesChannel(h.prefix), (t) => JSON.parse(t) as { alertIds: number[] });
      const alertId = await h.alert(userId, 'BTCUSDT', { type: 'greater_than', value: '100' }, { expiresAt: new Date('2026-11-23T10:01:00Z') });
      await h.price('BTCUSDT', '90', '2026-11-23T10:00:00Z');
      const result = await h.price('BTCUSDT', '150', '2026-11-23T10:01:00Z');
      expect(result.fired).toBe(0);
      expect(await h.logs(alertId)).toEqual([]);
      expect((await h.alertRow(alertId)).is_active).toBe(false);
      await until(() => changes.some((c) => c.alertIds.includes(alertId)));
    });

    it('the expiry sweep deactivates due alerts in one statement and announces them', async () => {
      const due = await h.alert(userId, 'BTCUSDT', { type: 'greater_than', value: '100' }, { expiresAt: new Date('2026-11-23T10:05:00Z') });
      const later = await h.alert(userId, 'BTCUSDT', { type: 'greater_than', value: '100' }, { expiresAt: new Date('2026-11-23T10:05:01Z') });
      const never = await h.alert(userId, 'BTCUSDT', { type: 'greater_than', value: '100' });
      const changes = await listen(alertChangesChannel(h.prefix), (t) => JSON.parse(t) as { alertIds: number[] });
      const cache = await alertIndexFor(h.context);
      h.clock.set('2026-11-23T10:05:00Z');

      expect(await expireAlerts(h.context)).toEqual({ expired: [due] });
      expect(await expireAlerts(h.context)).toEqual({ expired: [] });
      await until(() => cache.index.get(due) === undefined);
      expect(changes).toEqual([{ alertIds: [due] }]);
      expect([later, never].map((id) => cache.index.get(id)?.id)).toEqual([later, never]);
    });
  });

  it('the expiry sweep is scheduled every minute', () => {
    expect(SCHEDULES.filter((s) => s.job === 'alerts.expire')).toEqual(ALERTS_SCHEDULES.filter((s) => s.job === 'alerts.expire'));
    expect(ALERTS_SCHEDULES[0].repeat).toEqual({ pattern: '30 * * * * *', tz: 'UTC' });
  });

  describe('deliveries', () => {
    it('a firing writes its log and notification, publishes it live and queues push, email and webhook', async () => {
      const [{ id: subscriptionId }] = await db.dataSource.query(
        `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, 'http://127.0.0.1:9/push/a', 'p', 'a') RETURNING id`,
        [userId],
      );
      const live = await listen(notificationChannel(h.prefix), (t): NotificationMessage => notificationMessageSchema.parse(JSON.parse(t)));
      const alertId = await h.alert(
        userId,
        'BTCUSDT',
        { type: 'crossing_up', value: '60000' },
        {
          name: 'BTC breakout',
          frequency: 'once_per_day',
          notifyEmail: true,
          webhookUrl: 'http://127.0.0.1:9/hook',
          webhookSecret: 'shh',
          useAudio: true,
          audioMessage: 'Bitcoin broke sixty thousand',
          audioVoiceId: 'en-US-1',
        },
      );
      await h.price('BTCUSDT', '59990', '2026-11-23T10:00:00Z');
      const result = await h.price('BTCUSDT', '60012.5', '2026-11-23T10:00:10Z');
      expect(result).toMatchObject({ fired: 1, published: 1, pushTargets: 1, emails: 1, webhooks: 1 });

      const [log] = await h.logs(alertId);
      const [notification] = await db.dataSource.query('SELECT * FROM notifications');
      expect(log).toMatchObject({
        value: '60012.5000000000',
        was_notified: true,
        dedupe_key: `${alertId}:day:2026-11-23`,
        message: 'BTCUSDT crossed above 60,000 (now 60,012.50)',
        notification_id: notification.id,
        webhook_status: 'pending',
      });
      expect(notification).toMatchObject({
        user_id: userId,
        title: 'BTC breakout Alert Triggered',
        message: 'BTCUSDT crossed above 60,000 (now 60,012.50)',
        type: 'warning',
        activity_type: 'MARKET_ALERT_PRICE',
        symbol_id: 'BTCUSDT',
        dedupe_key: `alert:${alertId}:${alertId}:day:2026-11-23`,
        details: {
          alertId,
          alertLogId: log.id,
          condition: 'crossing_up',
          value: '60000',
          currentPrice: '60012.5',
          interval: null,
          useAudio: true,
          audioMessage: 'Bitcoin broke sixty thousand',
          audioVoiceId: 'en-US-1',
          importance: 'high',
        },
      });
      await until(() => live.length === 1);
      expect(live[0]).toMatchObject({ userId, notification: { id: notification.id, title: 'BTC breakout Alert Triggered', details: { useAudio: true } } });

      const push = await h.queues.queue('notifications').getJob(notificationsJobIds.push([{ notificationId: notification.id, subscriptionId }]));
      expect(push?.data).toEqual({
        targets: [{ notificationId: notification.id, subscriptionId }],
        push: { ttlSeconds: 3600, urgency: 'high', topic: null, url: '/dashboard/alerts' },
        attempt: 1,
      });
      const mail = await h.queues.queue('mail').getJob(notificationsJobIds.mail(notification.id));
      expect(mail?.data).toMatchObject({ to: `user-${h.prefix}@example.test`, subject: 'BTC breakout Alert Triggered' });
      const webhook = await h.queues.queue('alerts').getJob(alertsJobIds.webhook(log.id));
      expect(webhook?.data).toEqual({ alertLogId: log.id });
    });

    it('no push without notifyPush or with the user preference off; no email or webhook unless asked', async () => {
      await db.dataSource.query(
        `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, 'http://127.0.0.1:9/push/b', 'p', 'a')`,
        [userId],
      );
      const other = await h.user(`muted-${h.prefix}@example.test`);
      await db.dataSource.query('INSERT INTO user_preferences (user_id, push_notifications) VALUES ($1, false)', [other]);
      await db.dataSource.query(
        `INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth) VALUES ($1, 'http://127.0.0.1:9/push/c', 'p', 'a')`,
        [other],
      );
      await h.alert(userId, 'BTCUSDT', { type: 'greater_than', value: '100' }, { notifyPush: false });
      await h.alert(other, 'BTCUSDT', { type: 'greater_than', value: '100' });
      const result = await h.price('BTCUSDT', '150', '2026-11-23T10:00:00Z');
      expect(result).toMatchObject({ fired: 2, published: 2, pushTargets: 0, emails: 0, webhooks: 0 });
      expect(await h.queues.queue('notifications').count()).toBe(0);
    });
  });

  describe('index consistency after edits (publishAlertChanges)', () => {
    it('the next tick fires exactly what the database says after an update, a deactivation and a delete', async () => {
      const cache = await alertIndexFor(h.context);
      const edited = await h.alert(userId, 'BTCUSDT', { type: 'crossing_up', value: '100' });
      const deactivated = await h.alert(userId, 'BTCUSDT', { type: 'crossing_up', value: '100' });
      const deleted = await h.alert(userId, 'BTCUSDT', { type: 'crossing_up', value: '100' });
      const moved = await h.alert(userId, 'ETHUSDT', { type: 'crossing_up', value: '100' });
      await h.price('BTCUSDT', '90', '2026-11-23T10:00:00Z');

      await db.dataSource.query(`UPDATE alerts SET value = 95, params = '{"type":"crossing_up","value":"95"}' WHERE id = $1`, [edited]);
      await db.dataSource.query('UPDATE alerts SET is_active = false WHERE id = $1', [deactivated]);
      await db.dataSource.query('DELETE FROM alerts WHERE id = $1', [deleted]);
      // Another market: the alert now watches BTCUSDT.
      await db.dataSource.query(`UPDATE alerts SET market_id = (SELECT id FROM markets WHERE symbol = 'BTCUSDT') WHERE id = $1`, [moved]);
      await h.publishChanges([edited, deactivated, deleted, moved], () =>
        cache.index.get(edited)?.condition.type === 'crossing_up' &&
        (cache.index.get(edited)?.condition as { value: string }).value === '95' &&
        cache.index.get(deactivated) === undefined &&
        cache.index.get(deleted) === undefined &&
        cache.index.get(moved)?.symbol === 'BTCUSDT',
      );

      // 90 -> 96 crosses 95 (the edited threshold) but not 100.
      const result = await h.price('BTCUSDT', '96', '2026-11-23T10:01:00Z');
      expect(result.fired).toBe(1);
      expect((await h.logs()).map((l) => l.alert_id)).toEqual([edited]);
      // 96 -> 101 crosses 100: only the moved alert is left at 100.
      await h.price('BTCUSDT', '101', '2026-11-23T10:02:00Z');
      expect((await h.logs()).map((l) => l.alert_id)).toEqual([edited, moved]);
    });

    it('a lost subscriber connection rebuilds the index: changes published meanwhile are not missed', async () => {
      const cache = await alertIndexFor(h.context);
      // Written without a change message, as if it had been published while the subscriber was away.
      const [{ id: missed }]: { id: number }[] = await db.dataSource.query(
        `INSERT INTO alerts (user_id, market_id, name, condition, value, params, frequency)
         VALUES ($1, $2, 'missed', 'less_than', 5, '{"type":"less_than","value":"5"}', 'once') RETURNING id`,
        [userId, await h.market('BTCUSDT')],
      );
      expect(cache.index.get(missed)).toBeUndefined();
      const admin = createWorkerConnection(testRedisUrl());
      subscribers.push(admin);
      const clients = String(await admin.client('LIST'));
      const line = clients.split('\n').find((l) => l.includes(`name=alert-index:${h.prefix} `));
      const id = /\bid=(\d+)/.exec(line ?? '')?.[1];
      expect(id).toBeDefined();
      await admin.client('KILL', 'ID', id as string);
      await until(() => cache.index.get(missed) !== undefined);
    });

    it('a rebuild (a new process) sees the same alerts as the database', async () => {
      const a = await h.alert(userId, 'BTCUSDT', { type: 'greater_than', value: '100' });
      const cache = await alertIndexFor(h.context);
      await db.dataSource.query('UPDATE alerts SET is_active = false WHERE id = $1', [a]);
      const b = await h.alert(userId, 'BTCUSDT', { type: 'less_than', value: '100' });
      await cache.rebuild();
      expect([cache.index.get(a), cache.index.get(b)?.id]).toEqual([undefined, b]);
    });
  });
});
