import { QueueEvents } from 'bullmq';
import type Redis from 'ioredis';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, SCHEDULES, createWorkerConnection, defaultDomainConfigs, defineHandler, fixedClock, type DomainConfigs, type JobHandler, type ScheduleDefinition } from '@tickerbell/jobs';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers, type WorkersRuntime } from '../src/runtime';

const logger = pino({ level: 'silent' });

describe('workers runtime on real PostgreSQL and Redis', () => {
  let db: TestDatabase;
  const opened: { redis: Redis[]; queues: JobQueues[]; runtimes: WorkersRuntime[]; events: QueueEvents[] } = {
    redis: [],
    queues: [],
    runtimes: [],
    events: [],
  };
  const prefixes: string[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterEach(async () => {
    await Promise.all(opened.runtimes.splice(0).map((r) => r.close()));
    await Promise.all(opened.events.splice(0).map((e) => e.close()));
    await Promise.all(opened.queues.splice(0).map((q) => q.close()));
    opened.redis.splice(0).forEach((r) => r.disconnect());
  });

  afterAll(async () => {
    await db.drop();
    for (const prefix of prefixes) await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  function setup(prefix = testQueuePrefix()) {
    prefixes.push(prefix);
    const connection = createWorkerConnection(testRedisUrl());
    const queueConnection = createWorkerConnection(testRedisUrl());
    const queues = new JobQueues(queueConnection, prefix);
    opened.redis.push(connection, queueConnection);
    opened.queues.push(queues);
    const events = new QueueEvents('housekeeping', { connection: { url: testRedisUrl() }, prefix });
    opened.events.push(events);
    const start = async (overrides: { overrides?: JobHandler[]; schedules?: ScheduleDefinition[]; domains?: DomainConfigs } = {}) => {
      const runtime = await startWorkers({
        dataSource: db.dataSource,
        connection,
        queues,
        logger,
        clock: fixedClock('2026-11-21T12:00:00Z'),
        ...overrides,
      });
      opened.runtimes.push(runtime);
      return runtime;
    };
    return { prefix, queues, events, start };
  }

  it('runs a job through its handler against the database', async () => {
    await db.dataSource.query(
      `INSERT INTO users (email, reset_token, reset_token_expiry) VALUES ('a@example.com', 'r', '2026-11-21T11:00:00Z')`,
    );
    const { queues, events, start } = setup();
    await events.waitUntilReady();
    await start();
    const job = await queues.add('housekeeping.purge-expired', {});
    const result = await job.waitUntilFinished(events, 10000);
    expect(result).toMatchObject({ resetTokensCleared: 1 });
    const [row] = await db.dataSource.query(`SELECT reset_token FROM users WHERE email = 'a@example.com'`);
    expect(row.reset_token).toBeNull();
  });

  it('fails a job whose payload breaks its schema for good, with the reason, without retrying', async () => {
    const { queues, events, start } = setup();
    await events.waitUntilReady();
    await start();
    // Straight to Redis, past the producer's check: as a stale or foreign producer would.
    const job = await queues.queue('housekeeping').add('housekeeping.purge-expired', { bogus: 1 }, { attempts: 5 });
    await expect(job.waitUntilFinished(events, 10000)).rejects.toThrow(/Invalid payload/);
    const failed = await queues.queue('housekeeping').getJob(job.id!);
    expect(failed?.failedReason).toMatch(/Invalid payload for job "housekeeping.purge-expired": .*Unrecognized key: "bogus"/);
    expect(failed?.attemptsMade).toBe(1);
  });

  it('retries a transient failure with backoff until it succeeds', async () => {
    const { queues, events, start } = setup();
    await events.waitUntilReady();
    let calls = 0;
    await start({
      // Every other job keeps its domain's handler: the workers refuse to start with one missing.
      overrides: [
        defineHandler('housekeeping.purge-expired', async () => {
          calls += 1;
          if (calls < 3) throw new Error('database briefly unavailable');
          return { calls };
        }),
      ],
    });
    const job = await queues.add('housekeeping.purge-expired', {}, { attempts: 3, backoff: { type: 'fixed', delay: 10 } });
    expect(await job.waitUntilFinished(events, 10000)).toEqual({ calls: 3 });
  });

  it('registers each schedule once however many worker runtimes start', async () => {
    const prefix = testQueuePrefix();
    const first = setup(prefix);
    const second = setup(prefix);
    await first.start();
    await second.start();
    await first.start();
    const schedulers = await first.queues.queue('housekeeping').getJobSchedulers();
    // This queue's schedules (other domains' schedules live on their own queues).
    const housekeeping = SCHEDULES.filter((s) => s.job.startsWith('housekeeping.'));
    expect(schedulers.map((s) => s.key)).toEqual(housekeeping.map((s) => s.id));
    expect(schedulers[0]).toMatchObject({ pattern: '7 * * * *', tz: 'UTC', name: 'housekeeping.purge-expired' });
    // One pending run per scheduler, not one per registration.
    expect(await first.queues.queue('housekeeping').getJobCountByTypes('delayed')).toBe(housekeeping.length);
  });

  it('removes a scheduler that is no longer listed when the workers start', async () => {
    const prefix = testQueuePrefix();
    const first = setup(prefix);
    const extra: ScheduleDefinition = { ...SCHEDULES[0], id: 'housekeeping.retired', repeat: { every: 60000 } };
    const registration = await first.start({ schedules: [...SCHEDULES, extra] });
    expect(registration.schedules.registered).toContain('housekeeping.retired');
    const second = setup(prefix);
    const again = await second.start();
    expect(again.schedules.removed).toEqual(['housekeeping.retired']);
    const ids = (await second.queues.queue('housekeeping').getJobSchedulers()).map((s) => s.key);
    expect(ids).toEqual(SCHEDULES.filter((s) => s.job.startsWith('housekeeping.')).map((s) => s.id));
  });

  it('registers a schedule only where its source is configured (Telegram updates with a bot token), and removes it when the token goes', async () => {
    const prefix = testQueuePrefix();
    const telegramIds = async (queues: JobQueues) => (await queues.queue('notifications').getJobSchedulers()).map((s) => s.key);
    const withToken = setup(prefix);
    const defaults = defaultDomainConfigs();
    const configured: DomainConfigs = { ...defaults, notifications: { ...defaults.notifications, TELEGRAM_BOT_TOKEN: '123:test-token' } };
    const first = await withToken.start({ domains: configured });
    expect(first.schedules.registered).toContain('notifications.telegram-updates');
    expect(await telegramIds(withToken.queues)).toEqual(['notifications.telegram-updates']);
    // The next start without a token (the defaults have none) takes it away.
    const without = setup(prefix);
    const second = await without.start();
    expect(second.schedules.registered).not.toContain('notifications.telegram-updates');
    expect(second.schedules.removed).toEqual(['notifications.telegram-updates']);
    expect(await telegramIds(without.queues)).toEqual([]);
  });
});
