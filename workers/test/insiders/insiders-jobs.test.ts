import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createWorkerConnection, defaultDomainConfigs, fixedClock } from '@tickerbell/jobs';
import { EdgarFetchError } from '@tickerbell/jobs/sources';
import { INSIDERS_RECORDINGS_DIR, InsidersReplaySource, createInsidersHandlers, insidersJobIds, loadInsidersConfig } from '@tickerbell/jobs/insiders';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers } from '../../src/runtime';

/** Monday 2025-12-15, 10:00 New York. */
const NOW = '2025-12-15T15:00:00Z';

describe('insiders jobs through real workers (replay source, PostgreSQL, Redis)', () => {
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

  it('a poll releases the recordings, each filing is fetched and stored, the tickers synced, and the analytics show the simulated cluster buy', async () => {
    const config = loadInsidersConfig({ INSIDERS_REPLAY_PER_POLL: '100' });
    const runtime = await startWorkers({
      dataSource: db.dataSource,
      connection,
      queues,
      logger,
      clock: fixedClock(NOW),
      domains: { ...defaultDomainConfigs(), insiders: config },
      schedules: [],
      queueNames: ['insiders'],
    });
    try {
      await queues.add('insiders.poll-current', {});
      await waitForQueuesIdle([queues.queue('insiders')], 30_000);
      const completed = await queues.queue('insiders').getJobs(['completed']);
      const names = completed.map((j) => j.name);
      expect(names.filter((n) => n === 'insiders.fetch-filing')).toHaveLength(14);
      expect(names.filter((n) => n === 'insiders.recompute-analytics')).toHaveLength(14);
      expect(names).toContain('insiders.sync-tickers');
      expect(await queues.queue('insiders').getJobs(['failed'])).toEqual([]);

      const [{ parsed }] = await db.dataSource.query(`SELECT count(*)::int AS parsed FROM insider_trading_filings WHERE status = 'parsed'`);
      expect(parsed).toBe(14);
      const [{ companies }] = await db.dataSource.query(`SELECT count(*)::int AS companies FROM insider_trading_companies`);
      expect(companies).toBeGreaterThan(300 - 50);
      const [ncv] = await db.dataSource.query(
        `SELECT a.is_cluster_buy, a.cluster_insiders, to_char(a.analysis_date, 'YYYY-MM-DD') AS day
         FROM insider_trading_analytics a JOIN insider_trading_companies c ON c.id = a.company_id WHERE c.ticker = 'NCV'`,
      );
      expect(ncv).toEqual({ is_cluster_buy: true, cluster_insiders: 3, day: '2025-12-15' });
      const health = await db.dataSource.query(`SELECT source, consecutive_failures FROM source_health WHERE source LIKE 'sec-%' ORDER BY source`);
      expect(health).toEqual([
        { source: 'sec-company-tickers', consecutive_failures: 0 },
        { source: 'sec-form4-feed', consecutive_failures: 0 },
        { source: 'sec-form4-filings', consecutive_failures: 0 },
      ]);

      // The same 60-second slot: the next tick does not read the feed again.
      const again = await queues.add('insiders.poll-current', {});
      await waitForQueuesIdle([queues.queue('insiders')], 10_000);
      expect((await queues.queue('insiders').getJob(again.id as string))?.returnvalue).toEqual({ status: 'not-due' });
    } finally {
      await runtime.close();
    }
  });

  it('a fetch failing over HTTP is retried with backoff, then recorded failed and not retried again', async () => {
    const source = new InsidersReplaySource({ dir: INSIDERS_RECORDINGS_DIR });
    let calls = 0;
    source.filing = async () => {
      calls++;
      throw new EdgarFetchError('GET /Archives/edgar/data/1750/000112760225001055/0001127602-25-009999.txt: HTTP 503 (backing off 30 s)', 503, 30_000);
    };
    const config = loadInsidersConfig({ INSIDERS_MAX_FILING_ATTEMPTS: '3', INSIDERS_RETRY_DELAY_MS: '20' });
    const runtime = await startWorkers({
      dataSource: db.dataSource,
      connection,
      queues,
      logger,
      clock: fixedClock(NOW),
      overrides: createInsidersHandlers({ source: () => source, config: () => config }),
      schedules: [],
      queueNames: ['insiders'],
    });
    try {
      const accession = '0001127602-25-009999';
      await queues.add('insiders.fetch-filing', { accession, cik: '1750', via: 'index' }, {
        jobId: insidersJobIds.fetchFiling(accession),
        attempts: config.INSIDERS_MAX_FILING_ATTEMPTS,
        backoff: { type: 'exponential', delay: config.INSIDERS_RETRY_DELAY_MS },
      });
      const deadline = Date.now() + 15_000;
      let job = await queues.queue('insiders').getJob(insidersJobIds.fetchFiling(accession));
      while (!(await job?.isFailed()) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        job = await queues.queue('insiders').getJob(insidersJobIds.fetchFiling(accession));
      }
      expect(job?.attemptsMade).toBe(3);
      expect(job?.failedReason).toContain('HTTP 503');
      expect(calls).toBe(3);
      const [row] = await db.dataSource.query(`SELECT status, attempts, failure_reason FROM insider_trading_filings WHERE accession_number = $1`, [accession]);
      expect(row).toEqual({ status: 'failed', attempts: 3, failure_reason: expect.stringContaining('HTTP 503') });
    } finally {
      await runtime.close();
    }
  });
});
