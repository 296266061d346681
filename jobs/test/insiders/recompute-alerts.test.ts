import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { insiderAlertAudience } from '../../src/insiders/insiders-analytics.store';
import { notifyInsiderEvent, type InsiderNotifyOutcome } from '../../src/insiders/insiders-alerts';
import { queueDailyInsiderRecomputes, recomputeInsiderAnalytics } from '../../src/insiders/insiders-recompute';
import { insidersJobIds } from '../../src/insiders/insiders.jobs';
import { deliverNotifications } from '../../src/notifications/notification-delivery';
import { audiencePage } from '../../src/notifications/notifications.store';
import { fixedClock } from '../../src/runtime/clock';
import type { JobContext } from '../../src/runtime/job-handler';
import { JobQueues } from '../../src/runtime/job-queues';
import { createWorkerConnection } from '../../src/runtime/redis';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';

/**
 * The recompute and the alert fan-out on real PostgreSQL and Redis (queues under their own
 * prefix; the jobs are run by calling their functions, in order). The recorded filings hold a single
 * open-market purchase, so the purchases, the cluster and the trading histories here are crafted
 * directly in the committed tables (filings, owners, lines, labelled data_source 'simulated').
 */

type Roles = { officer?: boolean; director?: boolean; tenPercent?: boolean; title?: string | null };

interface NotificationRow {
  user_id: number;
  title: string;
  message: string;
  type: string;
  activity_type: string;
  symbol_id: string | null;
  dedupe_key: string;
  details: { kind: string; key: string; companyUrl: string; filings: { accessionNumber: string; url: string }[]; transactionIds: string[] };
}

