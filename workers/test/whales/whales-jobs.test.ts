import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createWorkerConnection, defaultDomainConfigs, fixedClock, type JobContext } from '@tickerbell/jobs';
import { createWhalesHandlers, loadWhalesConfig, startWhalesReplay, whalesJobIds, whalesReplayChain, whalesReplayHead, type EthSource } from '@tickerbell/jobs/whales';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers } from '../../src/runtime';

const NOW = '2025-06-01T12:00:00Z';
/** The replay twin's head at a time: a block every 12 s since WHALES_REPLAY_EPOCH. */
const replayHead = (at: string) => Number(whalesReplayHead(whalesReplayChain().first, new Date(at)));

describe('whales jobs through the workers (the replay twin in process, PostgreSQL, Redis)', () => {
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

  it('queues one alerts job per recorded block after a scan, alerts a watch once, and sends its digest at the hour', async () => {
    // Later than the other tests' scans: this one records blocks of its own.
    const clock = fixedClock('2025-06-01T12:05:00Z');
    const runtime = await startWorkers({
      dataSource: db.dataSource,
      connection,
      queues,
      logger,
      clock,
      domains: { ...defaultDomainConfigs(), whales: loadWhalesConfig({}) },
      schedules: [],
      queueNames: ['whales', 'notifications', 'mail'],
    });
    try {
      await queues.add('whales.scan', {}, { jobId: whalesJobIds.scan('ethereum', clock.now()) });
      await waitForQueuesIdle([queues.queue('whales')], 30_000);
      const [recorded]: { hash: string }[] = await db.dataSource.query(`SELECT hash FROM whale_blocks WHERE chain = 'ethereum' ORDER BY number DESC LIMIT 1`);
      const job = await queues.queue('whales').getJob(whalesJobIds.alerts('ethereum', recorded.hash));
      expect(job?.finishedOn).toEqual(expect.any(Number));
      expect(await queues.queue('whales').getJobs(['failed'])).toEqual([]);

      // A user watching the receiver of one of the block's transfers, hourly, priced over the global threshold.
      const [transfer]: { id: string; to_address: string }[] = await db.dataSource.query(
        `SELECT id, to_address FROM whale_transactions WHERE block_hash = $1 AND to_address IS NOT NULL ORDER BY log_index LIMIT 1`,
        [recorded.hash],
      );
      await db.dataSource.query(`UPDATE whale_transactions SET usd_value = 2500000, price_status = 'priced' WHERE id = $1`, [transfer.id]);
      const [{ id: userId }]: { id: number }[] = await db.dataSource.query(`INSERT INTO users (email) VALUES ('whale-watcher@example.test') RETURNING id`);
      await db.dataSource.query(`INSERT INTO whale_addresses (address, added_by) VALUES ($1, 'user') ON CONFLICT DO NOTHING`, [transfer.to_address]);
      await db.dataSource.query(
        `INSERT INTO user_watchlists (user_id, address_id, alert_frequency) SELECT $1, id, 'hourly' FROM whale_addresses WHERE address = $2`,
        [userId, transfer.to_address],
      );
      // Twice (as a retry would): one alert.
      await queues.add('whales.alerts', { chain: 'ethereum', hash: recorded.hash }, { jobId: 'whales.alerts/again/1' });
      await queues.add('whales.alerts', { chain: 'ethereum', hash: recorded.hash }, { jobId: 'whales.alerts/again/2' });
      await waitForQueuesIdle([queues.queue('whales')], 15_000);
      const alerts: { status: string; frequency: string }[] = await db.dataSource.query(`SELECT status, frequency FROM whale_alerts WHERE user_id = $1`, [userId]);
      expect(alerts).toEqual([{ status: 'pending', frequency: 'hourly' }]);

      clock.set('2025-06-01T13:00:00Z');
      await queues.add('whales.digests', {}, { jobId: whalesJobIds.digests(clock.now()) });
      await waitForQueuesIdle([queues.queue('whales')], 15_000);
      const notes: { title: string; message: string }[] = await db.dataSource.query(`SELECT title, message FROM notifications WHERE user_id = $1`, [userId]);
      expect(notes).toHaveLength(1);
      expect(notes[0].title).toBe('Whale digest (hourly): 1 transfer');
      expect(notes[0].message).toContain('($2.5M)');
      expect((await db.dataSource.query(`SELECT status FROM whale_alerts WHERE user_id = $1`, [userId]))[0].status).toBe('sent');
    } finally {
      await runtime.close();
    }
  });
});
