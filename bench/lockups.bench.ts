import { runMigrations } from '@tickerbell/entities';
import { addDays, lockupCalendar, scoreLockup, type LockupRiskInput } from '@tickerbell/jobs/lockups';
import { benchParse } from './lockups-parse';
import { benchDatabase, type Benchmark, type BenchRow } from './bench';

// `npm run bench -- lockups`: the issue's targets. Parse 1,000 lock-up sections (H1's bench/lockups-parse.ts,
// built from the recorded shapes with varied values): per second. Score 10,000 events: under 100 ms.
// The calendar (a 30-day window, with and without filters) on 10,000 stored events: p50 / p99.

const EVENTS = 10_000;
const SCORE_TARGET_MS = 100;
const CALENDAR_QUERIES = 200;
const FROM = '2025-01-01';

function scoreInputs(n: number): LockupRiskInput[] {
  const industries = ['Prepackaged Software', 'Biological Products', 'Retail-Eating Places', 'Semiconductors', null, 'Crude Petroleum'];
  const banks = [['Goldman Sachs & Co. LLC', 'J.P. Morgan Securities LLC'], ['Roth Capital Partners'], [], ['Morgan Stanley & Co. LLC']];
  return Array.from({ length: n }, (_, i) => ({
    vcBacked: i % 3 === 0 ? null : i % 2 === 0,
    sharesLockedUp: i % 7 === 0 ? null : String(1_000_000 + ((i * 7919) % 90_000_000)),
    totalSharesOutstanding: String(100_000_000 + (i % 13) * 1_000_000),
    runUp: i % 5 === 0 ? null : ((i % 41) - 10) / 20,
    avgVolumeRatio: i % 4 === 0 ? null : (i % 23) / 10,
    industry: industries[i % industries.length],
    underwriters: banks[i % banks.length],
  }));
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export const lockupsBench: Benchmark = {
  name: 'lockups',
  description: 'IPO lock-ups: prospectus lock-up sections parsed per second; 10,000 events scored (target < 100 ms); calendar queries on 10,000 events',
  async run({ pgAdminUrl }) {
    const rows: BenchRow[] = [];
    const parse = await benchParse();
    rows.push({ scenario: `parse ${parse.sections.toLocaleString('en-US')} lock-up sections`, ms: parse.ms, 'per second': Math.round(parse.perSecond), target: '-', result: '-' });

    const inputs = scoreInputs(EVENTS);
    for (const input of inputs.slice(0, 500)) scoreLockup(input); // warm-up
    const timings: number[] = [];
    for (let run = 0; run < 5; run++) {
      const started = performance.now();
      let sum = 0;
      for (const input of inputs) sum += scoreLockup(input).score;
      timings.push(performance.now() - started);
      if (sum < 0) throw new Error('unreachable');
    }
    const best = Math.min(...timings);
    const median = [...timings].sort((a, b) => a - b)[2];
    rows.push({ scenario: `score ${EVENTS.toLocaleString('en-US')} events (median of 5)`, ms: median, 'per second': Math.round((EVENTS / median) * 1000), target: `< ${SCORE_TARGET_MS} ms`, result: median < SCORE_TARGET_MS ? 'pass' : 'FAIL' });
    rows.push({ scenario: `score ${EVENTS.toLocaleString('en-US')} events (best of 5)`, ms: best, 'per second': Math.round((EVENTS / best) * 1000), target: `< ${SCORE_TARGET_MS} ms`, result: best < SCORE_TARGET_MS ? 'pass' : 'FAIL' });

    const database = await benchDatabase(pgAdminUrl, 'lockups', 4);
    try {
      await database.dataSource.initialize();
      await runMigrations(database.dataSource);
      const db = database.dataSource;
      const factors = JSON.stringify(scoreLockup(inputs[1]).factors);
      // 10,000 tranches of 5,000 offerings over a year, 5 % needing review.
      await db.query(
        `INSERT INTO lockup_events (offering_key, tranche, tranches, ticker, company_name, ipo_date, lockup_expiration_date, status, shares_locked_up,
            total_shares_outstanding, vc_backed, industry, risk_score, risk_factors, data_source, filing_date)
         SELECT 'bench-' || (g / 2), 1 + g % 2, 2, 'T' || (g / 2), 'Bench ' || (g / 2), $2::date + (g % 365) - 180,
                CASE WHEN g % 20 = 0 THEN NULL ELSE $2::date + (g % 365) END,
                CASE WHEN g % 20 = 0 THEN 'needs_review' ELSE 'scheduled' END,
                1000000 + (g * 7919) % 90000000, 100000000, g % 3 = 0,
                (ARRAY['Software', 'Biotechnology', 'Retail', 'Energy'])[1 + g % 4], (g * 37) % 1000 / 10.0, $3::jsonb, 'simulated', $2::date - 10
           FROM generate_series(0, $1 - 1) g`,
        [EVENTS, FROM, factors],
      );
      await db.query('ANALYZE lockup_events');
      for (const [label, filters] of [
        ['calendar 30 days, no filter', {}],
        ['calendar 30 days, risk >= 50, float >= 10 %, Software, VC', { minRisk: 50, minFloatShare: 0.1, industry: 'Software', vcBacked: true }],
      ] as const) {
        const ms: number[] = [];
        let events = 0;
        for (let i = 0; i < CALENDAR_QUERIES; i++) {
          const from = addDays(FROM, (i * 17) % 330);
          const started = performance.now();
          const answer = await lockupCalendar(db, { from, to: addDays(from, 30), ...filters }, 'replay');
          ms.push(performance.now() - started);
          events += answer.events.length;
        }
        ms.sort((a, b) => a - b);
        rows.push({ scenario: `${label} (${CALENDAR_QUERIES} queries, ${Math.round(events / CALENDAR_QUERIES)} events each)`, ms: percentile(ms, 50), 'p99 ms': percentile(ms, 99), target: '-', result: '-' });
      }
    } finally {
      await database.drop();
    }
    return rows;
  },
};
