import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { importLockupsCsv, LockupCsvError, parseLockupsCsv } from '../../src/lockups/lockups-import';

// The lock-up CSV import: every row error by line (and nothing written), grouping of tranches into
// one offering, idempotent re-import. The CSV is built here: made-up tickers and values.

const TODAY = '2025-06-02';
const HEADER = 'ticker,company_name,ipo_date,lockup_expiration_date,shares_locked_up,total_shares_outstanding,vc_backed,industry,ipo_price,tranche,underwriters,clause';
const GOOD = [
  HEADER,
  'ACME,Acme Corp,2025-01-10,2025-07-09,"30,000,000",100000000,yes,Prepackaged Software,$21.50,1,Goldman Sachs & Co. LLC; Roth Capital,"for 180 days after the date of this prospectus"',
  'acme,Acme Corp,2025-01-10,2025-08-08,10000000,100000000,yes,Prepackaged Software,21.50,2,,',
  'BETA,Beta Foods,2025-02-03,,,,no,Retail,,,,',
].join('\n');

function issuesOf(text: string) {
  try {
    parseLockupsCsv(text);
  } catch (error) {
    if (error instanceof LockupCsvError) return error.issues.map((i) => `${i.line} ${i.column ?? '-'}: ${i.message}`);
    throw error;
  }
  return [];
}

describe('lockups CSV import', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('reports every row error by line and column', () => {
    expect(issuesOf('ticker,company_name,ipo_date,expiry\n')).toEqual([
      '1 -: unknown column expiry (the columns: ticker, company_name, ipo_date, lockup_expiration_date, shares_locked_up, total_shares_outstanding, vc_backed, industry, ipo_price, tranche, tranche_label, lockup_days, cik, underwriters, bound_parties, clause, source_url)',
      '1 -: missing column lockup_expiration_date',
    ]);
    expect(issuesOf(`${HEADER}\n`)).toEqual(['2 -: no rows under the header']);
    const bad = [
      HEADER,
      'ACME,Acme,2025-01-10,2025-07-09,100,1000,yes,Software,21.5,1,,',
      'bad ticker,,2025-02-30,2025-01-01,12.5,x,maybe,,abc,0,,',
      'OK,Ok Inc,2025-03-01,2025-02-01,2000,1000,,,,,,',
      'ACME,Acme,2025-01-10,2025-07-10,100,1000,yes,Software,21.5,1,,',
    ].join('\n');
    expect(issuesOf(bad)).toEqual([
      '3 ticker: "BAD TICKER" is not a ticker (letters, digits, dots, dashes; at most 20)',
      '3 company_name: required',
      '3 ipo_date: "2025-02-30" is not a date YYYY-MM-DD',
      '3 shares_locked_up: "12.5" is not a whole number of shares',
      '3 total_shares_outstanding: "x" is not a whole number of shares',
      '3 vc_backed: "maybe" is not true/false (or yes/no, 1/0)',
      '3 ipo_price: "abc" is not a price (e.g. 68.00)',
      '3 tranche: "0" is not a tranche number from 1 to 20',
      '4 lockup_expiration_date: 2025-02-01 is not after the IPO date 2025-03-01',
      '4 shares_locked_up: 2000 is more than total_shares_outstanding 1000',
      '5 tranche: tranche 1 of ACME (IPO 2025-01-10) is also on line 2',
    ]);
    expect(issuesOf('ticker,company_name\n"unclosed,x\n')[0]).toMatch(/^\d+ -: not a CSV file: /);
  });

  it('writes nothing when one row is wrong', async () => {
    const text = `${GOOD}\nGAMMA,Gamma,2025-01-01,2025-13-01,,,,,,,,`;
    await expect(importLockupsCsv(db.dataSource, text, { today: TODAY })).rejects.toThrow(/line 5, lockup_expiration_date: "2025-13-01" is not a date/);
    expect(await db.dataSource.query('SELECT count(*)::int AS n FROM lockup_events')).toEqual([{ n: 0 }]);
  });

  it('stores one offering per ticker and IPO date with its tranches, scored, and a re-import changes nothing', async () => {
    expect(await importLockupsCsv(db.dataSource, GOOD, { today: TODAY })).toEqual({ rows: 3, offerings: 2, inserted: 3, updated: 0 });
    const rows = await db.dataSource.query(
      `SELECT offering_key, ticker, tranche, tranches, lockup_expiration_date::text AS d, shares_locked_up::text AS s, ipo_price::text AS p, status,
              data_source, review_reason, underwriters, risk_score::text AS score, vc_backed, clause
         FROM lockup_events ORDER BY offering_key, tranche`,
    );
    expect(rows).toEqual([
      // 30 % of the shares outstanding unlock: 25 x 0.6 = 15, + 20 VC + 15 sector (software) + 10 Goldman = 60.
      {
        offering_key: 'csv:ACME:2025-01-10', ticker: 'ACME', tranche: 1, tranches: 2, d: '2025-07-09', s: '30000000', p: '21.5000', status: 'scheduled',
        data_source: 'csv', review_reason: null, underwriters: ['Goldman Sachs & Co. LLC', 'Roth Capital'], score: '60.0', vc_backed: true,
        clause: 'for 180 days after the date of this prospectus',
      },
      // 10 % of the shares outstanding: 25 x 0.2 = 5 (+ 20 VC + 15 sector + 10 Goldman).
      {
        offering_key: 'csv:ACME:2025-01-10', ticker: 'ACME', tranche: 2, tranches: 2, d: '2025-08-08', s: '10000000', p: '21.5000', status: 'scheduled',
        data_source: 'csv', review_reason: null, underwriters: ['Goldman Sachs & Co. LLC', 'Roth Capital'], score: '50.0', vc_backed: true,
        clause: 'for 180 days after the date of this prospectus',
      },
      // No date: marked for review, never guessed.
      {
        offering_key: 'csv:BETA:2025-02-03', ticker: 'BETA', tranche: 1, tranches: 1, d: null, s: null, p: null, status: 'needs_review',
        data_source: 'csv', review_reason: 'no lock-up expiration date in the CSV', underwriters: [], score: '0.0', vc_backed: false, clause: null,
      },
    ]);
    const [{ factors }] = await db.dataSource.query(`SELECT risk_factors AS factors FROM lockup_events WHERE ticker = 'ACME' AND tranche = 1`);
    expect(factors.map((f: { name: string; points: number }) => `${f.name}:${f.points}`)).toEqual([
      'vcBacked:20', 'floatUnlock:15', 'runUp:0', 'volume:0', 'sector:15', 'underwriterTier:10',
    ]);
    expect(await importLockupsCsv(db.dataSource, GOOD, { today: TODAY })).toEqual({ rows: 3, offerings: 2, inserted: 0, updated: 3 });
    expect(await db.dataSource.query('SELECT count(*)::int AS n FROM lockup_events')).toEqual([{ n: 3 }]);
  });
});