describe('insiders: recompute, alert events and their fan-out (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = createWorkerConnection(testRedisUrl());
  const queues = new JobQueues(redis, prefix);
  const clock = fixedClock('2025-03-12T15:00:00Z'); // 11:00 in New York
  let context: JobContext;
  let acme: number;
  let beta: number;
  const insider: Record<'ceo' | 'director' | 'fund', number> = { ceo: 0, director: 0, fund: 0 };
  const users: Record<'alice' | 'bob' | 'carol' | 'dave' | 'erin' | 'frank' | 'gina', number> = { alice: 0, bob: 0, carol: 0, dave: 0, erin: 0, frank: 0, gina: 0 };
  let accessionSeq = 100;
  const processedNotify = new Set<string>();
  const delivered = new Set<string>();

  const secUrl = (accession: string) => `https://www.sec.gov/Archives/edgar/data/1/${accession.replace(/-/g, '')}/${accession}-index.htm`;

  /** One filing of `insiderId` on the company (its owner row with the roles as filed) and its lines. */
  async function file(
    companyId: number,
    insiderId: number,
    roles: Roles,
    filedAt: string,
    lines: { code: string; date: string; shares: number; price: number; rule10b5One?: boolean | null }[],
  ): Promise<{ accession: string; ids: string[] }> {
    const accession = `0000000001-25-${String(accessionSeq++).padStart(6, '0')}`;
    const [filing]: { id: number }[] = await db.dataSource.query(
      `INSERT INTO insider_trading_filings (accession_number, form_type, status, company_id, filed_at, filing_date, sec_url, discovered_via, stored_at, attempts)
       VALUES ($1, '4', 'parsed', $2, $3, ($3::timestamptz AT TIME ZONE 'America/New_York')::date, $4, 'feed', $3, 1) RETURNING id`,
      [accession, companyId, filedAt, secUrl(accession)],
    );
    await db.dataSource.query(
      `INSERT INTO insider_trading_filing_owners (filing_id, insider_id, position, is_officer, is_director, is_ten_percent_owner, officer_title) VALUES ($1, $2, 0, $3, $4, $5, $6)`,
      [filing.id, insiderId, roles.officer ?? false, roles.director ?? false, roles.tenPercent ?? false, roles.title ?? null],
    );
    const ids: string[] = [];
    for (const [i, l] of lines.entries()) {
      const [row]: { id: string }[] = await db.dataSource.query(
        `INSERT INTO insider_trading_transactions (company_id, insider_id, filing_id, table_kind, line_number, transaction_date, transaction_type, shares_traded,
           price_per_share, total_value, acquired_disposed, rule10b5_one, sec_accession_number, sec_filing_date, sec_url, data_source)
         VALUES ($1, $2, $3, 'non-derivative', $4, $5, $6, $7, $8, $9, $10, $11, $12, ($13::timestamptz AT TIME ZONE 'America/New_York')::date, $14, 'simulated') RETURNING id`,
        [companyId, insiderId, filing.id, i + 1, l.date, l.code, l.shares, l.price, (l.shares * l.price).toFixed(2), l.code === 'S' ? 'D' : 'A', l.rule10b5One === undefined ? false : l.rule10b5One, accession, filedAt, secUrl(accession)],
      );
      ids.push(String(row.id));
    }
    return { accession, ids };
  }

  async function follow(userId: number, companyId: number, settings: { cluster: boolean; officerMin: number | null; unusual: boolean }): Promise<void> {
    await db.dataSource.query(
      `INSERT INTO insider_follows (user_id, company_id, notify_cluster_buy, officer_buy_min_value, notify_unusual_activity) VALUES ($1, $2, $3, $4, $5)`,
      [userId, companyId, settings.cluster, settings.officerMin, settings.unusual],
    );
  }

  async function notifyJobCount(): Promise<number> {
    return (await queues.queue('insiders').getJobs(['waiting', 'active', 'completed', 'failed', 'delayed'])).filter((j) => j.name === 'insiders.notify').length;
  }

  /** Runs each insiders.notify job not run yet (oldest first), as the worker would. */
  async function runNotifyJobs(): Promise<{ kind: string; key: string; outcome: InsiderNotifyOutcome }[]> {
    const jobs = (await queues.queue('insiders').getJobs(['waiting'])).filter((j) => j.name === 'insiders.notify' && !processedNotify.has(String(j.id)));
    jobs.sort((a, b) => a.timestamp - b.timestamp || String(a.id).localeCompare(String(b.id)));
    const outcomes = [];
    for (const job of jobs) {
      processedNotify.add(String(job.id));
      outcomes.push({ kind: job.data.kind, key: job.data.key, outcome: await notifyInsiderEvent({ dataSource: db.dataSource, queues, clock }, job.data) });
    }
    return outcomes;
  }

  /** Runs each notifications.deliver job not run yet. */
  async function deliver(): Promise<void> {
    const jobs = (await queues.queue('notifications').getJobs(['waiting'])).filter((j) => j.name === 'notifications.deliver' && !delivered.has(String(j.id)));
    for (const job of jobs) {
      delivered.add(String(job.id));
      await deliverNotifications(job.data, context);
    }
  }

  async function notifications(like = 'insiders:%'): Promise<NotificationRow[]> {
    return db.dataSource.query(
      `SELECT user_id, title, message, type, activity_type, symbol_id, dedupe_key, details FROM notifications WHERE dedupe_key LIKE $1 ORDER BY dedupe_key, user_id`,
      [like],
    );
  }

  const recompute = (companyId: number) => recomputeInsiderAnalytics({ dataSource: db.dataSource, queues, clock }, companyId);

  beforeAll(async () => {
    db = await createTestDatabase();
    context = { dataSource: db.dataSource, queues, redis, clock, logger: pino({ level: 'silent' }) };
    const companies: { id: number }[] = await db.dataSource.query(
      `INSERT INTO insider_trading_companies (cik, ticker, company_name) VALUES ('0000000001', 'ACME', 'Acme Corp'), ('0000000002', NULL, 'Beta Holdings') RETURNING id`,
    );
    [acme, beta] = companies.map((c) => c.id);
    const insiders: { id: number }[] = await db.dataSource.query(
      `INSERT INTO insider_trading_insiders (cik, name, is_officer, is_director, is_ten_percent_owner) VALUES
         ('0000001001', 'Doe John', true, false, false), ('0000001002', 'Roe Jane', false, true, false), ('0000001003', 'Big Fund LP', false, false, true)
       RETURNING id`,
    );
    [insider.ceo, insider.director, insider.fund] = insiders.map((i) => i.id);
    const rows: { id: number }[] = await db.dataSource.query(
      `INSERT INTO users (email) SELECT unnest($1::varchar[]) RETURNING id`,
      [['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'gina'].map((n) => `${n}@example.test`)],
    );
    [users.alice, users.bob, users.carol, users.dave, users.erin, users.frank, users.gina] = rows.map((r) => r.id);
    // Settings: alice clusters only; bob officer buys of $50k and more only; carol, erin, frank and gina the
    // defaults (cluster, officer buys >= $25k, unusual activity); dave unusual activity only.
    await follow(users.alice, acme, { cluster: true, officerMin: null, unusual: false });
    await follow(users.bob, acme, { cluster: false, officerMin: 50000, unusual: false });
    await follow(users.carol, acme, { cluster: true, officerMin: 25000, unusual: true });
    await follow(users.dave, acme, { cluster: false, officerMin: null, unusual: true });
    await follow(users.erin, acme, { cluster: true, officerMin: 25000, unusual: true });
    await follow(users.gina, acme, { cluster: true, officerMin: 25000, unusual: true });
    await follow(users.frank, beta, { cluster: true, officerMin: 25000, unusual: true });
    // erin deleted her account before any of this.
    await db.dataSource.query(`UPDATE users SET deleted_at = now() WHERE id = $1`, [users.erin]);

    // The CEO's history: a sale in May 2022, June 2023, July 2024 (each filed then) -> traded in each of
    // the 3 years before 2025, never in March: a March 2025 trade is opportunistic.
    for (const date of ['2022-05-02', '2023-06-05', '2024-07-08']) {
      await file(acme, insider.ceo, { officer: true, title: 'Chief Executive Officer' }, `${date}T21:00:00Z`, [{ code: 'S', date, shares: 1000, price: 10 }]);
    }
  });

  afterAll(async () => {
    await queues.close();
    redis.disconnect();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
    await db.drop();
  });

  let ceoBuy: { accession: string; ids: string[] };
  let directorBuy: { accession: string; ids: string[] };

  it("an officer's fresh purchase notifies the followers whose minimum it reaches, once, skipping deleted accounts", async () => {
    ceoBuy = await file(acme, insider.ceo, { officer: true, title: 'Chief Executive Officer' }, '2025-03-12T13:00:00Z', [{ code: 'P', date: '2025-03-11', shares: 3000, price: 20 }]);
    expect(await recompute(acme)).toEqual({ analysisDate: '2025-03-12', queued: ['officer_buy'] });
    const [row] = await db.dataSource.query(
      `SELECT buy_transactions_30d, discretionary_buy_value, sentiment_score, insider_sentiment, is_cluster_buy, alert_level FROM insider_trading_analytics WHERE company_id = $1 AND analysis_date = '2025-03-12'`,
      [acme],
    );
    // The history's sales are older than the window: one purchase, +100.
    expect(row).toEqual({ buy_transactions_30d: 1, discretionary_buy_value: '60000.00', sentiment_score: '100.0000', insider_sentiment: 'bullish', is_cluster_buy: false, alert_level: 'none' });
    const patterns: { trader_pattern: string | null }[] = await db.dataSource.query(`SELECT trader_pattern FROM insider_trading_transactions WHERE company_id = $1 ORDER BY transaction_date`, [acme]);
    expect(patterns.map((p) => p.trader_pattern)).toEqual([null, null, null, 'opportunistic']);

    // The same recompute again (another filing's, a retry): nothing new is queued.
    expect(await recompute(acme)).toEqual({ analysisDate: '2025-03-12', queued: [] });
    expect(await notifyJobCount()).toBe(1);
    const [job] = await queues.queue('insiders').getJobs(['waiting']);
    expect(job.id).toBe(insidersJobIds.notify(acme, 'officer_buy', ceoBuy.accession));

    expect(await runNotifyJobs()).toEqual([{ kind: 'officer_buy', key: ceoBuy.accession, outcome: { status: 'queued', batches: 1, users: 3 } }]);
    // gina deletes her account after the fan-out, before the delivery: she gets nothing.
    await db.dataSource.query(`UPDATE users SET deleted_at = now() WHERE id = $1`, [users.gina]);
    await deliver();
    // A repeated fan-out (the notify job run again under another id) and delivery add nothing.
    await notifyInsiderEvent({ dataSource: db.dataSource, queues, clock }, { companyId: acme, kind: 'officer_buy', key: ceoBuy.accession });
    delivered.clear();
    await deliver();

    const sent = await notifications();
    // bob's minimum is $50k, carol's $25k: both reached by $60k; alice and dave do not take officer buys.
    expect(sent.map((n) => n.user_id)).toEqual([users.bob, users.carol]);
    const [bob] = sent;
    expect(bob).toMatchObject({
      title: 'ACME: Chief Executive Officer Doe John bought $60k on the open market',
      type: 'info',
      activity_type: 'INSIDER_TRADE',
      symbol_id: 'ACME',
      dedupe_key: `insiders:0000000001:officer_buy:${ceoBuy.accession}`,
    });
    expect(bob.message).toBe(
      'Doe John (Chief Executive Officer) bought 3,000 shares of Acme Corp (ACME) for $60k on the open market on 2025-03-11, at $20.00 a share on average; ' +
        'not under a 10b5-1 plan; an opportunistic trade: not in a month they traded in each of the last 3 years. ' +
        `Filing on sec.gov: ${secUrl(ceoBuy.accession)}`,
    );
    expect(bob.details).toMatchObject({
      kind: 'officer_buy',
      key: ceoBuy.accession,
      companyUrl: '/dashboard/insiders/companies/ACME',
      filings: [{ accessionNumber: ceoBuy.accession, url: secUrl(ceoBuy.accession) }],
      transactionIds: ceoBuy.ids,
    });
  });

  it('a third buyer makes a cluster: one alert per setting (cluster, officer buy, unusual activity), each to the right followers once', async () => {
    clock.set('2025-03-13T15:00:00Z');
    directorBuy = await file(acme, insider.director, { director: true }, '2025-03-13T12:00:00Z', [{ code: 'P', date: '2025-03-12', shares: 5000, price: 30 }]);
    // The fund's filing does not say whether a 10b5-1 plan applies (null).
    await file(acme, insider.fund, { tenPercent: true }, '2025-03-13T13:00:00Z', [{ code: 'P', date: '2025-03-13', shares: 1000, price: 30, rule10b5One: null }]);
    // The CEO's filing (26 hours old) is still news, but its officer_buy was queued already.
    expect(await recompute(acme)).toEqual({ analysisDate: '2025-03-13', queued: ['cluster_buy', 'officer_buy', 'unusual_activity'] });
    const [row] = await db.dataSource.query(
      `SELECT is_cluster_buy, cluster_insiders, is_unusual_activity, alert_level, alert_reason FROM insider_trading_analytics WHERE company_id = $1 AND analysis_date = '2025-03-13'`,
      [acme],
    );
    expect(row).toMatchObject({ is_cluster_buy: true, cluster_insiders: 3, is_unusual_activity: true, alert_level: 'high' });
    expect(row.alert_reason).toBe(
      '3 insiders bought $240k on the open market in 30 days: Roe Jane (Director) $150k on 2025-03-12, Doe John (Chief Executive Officer) $60k on 2025-03-11, Big Fund LP (10% owner) $30k on 2025-03-13.',
    );
    // The episode started on 03-13 (the third buyer); its key is its first buy, the CEO's on 03-11.
    expect(await queues.queue('insiders').getJob(insidersJobIds.notify(acme, 'cluster_buy', '2025-03-11'))).toBeTruthy();

    const outcomes = await runNotifyJobs();
    expect(outcomes.map((o) => [o.kind, o.key, o.outcome])).toEqual([
      ['cluster_buy', '2025-03-11', { status: 'queued', batches: 1, users: 2 }],
      ['officer_buy', directorBuy.accession, { status: 'queued', batches: 1, users: 2 }],
      ['unusual_activity', '2025-03-13', { status: 'queued', batches: 1, users: 1 }],
    ]);
    await deliver();
    // The same day, the next day: the cluster goes on, nothing new to say.
    expect(await recompute(acme)).toEqual({ analysisDate: '2025-03-13', queued: [] });
    clock.set('2025-03-14T15:00:00Z');
    expect(await recompute(acme)).toEqual({ analysisDate: '2025-03-14', queued: [] });

    const byKind = (kind: string) => notifications(`insiders:0000000001:${kind}:%`);
    const cluster = await byKind('cluster_buy');
    // alice and carol take cluster buys (erin and gina are deleted).
    expect(cluster.map((n) => n.user_id)).toEqual([users.alice, users.carol]);
    expect(cluster[0]).toMatchObject({ title: 'ACME: cluster buy, 3 insiders bought $240k in 30 days', type: 'warning', dedupe_key: 'insiders:0000000001:cluster_buy:2025-03-11' });
    expect(cluster[0].message).toContain(
      '3 insiders of Acme Corp (ACME) bought $240k on the open market in 30 days: Roe Jane (Director) $150k on 2025-03-12 (under 3 years of history, not under a 10b5-1 plan), ' +
        'Doe John (Chief Executive Officer) $60k on 2025-03-11 (opportunistic, not under a 10b5-1 plan), Big Fund LP (10% owner) $30k on 2025-03-13 (under 3 years of history, no 10b5-1 plan stated). ' +
        'Filings on sec.gov: ',
    );
    expect(cluster[0].details.filings).toHaveLength(3);
    // The director's $150k reaches both officer-buy minimums.
    expect((await byKind('officer_buy')).map((n) => [n.user_id, n.details.key])).toEqual(
      [
        [users.bob, ceoBuy.accession],
        [users.carol, ceoBuy.accession],
        [users.bob, directorBuy.accession],
        [users.carol, directorBuy.accession],
      ].sort((a, b) => String(a[1]).localeCompare(String(b[1])) || Number(a[0]) - Number(b[0])),
    );
    // The unusual activity is this cluster: followers told by the cluster alert (carol) are not told twice.
    const unusual = await byKind('unusual_activity');
    expect(unusual.map((n) => n.user_id)).toEqual([users.dave]);
    expect(unusual[0].title).toBe('ACME: unusual insider activity (high)');
    expect(unusual[0].message).toMatch(/^Acme Corp \(ACME\): 3 insiders bought \$240k on the open market in 30 days: Roe Jane \(Director\)/);

    const perUser: { user_id: number; n: string }[] = await db.dataSource.query(`SELECT user_id, count(*) AS n FROM notifications GROUP BY user_id ORDER BY user_id`);
    expect(perUser.map((r) => [r.user_id, Number(r.n)])).toEqual([
      [users.alice, 1],
      [users.bob, 2],
      [users.carol, 3],
      [users.dave, 1],
    ]);
  });

  it('a backfill of older filings that make a cluster and an officer buy notifies nobody', async () => {
    // Beta's purchases were filed in February, 17 to 19 days before now: stored, analysed, not news.
    await file(beta, insider.ceo, { officer: true, title: 'CEO' }, '2025-02-23T21:00:00Z', [{ code: 'P', date: '2025-02-21', shares: 10000, price: 20 }]);
    await file(beta, insider.director, { director: true }, '2025-02-24T21:00:00Z', [{ code: 'P', date: '2025-02-22', shares: 1000, price: 20 }]);
    await file(beta, insider.fund, { tenPercent: true }, '2025-02-25T21:00:00Z', [{ code: 'P', date: '2025-02-24', shares: 1000, price: 20 }]);
    const before = await notifyJobCount();
    expect(await recompute(beta)).toEqual({ analysisDate: '2025-03-14', queued: [] });
    const [row] = await db.dataSource.query(
      `SELECT is_cluster_buy, alert_level, sentiment_score, percentile_rank FROM insider_trading_analytics WHERE company_id = $1 AND analysis_date = '2025-03-14'`,
      [beta],
    );
    // Beta +100 against ACME's +100 of the same day: 100 x 2 / 2.
    expect(row).toEqual({ is_cluster_buy: true, alert_level: 'high', sentiment_score: '100.0000', percentile_rank: '100.00' });
    expect(await notifyJobCount()).toBe(before);
    expect(await notifications('insiders:0000000002:%')).toEqual([]);
    // Even a notify job queued by hand finds the news stale.
    expect(await notifyInsiderEvent({ dataSource: db.dataSource, queues, clock }, { companyId: beta, kind: 'cluster_buy', key: '2025-02-21' })).toEqual({ status: 'skipped', reason: 'stale' });
  });

  it('skips an event that no longer holds, and builds each audience from the settings', async () => {
    const deps = { dataSource: db.dataSource, queues, clock };
    expect(await notifyInsiderEvent(deps, { companyId: acme, kind: 'cluster_buy', key: '2025-03-01' })).toEqual({ status: 'skipped', reason: 'no longer a cluster buy' });
    expect(await notifyInsiderEvent(deps, { companyId: acme, kind: 'unusual_activity', key: '2025-03-01' })).toEqual({ status: 'skipped', reason: 'no longer unusual' });
    // An amendment replaced the director's filing: its purchase is gone.
    await db.dataSource.query(`DELETE FROM insider_trading_transactions WHERE sec_accession_number = $1`, [directorBuy.accession]);
    expect(await notifyInsiderEvent(deps, { companyId: acme, kind: 'officer_buy', key: directorBuy.accession })).toEqual({
      status: 'skipped',
      reason: 'no officer or director purchase in the filing',
    });
    expect(await notifyInsiderEvent(deps, { companyId: 999999, kind: 'officer_buy', key: directorBuy.accession })).toEqual({ status: 'skipped', reason: 'no such company' });

    const audience = (kind: Parameters<typeof insiderAlertAudience>[1], options?: Parameters<typeof insiderAlertAudience>[2]) =>
      audiencePage(db.dataSource, insiderAlertAudience(acme, kind, options), 0, 100);
    expect(await audience('officer_buy', { value: '49999.99' })).toEqual([users.carol]);
    expect(await audience('officer_buy', { value: '50000.00' })).toEqual([users.bob, users.carol]);
    expect(await audience('cluster_buy')).toEqual([users.alice, users.carol]);
    expect(await audience('unusual_activity', { clusterBuy: false })).toEqual([users.carol, users.dave]);
    expect(await audience('unusual_activity', { clusterBuy: true })).toEqual([users.dave]);
  });

  it('the daily run queues the recompute of each company with activity in its window, once per company and day', async () => {
    const later = fixedClock('2025-05-30T04:10:00Z'); // 00:10 New York, 2025-05-30
    const deps = { dataSource: db.dataSource, queues, clock: later };
    // ACME's March trades left its window (ending 2025-05-30) long ago, but a row of the day before still counts lines:
    // it is recomputed once more, to count them out. Beta has nothing.
    await db.dataSource.query(
      `INSERT INTO insider_trading_analytics (company_id, analysis_date, total_transactions_30d) VALUES ($1, '2025-05-29', 2)
       ON CONFLICT (company_id, analysis_date) DO UPDATE SET total_transactions_30d = 2`,
      [acme],
    );
    expect(await queueDailyInsiderRecomputes(deps)).toEqual({ analysisDate: '2025-05-30', queued: 1 });
    expect(await queueDailyInsiderRecomputes(deps)).toEqual({ analysisDate: '2025-05-30', queued: 1 });
    const jobs = (await queues.queue('insiders').getJobs(['waiting'])).filter((j) => j.id === insidersJobIds.recomputeDay(acme, '2025-05-30'));
    expect(jobs.map((j) => j.data)).toEqual([{ companyId: acme }]);
    await recomputeInsiderAnalytics(deps, acme);
    const [row] = await db.dataSource.query(
      `SELECT total_transactions_30d, buy_transactions_30d FROM insider_trading_analytics WHERE company_id = $1 AND analysis_date = '2025-05-30'`,
      [acme],
    );
    expect(row).toEqual({ total_transactions_30d: 0, buy_transactions_30d: 0 });
    // The next day nothing is active any more.
    expect(await queueDailyInsiderRecomputes({ ...deps, clock: fixedClock('2025-05-31T04:10:00Z') })).toEqual({ analysisDate: '2025-05-31', queued: 0 });
  });
});
