import Redis from 'ioredis';
import { DEFAULT_JOB_OPTIONS, InvalidJobError, JobQueues, QUEUE_NAMES, type JobName } from '../src';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../src/testing/test-redis';

describe('JobQueues (producer) on a real Redis', () => {
  const prefix = testQueuePrefix();
  const redis = new Redis(testRedisUrl());
  const queues = new JobQueues(redis, prefix);

  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  it('routes a job to its queue with the default options', async () => {
    const job = await queues.add('housekeeping.purge-expired', {});
    expect(job.queueName).toBe('housekeeping');
    expect(job.opts.attempts).toBe(3); // the job's own override of the default 5
    expect(job.opts.backoff).toEqual(DEFAULT_JOB_OPTIONS.backoff);
    expect(job.opts.removeOnComplete).toEqual(DEFAULT_JOB_OPTIONS.removeOnComplete);
    expect(job.opts.removeOnFail).toEqual(DEFAULT_JOB_OPTIONS.removeOnFail);
    expect(await queues.queue('housekeeping').getJobCounts('waiting')).toEqual({ waiting: 1 });
  });

  it('rejects a payload that fails its schema before anything reaches Redis', async () => {
    const before = await queues.queue('housekeeping').count();
    await expect(queues.add('housekeeping.purge-expired', { unexpected: true } as never)).rejects.toThrow(InvalidJobError);
    await expect(queues.add('housekeeping.purge-expired', { unexpected: true } as never)).rejects.toThrow(
      /Invalid payload for job "housekeeping.purge-expired"/,
    );
    expect(await queues.queue('housekeeping').count()).toBe(before);
  });

  it('rejects an unknown job name', async () => {
    await expect(queues.add('nope.nothing' as JobName, {} as never)).rejects.toThrow(/Unknown job "nope.nothing"/);
  });

  it('adds many jobs in bulk, each to its queue', async () => {
    const before = await queues.queue('housekeeping').count();
    const jobs = await queues.addBulk([
      { name: 'housekeeping.purge-expired', data: {} },
      { name: 'housekeeping.purge-expired', data: {} },
    ]);
    expect(jobs).toHaveLength(2);
    expect(await queues.queue('housekeeping').count()).toBe(before + 2);
  });

  it('uses its own key prefix, so runs never share a queue', async () => {
    const keys = await redis.keys(`${prefix}:housekeeping:*`);
    expect(keys.length).toBeGreaterThan(0);
    expect(QUEUE_NAMES).toContain('housekeeping');
  });
});
