import { join } from 'node:path';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createWorkerConnection, fixedClock } from '@tickerbell/jobs';
import { CftcReplaySource, createCotHandlers } from '@tickerbell/jobs/cot';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers } from '../../src/runtime';

const SAMPLE = join(__dirname, '../../../jobs/test/fixtures/cot/cftc_tff_futures_only_2022_sample.csv');

describe('cot jobs through real workers (replay source, PostgreSQL, Redis)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const connection = createWorkerConnection(testRedisUrl());
  const queueConnection = createWorkerConnection(testRedisUrl());
  const queues = new JobQueues(queueConnection, prefix);

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

  it('a Friday poll stores the new report, fans out the analytics per instrument, and records the source health', async () => {
    const cot = createCotHandlers({ source: () => new CftcReplaySource([SAMPLE]), config: () => ({ COT_LOOKBACK: 156 }) });
    const runtime = await startWorkers({
      dataSource: db.dataSource,
      connection,
      queues,
      logger: pino({ level: 'silent' }),
      clock: fixedClock('2022-08-19T19:40:00Z'),
      // The domains' handlers, with COT's on a replay source.
      overrides: cot,
      schedules: [],
      queueNames: ['cot'],
    });
    try {
      await queues.add('cot.fetch-latest', {});
      await waitForQueuesIdle([queues.queue('cot')], 20000);
      const rows = await db.dataSource.query(
        `SELECT i.cftc_code, to_char(r.report_date, 'YYYY-MM-DD') AS date, a.is_provisional, a.leveraged_percentile_rank
         FROM cot_analytics a JOIN cot_positions p ON p.id = a.position_id
         JOIN cot_instruments i ON i.id = p.instrument_id JOIN cot_reports r ON r.id = p.report_id ORDER BY i.cftc_code`,
      );
      // One report per market: too short a history to rank (COT_MIN_REPORTS_TO_RANK), so no percentile.
      expect(rows).toEqual(
        ['043602', '099741', '133741', '13874A'].map((code) => ({ cftc_code: code, date: '2022-08-16', is_provisional: true, leveraged_percentile_rank: null })),
      );
      const [health] = await db.dataSource.query(`SELECT consecutive_failures, last_data_at FROM source_health WHERE source = 'cftc'`);
      expect(health).toEqual({ consecutive_failures: 0, last_data_at: new Date('2022-08-16T00:00:00Z') });
      const completed = await queues.queue('cot').getJobs(['completed']);
      expect(completed.map((j) => j.name).sort()).toEqual([
        'cot.fetch-latest',
        'cot.recompute-analytics',
        'cot.recompute-analytics',
        'cot.recompute-analytics',
        'cot.recompute-analytics',
      ]);
    } finally {
      await runtime.close();
    }
  });
});
