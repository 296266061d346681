import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createWorkerConnection, defaultDomainConfigs, fixedClock, type JobContext } from '@tickerbell/jobs';
import { REPLAY_BLOCK_SECONDS, WHALES_REPLAY_EPOCH, createWhalesHandlers, loadWhalesConfig, startWhalesReplay, whalesJobIds, type EthSource } from '@tickerbell/jobs/whales';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers } from '../../src/runtime';

const NOW = '2025-06-01T12:00:00Z';
const FIRST_REPLAY_BLOCK = 15_136_987;
/** The replay twin's head at a time: a block every 12 s since WHALES_REPLAY_EPOCH. */
const replayHead = (at: string) => FIRST_REPLAY_BLOCK + Math.floor((Date.parse(at) / 1000 - WHALES_REPLAY_EPOCH) / REPLAY_BLOCK_SECONDS);

describe('whales.scan through the workers (the replay twin in process, PostgreSQL, Redis)', () => {
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

  const blocks = async () =>
    ((await db.dataSource.query(`SELECT number FROM whale_blocks WHERE chain = 'ethereum' ORDER BY number`)) as { number: string }[]).map((r) => Number(r.number));

  it('without ETH_RPC_URL scans the replay twin, whose head follows the clock (a block per 12 s), and says replay in source_health', async () => {
    const clock = fixedClock(NOW);
    const runtime = await startWorkers({
      dataSource: db.dataSource,
      connection,
      queues,
      logger,
      clock,
      domains: { ...defaultDomainConfigs(), whales: loadWhalesConfig({}) },
      schedules: [],
      queueNames: ['whales'],
    });
    try {
      await queues.add('whales.scan', {}, { jobId: whalesJobIds.scan('ethereum', clock.now()) });
      await waitForQueuesIdle([queues.queue('whales')], 15_000);
      const target = replayHead(NOW) - 12;
      expect(await blocks()).toEqual([target]);

      clock.advance(3 * 12_000);
      await queues.add('whales.scan', {}, { jobId: whalesJobIds.scan('ethereum', clock.now()) });
      await waitForQueuesIdle([queues.queue('whales')], 15_000);
      expect(await blocks()).toEqual([target, target + 1, target + 2, target + 3]);
      expect(await queues.queue('whales').getJobs(['failed'])).toEqual([]);
      const [health] = await db.dataSource.query(`SELECT consecutive_failures, details FROM source_health WHERE source = 'ethereum-rpc'`);
      expect(health).toEqual({ consecutive_failures: 0, details: { kind: 'replay' } });
    } finally {
      await runtime.close();
    }
  });

  it('lets one worker scan a chain at a time, and queues the next batch at once while catching up', async () => {
    await db.dataSource.query(`DELETE FROM whale_transactions; DELETE FROM whale_blocks; DELETE FROM whale_scan_state`);
    const clock = fixedClock(NOW);
    const context: JobContext = { dataSource: db.dataSource, queues, redis: connection, clock, logger };
    const replay = await startWhalesReplay(context);
    replay.advance?.(clock.now());
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let gated = true;
    const start = replayHead(NOW) - 12 - 11;
    const [handler] = createWhalesHandlers({
      config: () => loadWhalesConfig({ WHALES_SCAN_BATCH: '5', WHALES_START_BLOCK: String(start) }),
      source: async (): Promise<EthSource> => {
        if (gated) await gate;
        return replay.source;
      },
      tokens: () => async () => ({ symbol: null, decimals: null }),
    });
    try {
      const first = handler.run({}, context);
      // The first run holds the lock while it waits at the gate.
      await new Promise((resolve) => setImmediate(resolve));
      await expect(handler.run({}, context)).resolves.toEqual({ status: 'busy' });
      gated = false;
      release();
      await expect(first).resolves.toMatchObject({ status: 'scanned', from: start, to: start + 4 });
      expect(await queues.queue('whales').getJob(whalesJobIds.continueFrom('ethereum', start + 5))).toBeDefined();
      await expect(handler.run({}, context)).resolves.toMatchObject({ status: 'scanned', from: start + 5, to: start + 9 });
      await expect(handler.run({}, context)).resolves.toMatchObject({ status: 'scanned', from: start + 10, to: start + 11 });
      expect(await queues.queue('whales').getJob(whalesJobIds.continueFrom('ethereum', start + 12))).toBeUndefined();
      expect(await blocks()).toEqual(Array.from({ length: 12 }, (_, i) => start + i));
    } finally {
      await replay.close?.();
    }
  });
});
