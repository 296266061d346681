import { join } from 'node:path';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createWorkerConnection, fixedClock } from '@tickerbell/jobs';
import { CftcReplaySource, createCotHandlers, importCotRows, openCotFile, setCotFollow, type CotRow } from '@tickerbell/jobs/cot';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers, type WorkersRuntime } from '../../src/runtime';

const SAMPLE = join(__dirname, '../../../jobs/test/fixtures/cot/cftc_tff_futures_only_2022_sample.csv');
/** The Friday evening after the sample's newest report (Tuesday 2022-08-16) was released. */
const RELEASE_FRIDAY = '2022-08-19T20:00:00Z';

interface NotificationRow {
  user_id: number;
  title: string;
  message: string;
  type: string;
  activity_type: string;
  symbol_id: string | null;
  dedupe_key: string;
  details: { cftcCode: string; reportDate: string; alertLevel: string; events: { type: string }[] };
}

/**
 * The real sample's rows of one instrument, oldest first, with the leveraged positions of the last
 * two reports moved to opposite ends (short extreme, then long extreme): the newest report then
 * carries a "flipped to a long extreme" alert event.
 */
async function rowsWithFlip(cftcCode: string, count: number): Promise<CotRow[]> {
  const rows: CotRow[] = [];
  for await (const row of openCotFile(SAMPLE).rows) if (row.cftcCode === cftcCode) rows.push(row);
  rows.sort((a, b) => a.reportDate.localeCompare(b.reportDate));
  const kept = rows.slice(0, count);
  const half = (row: CotRow) => Math.round(row.position.openInterest / 2);
  const previous = kept[kept.length - 2];
  const newest = kept[kept.length - 1];
  kept[kept.length - 2] = { ...previous, position: { ...previous.position, leveragedLong: 0, leveragedShort: half(previous) } };
  kept[kept.length - 1] = { ...newest, position: { ...newest.position, leveragedLong: half(newest), leveragedShort: 0 } };
  return kept;
}

