import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import Redis from 'ioredis';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, SCHEDULES } from '@tickerbell/jobs';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '@tickerbell/jobs/testing/test-redis';

const ROOT = path.resolve(__dirname, '..', '..');

function startWorkerProcess(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'workers/src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 30000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('worker processes', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = new Redis(testRedisUrl());

  beforeAll(async () => {
    db = await createTestDatabase();
  });

  afterAll(async () => {
    redis.disconnect();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  it('two processes register each schedule once, report health, and stop cleanly on SIGTERM', async () => {
    const env = { DATABASE_URL: db.url, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: prefix };
    const a = startWorkerProcess(env);
    const b = startWorkerProcess(env);
    try {
      await until(async () => (await redis.keys(`${prefix}:workers:*`)).length === 2, 'two worker heartbeats', 45000);
      await until(() => a.output().includes('workers ready') && b.output().includes('workers ready'), 'both ready');

      const queues = new JobQueues(redis, prefix);
      const schedulers = await queues.queue('housekeeping').getJobSchedulers();
      const housekeeping = SCHEDULES.filter((s) => s.job.startsWith('housekeeping.'));
      expect(schedulers.map((s) => s.key).sort()).toEqual(housekeeping.map((s) => s.id).sort());
      expect(await queues.queue('housekeeping').getJobCountByTypes('delayed')).toBe(housekeeping.length);
      const heartbeat = JSON.parse((await redis.get((await redis.keys(`${prefix}:workers:*`))[0]))!);
      expect(heartbeat).toMatchObject({ running: true, queues: expect.arrayContaining(['housekeeping']) });
    } finally {
      a.child.kill('SIGTERM');
      b.child.kill('SIGTERM');
    }
    expect(await exitOf(a.child)).toBe(0);
    expect(await exitOf(b.child)).toBe(0);
    expect(a.output()).toContain('workers: stopped');
    // Each process removes its own heartbeat on the way out.
    expect(await redis.keys(`${prefix}:workers:*`)).toEqual([]);
  }, 90000);

  it('refuses to start with bad configuration, naming each bad variable', async () => {
    const proc = startWorkerProcess({ DATABASE_URL: 'http://nope', REDIS_URL: testRedisUrl(), WORKER_QUEUES: 'housekeeping,ghosts' });
    expect(await exitOf(proc.child)).toBe(1);
    expect(proc.output()).toContain('Invalid configuration for workers');
    expect(proc.output()).toMatch(/DATABASE_URL: must be a URL/);
    expect(proc.output()).toMatch(/WORKER_QUEUES/);
  }, 30000);

  it('exits 1 at start on one bad domain variable (COT, prices, news), naming it, before taking any job', async () => {
    for (const [variable, value, message] of [
      ['COT_LOOKBACK', '30', /COT_LOOKBACK: one of 26, 52, 156/],
      ['PRICES_TIMEOUT_MS', '1', /PRICES_TIMEOUT_MS: /],
      ['NEWS_FEEDS', 'https://decrypt.co/feed,feeds.example.org/rss', /NEWS_FEEDS: not an http\(s\) URL: "feeds\.example\.org\/rss"/],
    ] as const) {
      const own = testQueuePrefix();
      const proc = startWorkerProcess({ DATABASE_URL: db.url, REDIS_URL: testRedisUrl(), QUEUE_PREFIX: own, [variable]: value });
      expect(await exitOf(proc.child)).toBe(1);
      expect(proc.output()).toContain('Invalid configuration for workers');
      expect(proc.output()).toMatch(message);
      expect(proc.output().match(/^ {2}\w+: /gm)).toHaveLength(1);
      // Refused before starting: no worker registered a heartbeat or a schedule under the prefix.
      expect(await redis.keys(`${own}:*`)).toEqual([]);
    }
  }, 60000);
});
