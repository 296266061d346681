import Redis from 'ioredis';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { fixedClock } from '../../src/runtime/clock';
import { JobQueues } from '../../src/runtime/job-queues';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';
import { LockupsReplaySource, SIMULATED_OFFERINGS } from '../../src/lockups/lockups-replay';
import { checkLockupTriggers, discoverLockups, refreshLockups } from '../../src/lockups/lockups-discovery';
import { notifyLockupFollowers } from '../../src/lockups/lockups-alerts';
import { createLockupFollow } from '../../src/lockups/lockups-follows.store';
import { addDays } from '../../src/lockups/lockups-read.store';
import { upsertLockupOffering } from '../../src/lockups/lockups.store';
import { DEFAULT_LOCKUP_RISK_WEIGHTS } from '../../src/lockups/lockups-risk';
import { priceTriggerMetOn } from '../../src/lockups/lockups-triggers';
import { createLockupsHandlers } from '../../src/lockups/lockups.processor';
import type { JobContext, JobHandler } from '../../src/runtime/job-handler';
import { loadLockupsConfig } from '../../src/lockups/lockups.config';
import { createEntitlements } from '../../src/billing/entitlements';

// The lockups jobs with a fixed clock on a real PostgreSQL and Redis: discovery from the replay twin
// (the recorded Airbnb and Traws prospectuses, and simulated variants of the Airbnb one), idempotent;
// the refresh and the early-release check on daily bars written here (made-up closes and volumes);
// the notices to followers, never twice.

const NOW = '2025-06-02T14:00:00Z'; // a Monday, 10:00 in New York
const TODAY = '2025-06-02';
/** Billing off, no limits set: the self-hosted plan allows any number of follows. */
const access = { entitlements: createEntitlements({ billingEnabled: false, graceDays: 7 }), now: new Date() };
const config = { LOCKUPS_DISCOVERY_DAYS: 7, LOCKUPS_DISCOVERY_MAX_FILINGS: 100, LOCKUP_RISK_WEIGHTS: DEFAULT_LOCKUP_RISK_WEIGHTS };

