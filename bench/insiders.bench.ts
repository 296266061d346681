import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { runMigrations } from '@tickerbell/entities';
import { JobQueues, createWorkerConnection, defaultDomainConfigs } from '@tickerbell/jobs';
import {
  FORM4_SAMPLE_FILES,
  INSIDERS_RECORDINGS_DIR,
  InsidersReplaySource,
  createInsidersHandlers,
  insiderScreener,
  loadInsidersConfig,
  parseForm4,
  pollCurrentFilings,
} from '@tickerbell/jobs/insiders';
import type { InsiderScreenerQuery } from '@tickerbell/jobs/insiders/shapes';
import { deleteKeysWithPrefix } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers } from '../workers/src/runtime';
import { benchDatabase, type Benchmark, type BenchRow } from './bench';

const PARSE_SECONDS = 3;
const COMPANIES = 5_000;
const INSIDERS = 25_000;
const LINES_PER_FILING = 4;
const TRANSACTIONS = 1_000_000;
const QUERY_RUNS = 200;
const FRESHNESS_ROUNDS = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Filings per second of parseForm4 over every recorded filing, for PARSE_SECONDS after a warm-up. */
function parseRate(): BenchRow {
  const texts = FORM4_SAMPLE_FILES.map((file) => readFileSync(join(INSIDERS_RECORDINGS_DIR, file)));
  for (const text of texts) parseForm4(text);
  let parsed = 0;
  let bytes = 0;
  const started = performance.now();
  while (performance.now() - started < PARSE_SECONDS * 1000) {
    for (const text of texts) {
      parseForm4(text);
      bytes += text.length;
    }
    parsed += texts.length;
  }
  const seconds = (performance.now() - started) / 1000;
  return { scenario: `parse the ${texts.length} recorded filings (every wrapper), repeatedly`, 'filings/s': parsed / seconds, 'MB/s': bytes / 2 ** 20 / seconds, 'target filings/s': 2000 };
}

/**
 * 1,000,000 transaction lines of 5,000 companies and 25,000 insiders, in 250,000 filings of 4
 * lines over three years, with the code mix of real Form 4 traffic (mostly grants, exercises,
 * withholding and sales; few purchases), each filing's owner row, and an analytics row every fourth
 * day of each company (about 1.4 million), flagged cluster buy for 2 % of the companies. Generated in SQL: the shapes are the tables', the values arbitrary.
 */