describe('cot alerts: fan-out of new extremes and divergence changes to followers (real workers, PostgreSQL, Redis)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const connection = createWorkerConnection(testRedisUrl());
  const queueConnection = createWorkerConnection(testRedisUrl());
  const queues = new JobQueues(queueConnection, prefix);
  let runtime: WorkersRuntime;
  let users: { alice: number; bob: number; carol: number };

  async function notifications(dedupeKey: string): Promise<NotificationRow[]> {
    return db.dataSource.query(
      `SELECT user_id, title, message, type, activity_type, symbol_id, dedupe_key, details FROM notifications WHERE dedupe_key = $1 ORDER BY user_id`,
      [dedupeKey],
    );
  }

  async function recompute(cftcCode: string): Promise<void> {
    await queues.add('cot.recompute-analytics', { cftcCode });
    await waitForQueuesIdle([queues.queue('cot'), queues.queue('notifications')], 20000);
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    const rows: { id: number }[] = await db.dataSource.query(
      `INSERT INTO users (email) VALUES ('alice@example.com'), ('bob@example.com'), ('carol@example.com') RETURNING id`,
    );
    users = { alice: rows[0].id, bob: rows[1].id, carol: rows[2].id };
    const cot = createCotHandlers({ source: () => new CftcReplaySource([SAMPLE]), config: () => ({ COT_LOOKBACK: 156 }) });
    runtime = await startWorkers({
      dataSource: db.dataSource,
      connection,
      queues,
      logger: pino({ level: 'silent' }),
      clock: fixedClock(RELEASE_FRIDAY),
      // The domains' handlers, with COT's on a replay source.
      overrides: cot,
      schedules: [],
      queueNames: ['cot', 'notifications'],
    });
  });

  afterAll(async () => {
    await runtime.close();
    await queues.close();
    connection.disconnect();
    queueConnection.disconnect();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
    await db.drop();
  });

  it('notifies each follower exactly once per report, even when the recompute and the notify job run twice, and no one else', async () => {
    await importCotRows(db.dataSource, await rowsWithFlip('13874A', 33), { sourceUrl: 'test:sample', now: new Date(RELEASE_FRIDAY) });
    await setCotFollow(db.dataSource, users.alice, '13874A', true);
    await setCotFollow(db.dataSource, users.bob, '13874A', true);

    await recompute('13874A');
    await recompute('13874A');
    // A notify job re-run under another id (as after BullMQ removed the first): the dedupe key holds.
    await queues.add('cot.notify', { cftcCode: '13874A', reportDate: '2022-08-16' }, { jobId: 'cot-notify-again' });
    await waitForQueuesIdle([queues.queue('cot'), queues.queue('notifications')], 20000);

    const sent = await notifications('cot:13874A:2022-08-16');
    expect(sent.map((n) => n.user_id)).toEqual([users.alice, users.bob]);
    const [alice] = sent;
    // The flip also moved the divergence to another level: one notification names both events.
    expect(alice.details.events.map((e) => e.type)).toEqual(['extreme', 'divergence']);
    expect(alice.title).toBe('E-MINI S&P 500 (ES): leveraged funds flipped to a long extreme (+1 more)');
    expect(alice.message).toMatch(/Divergence between leveraged funds and asset managers moved from (none|low|medium|high) to (none|low|medium|high)\./);
    expect(alice.message).toContain('Leveraged funds are at the 100th percentile of the last 33 reports (a long extreme, was short).');
    expect(alice.message).toMatch(/Divergence \(leveraged - asset managers\): [+-]?\d+\.\d{2}, (none|low|medium|high)/);
    expect(alice).toMatchObject({ activity_type: 'MARKET_ALERT_TECHNICAL', symbol_id: 'ES' });
    expect(alice.type).toBe(alice.details.alertLevel === 'high' ? 'warning' : 'info');
    expect(alice.details).toMatchObject({ cftcCode: '13874A', reportDate: '2022-08-16' });
    expect(alice.details.events[0]).toMatchObject({ type: 'extreme', group: 'leveraged', side: 'long', previousSide: 'short' });
    const all: { user_id: number }[] = await db.dataSource.query('SELECT user_id FROM notifications');
    expect(all.filter((n) => n.user_id === users.carol)).toEqual([]);
    expect(all).toHaveLength(2);
  });

  it('a backfill whose newest report is weeks old notifies no one, and re-importing older reports does not notify again', async () => {
    // Euro FX up to 2022-07-26 only: its newest report has an alert event, but is 24 days old.
    await importCotRows(db.dataSource, await rowsWithFlip('099741', 30), { sourceUrl: 'test:backfill', now: new Date(RELEASE_FRIDAY) });
    await setCotFollow(db.dataSource, users.carol, '099741', true);
    await recompute('099741');
    const [stored]: { report_date: string; alert_events: unknown[] }[] = await db.dataSource.query(
      `SELECT to_char(r.report_date, 'YYYY-MM-DD') AS report_date, a.alert_events FROM cot_analytics a
       JOIN cot_positions p ON p.id = a.position_id JOIN cot_reports r ON r.id = p.report_id
       JOIN cot_instruments i ON i.id = p.instrument_id WHERE i.cftc_code = '099741' ORDER BY r.report_date DESC LIMIT 1`,
    );
    expect(stored.report_date).toBe('2022-07-26');
    expect(stored.alert_events.length).toBeGreaterThan(0);
    expect(await notifications('cot:099741:2022-07-26')).toEqual([]);

    // Older E-mini reports again (a backfill while the newest report is stored): still one each.
    const older = (await rowsWithFlip('13874A', 33)).slice(0, 20);
    await importCotRows(db.dataSource, older, { sourceUrl: 'test:backfill', now: new Date(RELEASE_FRIDAY) });
    await recompute('13874A');
    expect((await notifications('cot:13874A:2022-08-16')).map((n) => n.user_id)).toEqual([users.alice, users.bob]);
    const completed = await queues.queue('cot').getJobs(['completed']);
    expect(completed.filter((j) => j.name === 'cot.notify' && j.data.cftcCode === '099741')).toEqual([]);
  });
});
