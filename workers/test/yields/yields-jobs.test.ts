import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createWorkerConnection, defaultDomainConfigs, fixedClock } from '@tickerbell/jobs';
import { loadYieldsConfig, yieldsJobIds } from '@tickerbell/jobs/yields';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers } from '../../src/runtime';

// The yields jobs through the workers, with the replay twins in process: the hourly ingest stores a
// snapshot and queues the evaluation, which fires an alert once; a schema failure fails the job
// for good; the prune job runs. PostgreSQL and Redis.

describe('yields jobs through the workers (replay twins in process)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const connection = createWorkerConnection(testRedisUrl());
  const queueConnection = createWorkerConnection(testRedisUrl());
  const queues = new JobQueues(queueConnection, prefix);
  const logger = pino({ level: 'silent' });

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await queues.close();
    connection.disconnect();
    queueConnection.disconnect();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
    await db.drop();
  });

  it('ingests every hour, evaluates the alerts once per snapshot, prunes', async () => {
    const clock = fixedClock('2025-06-02T10:07:00Z');
    const runtime = await startWorkers({
      dataSource: db.dataSource,
      connection,
      queues,
      logger,
      clock,
      domains: { ...defaultDomainConfigs(), yields: loadYieldsConfig({ YIELDS_REPLAY_POOLS: '150', YIELDS_TOP_POOLS_PER_CHAIN: '5', YIELDS_CHART_BACKFILL_PER_RUN: '2' }) },
      schedules: [],
      queueNames: ['yields', 'notifications'],
    });
    const idle = () => waitForQueuesIdle([queues.queue('yields')], 15_000);
    try {
      await queues.add('yields.ingest', {}, { jobId: yieldsJobIds.ingest(clock.now()) });
      await idle();
      const [first] = await db.dataSource.query(`SELECT count(*)::int AS n, min(timestamp) AS at FROM yield_data WHERE data_source <> 'defillama-chart'`);
      expect(first.n).toBeGreaterThan(10);
      expect(first.at).toEqual(new Date('2025-06-02T10:00:00Z'));
      const evaluation = await queues.queue('yields').getJob(yieldsJobIds.evaluate(new Date('2025-06-02T10:00:00Z')));
      expect(evaluation?.returnvalue).toMatchObject({ status: 'evaluated', alerts: 0 });

      // An alert on DefiLlama's example pool (Lido stETH, 2.84 %): APR above 2 fires at the next snapshot, once.
      const [{ id: userId }] = await db.dataSource.query(`INSERT INTO users (email) VALUES ('yields-jobs@example.test') RETURNING id`);
      const [{ id: poolId }] = await db.dataSource.query(`SELECT id FROM yield_pools WHERE pool_id = '747c1d2a-c668-4682-b9f9-296708a3dd90'`);
      await db.dataSource.query(`INSERT INTO yield_alerts (user_id, pool_id, alert_type, threshold, cooldown_minutes) VALUES ($1, $2, 'apr', 2, 0)`, [userId, poolId]);
      for (let h = 0; h < 2; h++) {
        clock.advance(3_600_000);
        await queues.add('yields.ingest', {}, { jobId: yieldsJobIds.ingest(clock.now()) });
        await idle();
      }
      const logs = await db.dataSource.query(`SELECT triggered_value::text AS value, message FROM yield_alert_logs`);
      expect(logs).toEqual([{ value: '2.8400', message: 'STETH (lido, Ethereum): APR 2.84 %, above your 2 %.' }]);
      const [note] = await db.dataSource.query(`SELECT title, activity_type FROM notifications WHERE user_id = $1`, [userId]);
      expect(note).toEqual({ title: 'Yield alert: STETH', activity_type: 'YIELD_ALERT' });

      await queues.add('yields.prune', {}, { jobId: yieldsJobIds.prune(clock.now()) });
      await idle();
      expect((await queues.queue('yields').getJob(yieldsJobIds.prune(clock.now())))?.returnvalue).toEqual({ thinned: 0, deleted: 0, deactivated: 0 });
      expect(await queues.queue('yields').getJobs(['failed'])).toEqual([]);
    } finally {
      await runtime.close();
    }
  });
});