describe('lockups jobs (real PostgreSQL and Redis, fixed clock)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: 1 });
  const queues = new JobQueues(redis, prefix);
  const clock = fixedClock(NOW);
  const source = new LockupsReplaySource({ clock });
  const deps = () => ({ dataSource: db.dataSource, queues, clock, source, config });
  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => db.dataSource.query(sql, params) as Promise<T[]>;

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
    await db.drop();
  });

  /** Daily bars of a ticker: closes from `first`, one a day (weekdays and weekends alike: the checks count bars). */
  async function bars(ticker: string, first: string, closes: number[], volume: (i: number) => number = () => 1000) {
    const [{ id }] = await q<{ id: number }>(`SELECT id FROM markets WHERE symbol = $1`, [ticker]);
    for (const [i, close] of closes.entries()) {
      await q(
        `INSERT INTO price_bars (market_id, interval, open_time, open, high, low, close, volume, source, simulated) VALUES ($1, '1d', $2::date, $3, $3, $3, $3, $4, 'simulated', true)
         ON CONFLICT (market_id, interval, open_time) DO UPDATE SET close = EXCLUDED.close, volume = EXCLUDED.volume`,
        [id, addDays(first, i), close, volume(i)],
      );
    }
  }

  it('discovers the recorded and simulated prospectuses: one event per tranche, needs_review without a date, never twice', async () => {
    const outcome = await discoverLockups(deps());
    const due = SIMULATED_OFFERINGS(clock.now()).filter((o) => o.fileDate <= TODAY).length;
    expect(outcome).toMatchObject({ candidates: due + 2, stored: due + 2, known: 0, failed: [] });
    expect(outcome.backfills).toBe(due + 2);

    // Airbnb (recorded): three event-based releases, no date computed, the clause kept.
    const abnb = await q(`SELECT tranche, tranches, lockup_expiration_date, status, data_source, shares_locked_up::text AS shares, review_reason, clause IS NOT NULL AS has_clause
                            FROM lockup_events WHERE ticker = 'ABNB' ORDER BY tranche`);
    expect(abnb.map((r) => [r.tranche, r.tranches, r.lockup_expiration_date, r.status, r.data_source, r.shares, r.has_clause])).toEqual([
      [1, 3, null, 'needs_review', 'sec-replay', '16800000', true],
      [2, 3, null, 'needs_review', 'sec-replay', '27800000', true],
      [3, 3, null, 'needs_review', 'sec-replay', '430371360', true],
    ]);
    expect(abnb[0].review_reason).toMatch(/^released on an event, not a date: The first trading day/);
    // Traws (recorded follow-on): 90 days, but no prospectus date in the recorded passage: no date, the filing date as IPO date.
    const [traw] = await q(`SELECT ipo_date::text AS ipo_date, lockup_days, status, review_reason, industry, risk_factors FROM lockup_events WHERE ticker = 'TRAW'`);
    expect(traw).toMatchObject({ ipo_date: '2024-12-31', lockup_days: 90, status: 'needs_review' });
    expect(traw.review_reason).toContain('no prospectus date was found');
    // Its industry is the SIC title of its submissions (the replay has Traws's; Airbnb's answers 404 and stays unknown),
    // which the sector factor reads.
    expect(traw.industry).toBe('Pharmaceutical Preparations');
    expect((traw.risk_factors as { name: string; known: boolean; points: number }[]).find((f) => f.name === 'sector')).toMatchObject({ known: true });
    expect((traw.risk_factors as { name: string; points: number }[]).find((f) => f.name === 'sector')!.points).toBeGreaterThan(0);
    expect(await q(`SELECT DISTINCT industry FROM lockup_events WHERE ticker = 'ABNB'`)).toEqual([{ industry: null }]);

    // A simulated one: dated prospectus + days, labelled simulated, its stock has a market and its daily bars are queued.
    const sim = SIMULATED_OFFERINGS(clock.now()).find((o) => o.fileDate <= TODAY && o.staged)!;
    const rows = await q(`SELECT tranche, lockup_expiration_date::text AS d, status, data_source FROM lockup_events WHERE ticker = $1 ORDER BY tranche`, [sim.ticker]);
    expect(rows.map((r) => r.d)).toEqual([addDays(sim.prospectusDate, 30), addDays(sim.prospectusDate, sim.lockupDays / 2), sim.finalExpiry]);
    expect(rows.every((r) => r.data_source === 'simulated')).toBe(true);
    expect(await q(`SELECT type, cik FROM markets WHERE symbol = $1`, [sim.ticker])).toEqual([{ type: 'stock', cik: sim.cik }]);
    const jobs = await queues.queue('prices').getJobs(['waiting']);
    expect(jobs.map((j) => j.id)).toContain(`prices.backfill-bars/${sim.ticker}/1d/${TODAY}`);

    const [{ n }] = await q<{ n: number }>('SELECT count(*)::int AS n FROM lockup_events');
    expect(await discoverLockups(deps())).toMatchObject({ stored: 0, known: due + 2 });
    expect(await discoverLockups(deps(), { reparse: true })).toMatchObject({ stored: due + 2, events: { inserted: 0, updated: n } });
    expect(await q('SELECT count(*)::int AS n FROM lockup_events')).toEqual([{ n }]);
    expect((await q(`SELECT last_success_at FROM source_health WHERE source = 'lockups-discovery'`))[0].last_success_at).toEqual(new Date(NOW));

    // Through the job's handler: a discovery that stored prospectuses queues its own refresh and
    // trigger check a minute later (the backfilled bars are in by then); one that stored none queues nothing.
    const handlers: JobHandler[] = createLockupsHandlers({ source: () => source, config: () => loadLockupsConfig({ LOCKUPS_DISCOVERY_DAYS: '7', LOCKUPS_DISCOVERY_MAX_FILINGS: '100' }) });
    const discover = handlers.find((h): h is JobHandler<'lockups.discover'> => h.name === 'lockups.discover')!;
    const context: JobContext = { dataSource: db.dataSource, queues, redis, clock, logger: pino({ level: 'silent' }) };
    const delayed = async () => (await queues.queue('lockups').getJobs(['delayed'])).map((j) => [j.id, j.opts.delay]).sort();
    await discover.run({}, context);
    expect(await delayed()).toEqual([]);
    await discover.run({ reparse: true }, context);
    expect(await delayed()).toEqual([
      [`lockups.check-triggers/after-discovery/${Date.parse(NOW)}`, 90_000],
      [`lockups.refresh/after-discovery/${Date.parse(NOW)}`, 60_000],
    ]);
    await queues.queue('lockups').obliterate({ force: true });
  });

  it('refreshes price, run-up, volume and score from the daily bars, and checks the early-release trigger', async () => {
    const sim = SIMULATED_OFFERINGS(clock.now()).find((o) => o.fileDate <= TODAY && o.finalExpiry > TODAY)!;
    const ipo = Number(sim.ipoPrice);
    // 60 bars from the day after the IPO: volume 1000 for the first 30, 500 for the last 30; the close
    // at 1.5x the IPO price on days 20..29 (10 of the 15 ending day 29), the IPO price otherwise.
    const first = addDays(sim.prospectusDate, 1);
    const closes = Array.from({ length: 60 }, (_, i) => (i >= 20 && i <= 29 ? ipo * 1.5 : ipo * 1.2));
    await bars(sim.ticker, first, closes, (i) => (i < 30 ? 1000 : 500));
    const refreshed = await refreshLockups(deps());
    expect(refreshed.scored).toBeGreaterThan(0);
    const [row] = await q(
      `SELECT trim_scale(current_price)::text AS price, run_up::float8 AS run_up, avg_volume_ratio::float8 AS ratio, risk_factors FROM lockup_events WHERE ticker = $1 AND lockup_expiration_date = $2`,
      [sim.ticker, sim.finalExpiry],
    );
    expect(row).toMatchObject({ price: (ipo * 1.2).toFixed(10).replace(/\.?0+$/, ""), run_up: 0.2, ratio: 0.5 });
    const factors = row.risk_factors as { name: string; points: number; known: boolean }[];
    // run-up +20 % of the 100 % that counts in full: 20 x 0.2 = 4; volume (0.5 - 0.25) / 0.75 = 1/3: 10 x 0.333 = 3.3.
    expect(factors.filter((f) => f.name === 'runUp' || f.name === 'volume').map((f) => [f.name, f.points, f.known])).toEqual([
      ['runUp', 4, true],
      ['volume', 3.3, true],
    ]);

    expect(priceTriggerMetOn({ priceMultiple: 1.33, days: 10, windowDays: 15 }, ipo, closes.map((c, i) => ({ date: addDays(first, i), close: c })), { ipoDate: sim.prospectusDate, today: TODAY })).toBe(addDays(first, 29));
    const checked = await checkLockupTriggers({ dataSource: db.dataSource, clock });
    expect(checked.met.filter((m) => m.ticker === sim.ticker).map((m) => m.metOn)).toEqual(expect.arrayContaining([addDays(first, 29)]));
    const [after] = await q(`SELECT status, early_release_met_on::text AS met, early_release FROM lockup_events WHERE ticker = $1 AND lockup_expiration_date = $2`, [sim.ticker, sim.finalExpiry]);
    expect(after).toMatchObject({ status: 'released_early', met: addDays(first, 29) });
    expect((after.early_release as { metOn: string }[])[0].metOn).toBe(addDays(first, 29));
    // Nothing new the second time.
    expect((await checkLockupTriggers({ dataSource: db.dataSource, clock })).met.filter((m) => m.ticker === sim.ticker)).toEqual([]);
  });

  it('notifies followers 7 days before and on the day, once, with shares, float share and top factors', async () => {
    const [{ id: ann }, { id: ben }, { id: gone }] = await q<{ id: number }>(
      `INSERT INTO users (email) VALUES ('ann@example.test'), ('ben@example.test'), ('gone@example.test') RETURNING id`,
    );
    await q(`UPDATE users SET deleted_at = now() WHERE id = $1`, [gone]);
    const score = { riskScore: 62.5, riskFactors: [
      { name: 'floatUnlock' as const, label: 'Share of the float unlocking', points: 25, weight: 25, value: 1, input: '60.0 % of the shares outstanding unlock', source: 'Brav & Gompers (2003)', known: true },
      { name: 'vcBacked' as const, label: 'Venture-capital backed', points: 20, weight: 20, value: 1, input: 'venture-capital backed', source: 'Field & Hanka (2001)', known: true },
    ] };
    const { ids } = await upsertLockupOffering(
      db.dataSource,
      {
        offeringKey: 'csv:ZZTOP:2025-01-01', ticker: 'ZZTOP', companyName: 'Zz Top Corp', cik: null, ipoDate: '2025-01-01', filingDate: null, ipoPrice: '10',
        sharesOffered: null, underwriters: [], lockupDays: 180, boundParties: null, clause: null, sourceAccession: null, sourceUrl: null, dataSource: 'csv',
        totalSharesOutstanding: '100000000', vcBacked: true, industry: null, earlyRelease: [], reviewReason: null,
        tranches: [
          { tranche: 1, label: '150 days', expirationDate: TODAY, sharesLockedUp: '20000000', ...score },
          { tranche: 2, label: '157 days', expirationDate: addDays(TODAY, 7), sharesLockedUp: '60000000', ...score },
        ],
      },
      { today: TODAY },
    );
    await createLockupFollow(db.dataSource, ann, { kind: 'ticker', ticker: 'ZZTOP', noticeDays: [7] }, access);
    await createLockupFollow(db.dataSource, ben, { kind: 'risk', minRiskScore: 90 }, access);
    await createLockupFollow(db.dataSource, gone, { kind: 'ticker', ticker: 'ZZTOP' }, access);

    const first = await notifyLockupFollowers({ dataSource: db.dataSource, queues, redis, clock });
    expect(first).toMatchObject({ due: 2, inserted: 2, users: 1 });
    const rows = await q(`SELECT user_id, title, message, dedupe_key, activity_type FROM notifications ORDER BY dedupe_key`);
    expect(rows.map((r) => [r.user_id, r.dedupe_key, r.activity_type])).toEqual([
      [ann, `lockups:${ids[0]}:0`, 'LOCKUP_EXPIRY'],
      [ann, `lockups:${ids[1]}:7`, 'LOCKUP_EXPIRY'],
    ]);
    expect(rows[0].title).toBe(`ZZTOP: IPO lock-up expires today (${TODAY})`);
    expect(rows[1].message).toBe(
      `60,000,000 shares of Zz Top Corp (ZZTOP) unlock on ${addDays(TODAY, 7)} (release 2 of 2, 157 days): 60.0 % of the shares outstanding. ` +
        'Risk score 62.5/100; top factors: share of the float unlocking +25 (60.0 % of the shares outstanding unlock), venture-capital backed +20 (venture-capital backed).',
    );
    // A retry the same day writes nothing new; the next days nothing is due again for these.
    expect(await notifyLockupFollowers({ dataSource: db.dataSource, queues, redis, clock })).toMatchObject({ due: 2, inserted: 0 });
    await q('DELETE FROM notifications');
    const tomorrow = fixedClock('2025-06-03T14:00:00Z');
    expect(await notifyLockupFollowers({ dataSource: db.dataSource, queues, redis, clock: tomorrow })).toMatchObject({ due: 0, inserted: 0 });
    expect(await q('SELECT count(*)::int AS n FROM lockup_notices')).toEqual([{ n: 2 }]);
  });
});
