import type Redis from 'ioredis';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createWorkerConnection, fixedClock } from '@tickerbell/jobs';
import { BUNDLED_EXCHANGE_CALENDARS_PATH, importExchangeCalendarFile, marketClockKeys, readExchangeCalendarFile } from '@tickerbell/jobs/market-hours';
import { notificationChannel, notificationMessageSchema, type NotificationMessage } from '@tickerbell/jobs/notifications';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers, type WorkersRuntime } from '../../src/runtime';

const logger = pino({ level: 'silent' });
const MINUTE = 60_000;

interface Row {
  user_id: number;
  title: string;
  message: string;
  type: string;
  activity_type: string;
  exchange_id: string;
  details: Record<string, unknown>;
  dedupe_key: string;
}

describe('market-hours: market clock and notification fan-out on real workers', () => {
  let db: TestDatabase;
  const prefixes: string[] = [];
  const closers: (() => Promise<void> | void)[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
    await importExchangeCalendarFile(db.dataSource, readExchangeCalendarFile(BUNDLED_EXCHANGE_CALENDARS_PATH));
  });

  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await db.dataSource.query('TRUNCATE users CASCADE');
  });

  afterAll(async () => {
    await db.drop();
    for (const prefix of prefixes) await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  /** A cluster of `workers` in-process worker processes sharing one prefix and one clock. */
  async function cluster(workers: number, at: string, prefix = testQueuePrefix()) {
    if (!prefixes.includes(prefix)) prefixes.push(prefix);
    const clock = fixedClock(at);
    const producerConnection = createWorkerConnection(testRedisUrl());
    const queues = new JobQueues(producerConnection, prefix);
    closers.push(async () => {
      await queues.close();
      producerConnection.disconnect();
    });
    const runtimes: WorkersRuntime[] = [];
    const start = async () => {
      const connection = createWorkerConnection(testRedisUrl());
      const queuesConnection = createWorkerConnection(testRedisUrl());
      const ownQueues = new JobQueues(queuesConnection, prefix);
      const runtime = await startWorkers({
        dataSource: db.dataSource,
        connection,
        queues: ownQueues,
        logger,
        clock,
        queueNames: ['market-hours', 'notifications'],
        schedules: [],
      });
      runtimes.push(runtime);
      const stop = async () => {
        await runtime.close();
        await ownQueues.close();
        connection.disconnect();
        queuesConnection.disconnect();
      };
      closers.push(stop);
      return { runtime, stop };
    };
    const started = [];
    for (let i = 0; i < workers; i++) started.push(await start());
    const idle = () => waitForQueuesIdle([queues.queue('market-hours'), queues.queue('notifications')], 30_000);
    /** Sets the clock and has every worker's schedule fire the clock job (one job per worker, as a race would). */
    const tick = async (iso: string, copies = workers) => {
      clock.set(iso);
      await Promise.all(Array.from({ length: copies }, () => queues.add('market-hours.clock', {})));
      await idle();
    };
    return { clock, queues, prefix, start, started, tick, idle };
  }

  async function users(emails: string[]): Promise<number[]> {
    const rows: { id: number }[] = await db.dataSource.query(
      'INSERT INTO users (email) SELECT unnest($1::varchar[]) RETURNING id',
      [emails],
    );
    return rows.map((r) => r.id);
  }

  async function notificationsOf(userId?: number): Promise<Row[]> {
    return db.dataSource.query(
      `SELECT user_id, title, message, type, activity_type, exchange_id, details, dedupe_key FROM notifications
       ${userId ? 'WHERE user_id = $1' : ''} ORDER BY id`,
      userId ? [userId] : [],
    );
  }

  async function subscribe(prefix: string): Promise<NotificationMessage[]> {
    const subscriber: Redis = createWorkerConnection(testRedisUrl());
    const received: NotificationMessage[] = [];
    subscriber.on('message', (_channel: string, text: string) => received.push(notificationMessageSchema.parse(JSON.parse(text))));
    await subscriber.subscribe(notificationChannel(prefix));
    closers.push(() => subscriber.disconnect());
    return received;
  }

  it('two workers running every minute notify each event once, with the spec texts and details', async () => {
    const [userId] = await users(['trader@example.test']);
    const c = await cluster(2, '2026-11-23T14:15:00Z');
    const published = await subscribe(c.prefix);
    for (let t = Date.parse('2026-11-23T14:15:00Z'); t <= Date.parse('2026-11-23T14:35:00Z'); t += MINUTE) {
      await c.tick(new Date(t).toISOString());
    }

    const rows = await notificationsOf(userId);
    const byKey = [...rows].sort((a, b) => a.dedupe_key.localeCompare(b.dedupe_key));
    expect(byKey.map((r) => [r.exchange_id, r.activity_type, r.dedupe_key])).toEqual([
      ['XNAS', 'MARKET_OPEN', 'market:XNAS:2026-11-23:opened'],
      ['XNAS', 'MARKET_OPENING_SOON', 'market:XNAS:2026-11-23:opening_soon'],
      ['XNYS', 'MARKET_OPEN', 'market:XNYS:2026-11-23:opened'],
      ['XNYS', 'MARKET_OPENING_SOON', 'market:XNYS:2026-11-23:opening_soon'],
    ]);
    const nyseSoon = rows.find((r) => r.dedupe_key === 'market:XNYS:2026-11-23:opening_soon') as Row;
    expect(nyseSoon).toMatchObject({
      title: 'New York Stock Exchange opening soon',
      message: 'New York Stock Exchange will open in 10 minutes',
      type: 'warning',
      details: { exchangeId: 'XNYS', localExchangeTime: '09:20', formattedDate: 'Monday, November 23, 2026', importance: 'high' },
    });
    const nyseOpen = rows.find((r) => r.dedupe_key === 'market:XNYS:2026-11-23:opened') as Row;
    expect(nyseOpen).toMatchObject({
      title: 'New York Stock Exchange now open',
      message: 'New York Stock Exchange has opened for trading',
      type: 'success',
      details: { localExchangeTime: '09:30', importance: 'medium' },
    });
    expect(published.map((m) => m.notification.title).sort()).toEqual(rows.map((r) => r.title).sort());
    expect(published.every((m) => m.userId === userId)).toBe(true);
  });

  it('a restarted cluster, even one that lost its claims and last-run state, sends nothing twice', async () => {
    const [userId] = await users(['restart@example.test']);
    const first = await cluster(1, '2026-11-23T14:29:00Z');
    await first.tick('2026-11-23T14:29:00Z');
    await first.tick('2026-11-23T14:30:00Z');
    const sent = [
      'market:XNAS:2026-11-23:opening_soon',
      'market:XNYS:2026-11-23:opening_soon',
      'market:XNAS:2026-11-23:opened',
      'market:XNYS:2026-11-23:opened',
    ];
    expect((await notificationsOf(userId)).map((r) => r.dedupe_key).sort()).toEqual(sent.sort());
    await first.started[0].stop();

    // Same Redis state: the new worker's window starts at the last run, the claims hold.
    const second = await cluster(1, '2026-11-23T14:31:00Z', first.prefix);
    await second.tick('2026-11-23T14:31:00Z');
    // Redis state gone (flushed, new instance): the event is claimed again, the unique key stops the rows.
    const redis = createWorkerConnection(testRedisUrl());
    closers.push(() => redis.disconnect());
    const keys = marketClockKeys(first.prefix);
    await redis.del(keys.lastRun, keys.claim('XNYS:2026-11-23:opened'), keys.claim('XNAS:2026-11-23:opened'));
    await second.queues.queue('market-hours').clean(0, 1000, 'completed');
    await second.queues.queue('notifications').clean(0, 1000, 'completed');
    await second.tick('2026-11-23T14:31:30Z');

    expect((await notificationsOf(userId)).map((r) => r.dedupe_key).sort()).toEqual(sent.sort());
  });

  it('a run 5 minutes late still sends "opening soon" with the minutes actually left', async () => {
    const [userId] = await users(['late@example.test']);
    const c = await cluster(1, '2026-11-23T14:19:00Z');
    await c.tick('2026-11-23T14:19:00Z');
    await c.tick('2026-11-23T14:25:00Z');

    const rows = await notificationsOf(userId);
    expect(rows.map((r) => r.message).sort()).toEqual(['Nasdaq will open in 5 minutes', 'New York Stock Exchange will open in 5 minutes']);
  });

  it('after a long outage, stale events are dropped and only what is still current is sent', async () => {
    const [userId] = await users(['outage@example.test']);
    const c = await cluster(1, '2026-11-23T12:00:00Z');
    await c.tick('2026-11-23T12:00:00Z');
    await c.tick('2026-11-23T20:52:00Z');

    const rows = await notificationsOf(userId);
    expect(rows.map((r) => [r.exchange_id, r.activity_type, r.message]).sort()).toEqual([
      ['XNAS', 'MARKET_CLOSING_SOON', 'Nasdaq will close in 8 minutes'],
      ['XNYS', 'MARKET_CLOSING_SOON', 'New York Stock Exchange will close in 8 minutes'],
    ]);
  });

  it('notifies only followers of the exchange who enabled that kind, and emails only those with email on', async () => {
    const [byDefault, openOff, londonOnly, nyseOnly, emailed] = await users([
      'default@example.test',
      'open-off@example.test',
      'london@example.test',
      'nyse@example.test',
      'emailed@example.test',
    ]);
    await db.dataSource.query(
      `INSERT INTO user_preferences (user_id, market_open_notifications, email_notifications) VALUES ($1, false, false), ($2, true, true)`,
      [openOff, emailed],
    );
    await db.dataSource.query(`INSERT INTO exchange_follows (user_id, exchange_id) VALUES ($1, 'XLON'), ($2, 'XNYS'), ($3, 'XNYS')`, [
      londonOnly,
      nyseOnly,
      emailed,
    ]);
    const c = await cluster(1, '2026-11-23T14:29:00Z');
    await c.tick('2026-11-23T14:29:00Z');
    await c.tick('2026-11-23T14:30:00Z');

    const nyseOpened = (await notificationsOf()).filter((r) => r.dedupe_key === 'market:XNYS:2026-11-23:opened').map((r) => r.user_id);
    expect(nyseOpened.sort((a, b) => a - b)).toEqual([byDefault, nyseOnly, emailed]);
    const mails = await c.queues.queue('mail').getJobs(['waiting']);
    const sorted = mails.sort((a, b) => String(a.data.subject).localeCompare(String(b.data.subject)));
    expect(sorted.map((j) => [j.name, j.data.to, j.data.subject])).toEqual([
      ['mail.send', 'emailed@example.test', 'New York Stock Exchange now open'],
      ['mail.send', 'emailed@example.test', 'New York Stock Exchange opening soon'],
    ]);
    expect(sorted[0].data.text).toContain('New York Stock Exchange has opened for trading.');
    expect(sorted[0].data.text).toContain('Exchange local time: 09:30, Monday, November 23, 2026 (XNYS).');
  });

  it('fans out in keyset batches, one delivery job per batch, each user once', async () => {
    const ids = await users(Array.from({ length: 5 }, (_, i) => `batch-${i}@example.test`));
    const c = await cluster(1, '2026-11-23T14:30:00Z');
    await c.queues.add('market-hours.fan-out', {
      event: {
        key: 'XNYS:2026-11-23:opened',
        exchangeId: 'XNYS',
        exchangeName: 'New York Stock Exchange',
        timezone: 'America/New_York',
        kind: 'opened',
        at: '2026-11-23T14:30:00.000Z',
        date: '2026-11-23',
        localTime: '09:30',
        minutesToTransition: 0,
      },
      batchSize: 2,
    });
    await c.idle();

    const deliveries = (await c.queues.queue('notifications').getJobs(['completed'])).filter((j) => j.name === 'notifications.deliver');
    expect(deliveries.map((j) => j.data.userIds).sort((a, b) => a[0] - b[0])).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)]);
    expect((await notificationsOf()).map((r) => r.user_id).sort((a, b) => a - b)).toEqual(ids);
  });
});
