import Redis from 'ioredis';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues } from '@tickerbell/jobs';
import { MARKET_SEED } from '@tickerbell/jobs/seeds';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { runCli } from '../src/cli/main';
import { runCliCaptured } from './cli-capture';

describe('operator CLI', () => {
  let db: TestDatabase;
  let empty: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = new Redis(testRedisUrl());

  beforeAll(async () => {
    db = await createTestDatabase();
    empty = await createTestDatabase({ migrated: false });
  });

  afterAll(async () => {
    redis.disconnect();
    await db.drop();
    await empty.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  const cli = (args: string[], databaseUrl = db.url) => runCliCaptured(args, databaseUrl, prefix);

  it('migrate applies every migration to an empty database, then reports it is up to date', async () => {
    const first = await cli(['migrate'], empty.url);
    expect(first).toMatchObject({ code: 0 });
    expect(first.out).toMatch(/^applied \d+ migration\(s\)/);
    const second = await cli(['migrate'], empty.url);
    expect(second.out.trim()).toBe('database is up to date');
  });

  it('seed loads the demo data once', async () => {
    const first = await cli(['seed']);
    expect(first.code).toBe(0);
    expect(first.out).toContain('2026-11-markets');
    const second = await cli(['seed']);
    expect(second.out.trim()).toBe('all seeds already applied');
    const [{ count }] = await db.dataSource.query('SELECT count(*)::int AS count FROM markets');
    expect(count).toBe(MARKET_SEED.length);
  });

  it('run enqueues a registered job now', async () => {
    const result = await cli(['run', 'housekeeping.purge-expired', '--data', '{}']);
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.out);
    expect(printed).toMatchObject({ enqueued: 'housekeeping.purge-expired', queue: 'housekeeping' });
    const job = await new JobQueues(redis, prefix).queue('housekeeping').getJob(printed.id);
    expect(job?.name).toBe('housekeeping.purge-expired');
  });

  it('run rejects an unknown job with the list of jobs and exit code 1', async () => {
    const result = await cli(['run', 'prices.fetch-everything']);
    expect(result.code).toBe(1);
    expect(result.err).toContain('Unknown job "prices.fetch-everything". Jobs: housekeeping.purge-expired');
  });

  it('run rejects --data that is not JSON, or that breaks the job schema', async () => {
    const notJson = await cli(['run', 'housekeeping.purge-expired', '--data', '{oops']);
    expect(notJson.code).toBe(1);
    expect(notJson.err).toMatch(/--data is not valid JSON/);
    const badPayload = await cli(['run', 'housekeeping.purge-expired', '--data', '{"days":3}']);
    expect(badPayload.code).toBe(1);
    expect(badPayload.err).toMatch(/Invalid payload for job "housekeeping.purge-expired"/);
  });

  it('queues prints the counts per queue and state', async () => {
    const result = await cli(['queues', '--json']);
    expect(result.code).toBe(0);
    const counts = JSON.parse(result.out);
    expect(counts.housekeeping.waiting).toBeGreaterThanOrEqual(1);
    expect(Object.keys(counts.housekeeping)).toEqual(
      expect.arrayContaining(['waiting', 'active', 'delayed', 'completed', 'failed']),
    );
    const table = await cli(['queues']);
    expect(table.out.split('\n')[0]).toMatch(/^queue\s+waiting\s+active/);
  });

  it('an unknown command exits non-zero', async () => {
    const result = await cli(['frobnicate']);
    expect(result.code).not.toBe(0);
    expect(result.err).toMatch(/unknown command 'frobnicate'/);
  });

  it('bad configuration names the variable and exits 1', async () => {
    let err = '';
    const code = await runCli(['queues'], { DATABASE_URL: db.url, REDIS_URL: 'localhost:6379' }, { out: () => undefined, err: (t) => (err += t) });
    expect(code).toBe(1);
    expect(err).toMatch(/REDIS_URL: must be a URL/);
  });
});