async function fillScreener(db: import('typeorm').DataSource): Promise<void> {
  await db.query(
    `INSERT INTO insider_trading_companies (ticker, company_name, cik)
     SELECT 'B' || lpad(g::text, 4, '0'), 'Bench Company ' || g, lpad((1000000 + g)::text, 10, '0') FROM generate_series(1, $1) g`,
    [COMPANIES],
  );
  await db.query(
    `INSERT INTO insider_trading_insiders (name, cik, is_officer, is_director, is_ten_percent_owner, is_other)
     SELECT 'BENCH INSIDER ' || g, lpad((2000000 + g)::text, 10, '0'), g % 3 = 0, g % 3 = 1, g % 17 = 0, g % 3 = 2 FROM generate_series(1, $1) g`,
    [INSIDERS],
  );
  const filings = TRANSACTIONS / LINES_PER_FILING;
  await db.query(
    `INSERT INTO insider_trading_filings (accession_number, form_type, status, company_id, issuer_cik, filed_at, filing_date, sec_url, discovered_via, stored_at)
     SELECT '0009' || lpad(g::text, 6, '0') || '-24-' || lpad((g % 999999)::text, 6, '0'), '4', 'parsed', 1 + g % $2,
            lpad((1000000 + 1 + g % $2)::text, 10, '0'), d::timestamptz + interval '17 hours', d, 'https://www.sec.gov/bench/' || g, 'feed', now()
     FROM generate_series(1, $1) g, LATERAL (SELECT date '2023-01-02' + (g * 1096 / $1) AS d) x`,
    [filings, COMPANIES],
  );
  await db.query(
    `INSERT INTO insider_trading_filing_owners (filing_id, insider_id, position, is_officer, is_director, is_ten_percent_owner, is_other, officer_title)
     SELECT f.id, 1 + (f.id * 7) % $1, 0, i.is_officer, i.is_director, i.is_ten_percent_owner, i.is_other, CASE WHEN i.is_officer THEN 'Chief Financial Officer' END
     FROM insider_trading_filings f JOIN insider_trading_insiders i ON i.id = 1 + (f.id * 7) % $1`,
    [INSIDERS],
  );
  // Codes: P 4 %, S 26 %, A 20 %, M 15 %, F 20 %, G 5 %, C 4 %, D 3 %, X 3 %.
  await db.query(
    `INSERT INTO insider_trading_transactions (company_id, insider_id, filing_id, table_kind, line_number, transaction_date, transaction_type,
       shares_traded, price_per_share, total_value, shares_owned_after, acquired_disposed, sec_accession_number, sec_filing_date, rule10b5_one, data_source,
       filed_as_officer, filed_as_director, filed_as_ten_percent_owner, filed_as_other)
     SELECT f.company_id, o.insider_id, f.id, CASE WHEN code IN ('M', 'X', 'C') THEN 'derivative' ELSE 'non-derivative' END, l, f.filing_date - (l % 3),
            code, shares, price, CASE WHEN price IS NULL THEN NULL ELSE round(shares * price, 2) END, shares * 10,
            CASE WHEN code IN ('P', 'A', 'M', 'X', 'C') THEN 'A' ELSE 'D' END, f.accession_number, f.filing_date,
            CASE WHEN code = 'S' THEN (f.id % 2 = 0) ELSE NULL END, 'sec', o.is_officer, o.is_director, o.is_ten_percent_owner, o.is_other
     FROM insider_trading_filings f
     JOIN insider_trading_filing_owners o ON o.filing_id = f.id
     CROSS JOIN generate_series(1, ${LINES_PER_FILING}) l,
     LATERAL (SELECT (f.id * 31 + l * 17) % 100 AS r) rr,
     LATERAL (SELECT CASE WHEN r < 4 THEN 'P' WHEN r < 30 THEN 'S' WHEN r < 50 THEN 'A' WHEN r < 65 THEN 'M' WHEN r < 85 THEN 'F'
                          WHEN r < 90 THEN 'G' WHEN r < 94 THEN 'C' WHEN r < 97 THEN 'D' ELSE 'X' END AS code) cc,
     LATERAL (SELECT (100 + (f.id * 13 + l * 101) % 20000)::numeric AS shares,
                     CASE WHEN cc.code IN ('P', 'S', 'F', 'D', 'X') THEN (5 + (f.id + l) % 300)::numeric + 0.25 ELSE NULL END AS price) v`,
  );
  await db.query(
    `INSERT INTO insider_trading_analytics (company_id, analysis_date, is_cluster_buy, cluster_insiders, buy_transactions_30d, alert_level)
     SELECT c.id, d, c.id % 50 = 0, CASE WHEN c.id % 50 = 0 THEN 3 ELSE 0 END, CASE WHEN c.id % 50 = 0 THEN 3 ELSE 0 END, CASE WHEN c.id % 50 = 0 THEN 'high' END
     FROM insider_trading_companies c, generate_series(0, 1095) n, LATERAL (SELECT date '2023-01-02' + n AS d) x
     WHERE n % 4 = c.id % 4`,
  );
  // What autovacuum does to a table between bulk loads: statistics, and the visibility map that
  // index-only scans need.
  await db.query('VACUUM ANALYZE');
}

/** p50 and p99 of a screener query over QUERY_RUNS runs (after 5 warm-up runs). */
async function timeQuery(db: import('typeorm').DataSource, scenario: string, query: InsiderScreenerQuery): Promise<BenchRow> {
  for (let i = 0; i < 5; i++) await insiderScreener(db, query);
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < QUERY_RUNS; i++) {
    const started = performance.now();
    const page = await insiderScreener(db, query);
    times.push(performance.now() - started);
    rows = page.rows.length;
  }
  times.sort((a, b) => a - b);
  const p99 = percentile(times, 99);
  return { scenario, rows, 'p50 ms': percentile(times, 50), 'p99 ms': p99, 'target p99 ms': 50, met: p99 < 50 ? 'yes' : 'NO' };
}

/**
 * From a new entry in the replayed Atom feed to the stored rows, the updated analytics and a
 * delivered (in-app) notification, through real workers: the poll that sees the entry starts the
 * clock; fetch-filing, recompute-analytics, notify and notifications.deliver run on the insiders
 * and notifications queues; the clock stops at the notification row's created_at. Each round
 * releases one simulated officer or director purchase (a variant of the recorded NCV filing).
 */
async function freshness(db: import('typeorm').DataSource, redisUrl: string): Promise<BenchRow[]> {
  const prefix = `tb-bench-insiders-${Date.now()}`;
  const connection = createWorkerConnection(redisUrl);
  const queueConnection = createWorkerConnection(redisUrl);
  const queues = new JobQueues(queueConnection, prefix);
  const config = loadInsidersConfig({ INSIDERS_REPLAY_PER_POLL: '1' });
  // Rounds x 3 variants: the third (an affiliated person) makes no officer purchase, so it is polled but not timed.
  const source = new InsidersReplaySource({ dir: INSIDERS_RECORDINGS_DIR, perPoll: 1, simulatedRounds: Math.ceil(FRESHNESS_ROUNDS / 2) + 1 });
  const runtime = await startWorkers({
    dataSource: db,
    connection,
    queues,
    logger: pino({ level: 'silent' }),
    domains: { ...defaultDomainConfigs(), insiders: config },
    overrides: createInsidersHandlers({ source: () => source, config: () => config }),
    schedules: [],
    queueNames: ['insiders', 'notifications'],
  });
  const deps = { dataSource: db, queues, clock: { now: () => new Date() }, source, config };
  const idle = async () => {
    for (;;) {
      const counts = await Promise.all(['insiders', 'notifications'].map((q) => queues.queue(q as 'insiders').getJobCounts('waiting', 'active', 'delayed', 'prioritized')));
      if (counts.every((c) => Object.values(c).every((n) => n === 0))) return;
      await sleep(5);
    }
  };
  try {
    // The recordings first (old filings: stored, never notified), then a follower of NCV.
    while (source.progress().released < source.progress().total - Math.ceil(FRESHNESS_ROUNDS / 2 + 1) * 3) {
      await pollCurrentFilings(deps);
      await idle();
    }
    await db.query(`INSERT INTO users (email) VALUES ('follower@bench.test')`);
    await db.query(
      `INSERT INTO insider_follows (user_id, company_id, officer_buy_min_value)
       SELECT u.id, c.id, 25000 FROM users u, insider_trading_companies c WHERE c.ticker = 'NCV'`,
    );
    const latencies: number[] = [];
    const stages: { stored: number; analytics: number }[] = [];
    let polls = 0;
    while (latencies.length < FRESHNESS_ROUNDS && source.progress().released < source.progress().total) {
      const before = new Date();
      const started = performance.now();
      const startedAt = performance.timeOrigin + started;
      await pollCurrentFilings(deps);
      polls++;
      await idle();
      const [filing] = await db.query(
        `SELECT f.accession_number, f.stored_at FROM insider_trading_filings f WHERE f.discovered_at >= $1 ORDER BY f.id DESC LIMIT 1`,
        [before],
      );
      if (!filing) continue;
      const notified: { created_at: Date }[] = await db.query(`SELECT created_at FROM notifications WHERE dedupe_key LIKE $1`, [`%:officer_buy:${filing.accession_number}`]);
      const [analytics] = await db.query(`SELECT max(created_at) AS at FROM insider_trading_analytics`);
      if (!notified.length) continue;
      latencies.push(notified[0].created_at.getTime() - startedAt);
      stages.push({ stored: filing.stored_at.getTime() - startedAt, analytics: new Date(analytics.at).getTime() - startedAt });
    }
    latencies.sort((a, b) => a - b);
    const stored = stages.map((s) => s.stored).sort((a, b) => a - b);
    const [{ duplicates }] = await db.query(`SELECT count(*)::int AS duplicates FROM (SELECT user_id, dedupe_key FROM notifications GROUP BY 1, 2 HAVING count(*) > 1) d`);
    return [
      {
        scenario: `feed entry -> rows stored (${stored.length} officer/director purchases, ${polls} polls)`,
        'p50 ms': percentile(stored, 50),
        'p99 ms': percentile(stored, 99),
      },
      {
        scenario: 'feed entry -> analytics -> notification delivered (in-app row)',
        'p50 ms': percentile(latencies, 50),
        'p99 ms': percentile(latencies, 99),
        'target p99 ms': 2000,
        'duplicate notifications': duplicates,
        met: percentile(latencies, 99) < 2000 ? 'yes' : 'NO',
      },
    ];
  } finally {
    await runtime.close();
    await queues.close();
    connection.disconnect();
    queueConnection.disconnect();
    await deleteKeysWithPrefix(redisUrl, prefix);
  }
}

/** Issue 13's targets: parse >= 2,000 filings/s; screener p99 < 50 ms over 1,000,000 lines; feed-to-notification p99 < 2 s. */
export const insidersBench: Benchmark = {
  name: 'insiders',
  description: 'insiders: Form 4 parse rate, screener queries over 1,000,000 lines of 5,000 companies, and feed-to-notification freshness through real workers',
  async run({ pgAdminUrl, redisUrl }) {
    const rows: BenchRow[] = [parseRate()];
    const database = await benchDatabase(pgAdminUrl, 'insiders', 8);
    const { dataSource } = database;
    try {
      await dataSource.initialize();
      await runMigrations(dataSource);
      const filled = performance.now();
      await fillScreener(dataSource);
      rows.push({ scenario: `generate ${TRANSACTIONS.toLocaleString('en-US')} lines of ${COMPANIES.toLocaleString('en-US')} companies (SQL)`, seconds: (performance.now() - filled) / 1000 });
      const first = await insiderScreener(dataSource, {});
      const presets: [string, InsiderScreenerQuery][] = [
        ['screener: newest filings (default)', {}],
        ['screener: page 2 (cursor)', { cursor: first.nextCursor ?? undefined }],
        ['preset: latest purchases (codes=P)', { codes: ['P'] }],
        ['preset: officer buys >= $25k', { codes: ['P'], roles: ['officer'], minValue: 25_000 }],
        ['preset: cluster buys', { codes: ['P'], clusterOnly: true }],
        ['sales over $1M, no 10b5-1, by value', { codes: ['S'], minValue: 1_000_000, exclude10b5One: true, sort: 'totalValue' }],
        ['one company (ticker), trade date', { ticker: 'B2500', sort: 'transactionDate' }],
        ['one insider (CIK)', { insiderCik: '0002012345' }],
        ['trade dates in a month, directors', { tradedFrom: '2024-06-01', tradedTo: '2024-06-30', roles: ['director'] }],
        ['sorted by ticker', { sort: 'ticker' }],
      ];
      for (const [scenario, query] of presets) rows.push(await timeQuery(dataSource, scenario, query));
      await dataSource.query('TRUNCATE insider_trading_transactions, insider_trading_filing_owners, insider_trading_filings, insider_trading_analytics, insider_trading_insiders, insider_trading_companies CASCADE');
      rows.push(...(await freshness(dataSource, redisUrl)));
    } finally {
      await database.drop();
    }
    return rows;
  },
};
