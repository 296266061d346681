import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { openCotFile } from '../../src/cot/cftc.client';
import { parseTffCsv } from '../../src/cot/cftc.parse';
import { importCotRows } from '../../src/cot/cot-import.store';
import { recomputeCotAnalyticsFor } from '../../src/cot/cot-recompute';
import { zipFile } from '../../src/testing/zip-file';
import { SEEDS, runSeeds } from '../../src/seeds/seeds';
import { cftcSourceFromConfig, loadCotConfig } from '../../src/cot/cot.config';
import { SAMPLE_PATH } from './api-rows';

const NOW = new Date('2022-08-19T19:45:00Z');

async function fingerprint(db: TestDatabase): Promise<string> {
  const [row] = await db.dataSource.query(
    `SELECT (SELECT md5(string_agg(t::text, '|' ORDER BY t.id)) FROM cot_positions t) AS positions,
            (SELECT md5(string_agg(t::text, '|' ORDER BY t.id)) FROM cot_reports t) AS reports,
            (SELECT md5(string_agg(t::text, '|' ORDER BY t.id)) FROM cot_instruments t) AS instruments`,
  );
  return JSON.stringify(row);
}

describe('cot import: the real 2022 sample into PostgreSQL', () => {
  let db: TestDatabase;
  const progress: number[] = [];

  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('stores 4 instruments, 33 reports and 132 positions, reporting progress', async () => {
    const file = openCotFile(SAMPLE_PATH);
    const result = await importCotRows(db.dataSource, file.rows, {
      sourceUrl: file.sourceUrl,
      now: NOW,
      batchSize: 50,
      onProgress: (p) => progress.push(p.rows),
    });
    expect(result).toMatchObject({
      rows: 132,
      reports: { inserted: 33, unchanged: 0 },
      instruments: { inserted: 4 },
      positions: { inserted: 132, updated: 0, unchanged: 0 },
    });
    expect(progress).toEqual([50, 100, 132]);
    expect(result.reportDates[0]).toBe('2022-01-04');
    expect(result.reportDates[32]).toBe('2022-08-16');
  });

  it('keys instruments on the contract code, keeps the latest name and knows the well-known contracts', async () => {
    const rows = await db.dataSource.query(
      `SELECT cftc_code, instrument_name, symbol, category, exchange, contract_size FROM cot_instruments ORDER BY cftc_code`,
    );
    expect(rows).toEqual([
      { cftc_code: '043602', instrument_name: 'UST 10Y NOTE - CHICAGO BOARD OF TRADE', symbol: 'ZN', category: 'rates', exchange: 'CHICAGO BOARD OF TRADE', contract_size: '100000.0000' },
      { cftc_code: '099741', instrument_name: 'EURO FX - CHICAGO MERCANTILE EXCHANGE', symbol: '6E', category: 'currency', exchange: 'CHICAGO MERCANTILE EXCHANGE', contract_size: '125000.0000' },
      { cftc_code: '133741', instrument_name: 'BITCOIN - CHICAGO MERCANTILE EXCHANGE', symbol: 'BTC', category: 'crypto', exchange: 'CHICAGO MERCANTILE EXCHANGE', contract_size: '5.0000' },
      { cftc_code: '13874A', instrument_name: 'E-MINI S&P 500 - CHICAGO MERCANTILE EXCHANGE', symbol: 'ES', category: 'equity-index', exchange: 'CHICAGO MERCANTILE EXCHANGE', contract_size: '50.0000' },
    ]);
  });

  it('stores every group exactly as reported, suppressed trader counts as NULL (Bitcoin, 2022-08-16)', async () => {
    const [row] = await db.dataSource.query(
      `SELECT p.open_interest, p.dealer_long, p.dealer_short, p.dealer_spreading, p.dealer_spreading_percent,
              p.leveraged_long, p.leveraged_short, p.leveraged_long_change, p.leveraged_short_percent,
              p.non_reportable_long, p.non_reportable_short_change,
              p.dealer_long_traders, p.dealer_short_traders, p.asset_manager_spreading_traders, p.total_traders
       FROM cot_positions p JOIN cot_reports r ON r.id = p.report_id JOIN cot_instruments i ON i.id = p.instrument_id
       WHERE i.cftc_code = '133741' AND r.report_date = '2022-08-16'`,
    );
    expect(row).toEqual({
      open_interest: 12423, dealer_long: 113, dealer_short: 1819, dealer_spreading: 0, dealer_spreading_percent: '0.00',
      leveraged_long: 1673, leveraged_short: 6270, leveraged_long_change: -356, leveraged_short_percent: '50.50',
      non_reportable_long: 1202, non_reportable_short_change: 116,
      dealer_long_traders: null, dealer_short_traders: 4, asset_manager_spreading_traders: null, total_traders: 91,
    });
  });

  it('keeps the source, the processing time and the columns positions do not hold on the report', async () => {
    const [report] = await db.dataSource.query(
      `SELECT source_url, processed_at, raw_data FROM cot_reports WHERE report_date = '2022-08-16' AND report_type = 'financial'`,
    );
    expect(report.source_url).toBe('file:cftc_tff_futures_only_2022_sample.csv');
    expect(report.processed_at).toEqual(NOW);
    expect(Object.keys(report.raw_data.markets).sort()).toEqual(['043602', '099741', '133741', '13874A']);
    expect(report.raw_data.markets['099741']).toMatchObject({
      Tot_Rept_Positions_Long_All: '618981',
      Conc_Gross_LE_4_TDR_Long_All: '14.6',
      Contract_Units: '(CONTRACTS OF EUR 125,000)',
      CFTC_Market_Code: 'CME',
    });
  });

  it('changes nothing when the same file is imported again', async () => {
    const before = await fingerprint(db);
    const file = openCotFile(SAMPLE_PATH);
    const again = await importCotRows(db.dataSource, file.rows, { sourceUrl: file.sourceUrl, now: new Date(NOW.getTime() + 3600_000) });
    expect(again).toMatchObject({
      rows: 132,
      reports: { inserted: 0, unchanged: 33 },
      instruments: { inserted: 0, updated: 0, unchanged: 4 },
      positions: { inserted: 0, updated: 0, unchanged: 132 },
    });
    expect(await fingerprint(db)).toBe(before);
  });

  it('updates a corrected row and only that row', async () => {
    const rows = parseTffCsv(readFileSync(SAMPLE_PATH)).filter((r) => r.cftcCode === '099741' && r.reportDate >= '2022-08-09');
    rows[0].position.leveragedLong += 1;
    const result = await importCotRows(db.dataSource, rows, { sourceUrl: null, now: NOW });
    expect(result.positions).toEqual({ inserted: 0, updated: 1, unchanged: 1 });
  });

  it('stores analytics for every position, and a recompute changes nothing', async () => {
    const ids = (await db.dataSource.query(`SELECT id FROM cot_instruments ORDER BY id`)).map((r: { id: number }) => r.id);
    expect(await recomputeCotAnalyticsFor(db.dataSource, ids)).toEqual({ inserted: 132, updated: 0, unchanged: 0 });
    expect(await recomputeCotAnalyticsFor(db.dataSource, ids)).toEqual({ inserted: 0, updated: 0, unchanged: 132 });
    const rows = await db.dataSource.query(
      `SELECT to_char(r.report_date, 'YYYY-MM-DD') AS date, a.leveraged_net_percent, a.commercial_net_percent, a.asset_manager_net_percent,
              a.is_provisional, a.history_size, a.lookback, a.alert_events
       FROM cot_analytics a JOIN cot_positions p ON p.id = a.position_id JOIN cot_reports r ON r.id = p.report_id
       JOIN cot_instruments i ON i.id = p.instrument_id
       WHERE i.cftc_code = '043602' ORDER BY r.report_date`,
    );
    expect(rows).toHaveLength(33);
    expect(rows[0]).toMatchObject({ date: '2022-01-04', is_provisional: true, history_size: 1, lookback: 156, alert_events: [] });
    expect(rows[25]).toMatchObject({ is_provisional: false, history_size: 26 });
  });
});

describe('cot import: yearly archive and report order', () => {
  let db: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'tb-cot-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db.drop();
  });

  it('reads the yearly .zip archive (FinFutYY.txt inside) and names its published URL as the source', async () => {
    const zip = join(dir, 'fut_fin_txt_2022.zip');
    writeFileSync(zip, zipFile([{ name: 'FinFut22.txt', content: readFileSync(SAMPLE_PATH) }]));
    const file = openCotFile(zip);
    expect(file.sourceUrl).toBe('https://www.cftc.gov/files/dea/history/fut_fin_txt_2022.zip');
    const result = await importCotRows(db.dataSource, file.rows, { sourceUrl: file.sourceUrl, now: NOW });
    expect(result.positions).toEqual({ inserted: 132, updated: 0, unchanged: 0 });
    const [{ n }] = await db.dataSource.query(`SELECT count(*)::int AS n FROM cot_positions`);
    expect(n).toBe(132);
  });

  it('keeps the newest name when older reports are imported after newer ones', async () => {
    await db.dataSource.query(`TRUNCATE cot_follows, cot_analytics, cot_positions, cot_reports, cot_instruments`);
    const rows = parseTffCsv(readFileSync(SAMPLE_PATH)).filter((r) => r.cftcCode === '13874A');
    await importCotRows(db.dataSource, rows.filter((r) => r.reportDate >= '2022-02-08'), { sourceUrl: null, now: NOW });
    const older = await importCotRows(db.dataSource, rows.filter((r) => r.reportDate < '2022-02-08'), { sourceUrl: null, now: NOW });
    expect(older.positions.inserted).toBe(5);
    const [{ instrument_name }] = await db.dataSource.query(`SELECT instrument_name FROM cot_instruments WHERE cftc_code = '13874A'`);
    expect(instrument_name).toBe('E-MINI S&P 500 - CHICAGO MERCANTILE EXCHANGE');
  });

  it('splits a batch larger than one statement can take (PostgreSQL\'s 65,535 parameters)', async () => {
    await db.dataSource.query(`TRUNCATE cot_follows, cot_analytics, cot_positions, cot_reports, cot_instruments`);
    // The real rows, ten times over under ten different codes: 1,320 rows in one batch.
    const sample = parseTffCsv(readFileSync(SAMPLE_PATH));
    const rows = Array.from({ length: 10 }, (_, copy) => sample.map((r) => ({ ...r, cftcCode: `${r.cftcCode}-${copy}` }))).flat();
    const result = await importCotRows(db.dataSource, rows, { sourceUrl: null, now: NOW, batchSize: 5000 });
    expect(result.positions).toEqual({ inserted: 1320, updated: 0, unchanged: 0 });
  });

  it('rejects an archive without a TFF file', async () => {
    const zip = join(dir, 'empty.zip');
    writeFileSync(zip, zipFile([{ name: 'readme.md', content: Buffer.from('nothing here') }]));
    const file = openCotFile(zip);
    await expect(importCotRows(db.dataSource, file.rows, { sourceUrl: null, now: NOW })).rejects.toThrow(/holds no .txt or .csv file/);
  });
});

describe('cot demo seed and configuration', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.drop());

  it('the seed loads the bundled real sample with its analytics, once', async () => {
    const seeds = SEEDS.filter((s) => s.name === '2026-11-cot-sample');
    expect(await runSeeds(db.dataSource, seeds)).toEqual(['2026-11-cot-sample']);
    expect(await runSeeds(db.dataSource, seeds)).toEqual([]);
    const [counts] = await db.dataSource.query(
      `SELECT (SELECT count(*)::int FROM cot_positions) AS positions, (SELECT count(*)::int FROM cot_analytics) AS analytics`,
    );
    expect(counts).toEqual({ positions: 132, analytics: 132 });
  });

  it('replays the bundled sample by default, and rejects a lookback it does not offer', async () => {
    const source = cftcSourceFromConfig(loadCotConfig({ COT_SOURCE: 'replay' }));
    expect(source.kind).toBe('replay');
    expect(await source.latestReportDate()).toBe('2022-08-16');
    expect(() => loadCotConfig({ COT_LOOKBACK: '30' })).toThrow(/COT_LOOKBACK: one of 26, 52, 156/);
    expect(cftcSourceFromConfig(loadCotConfig({ NODE_ENV: 'production' })).kind).toBe('live');
    // Outside production the default is the recorded files (a development system offline).
    expect(cftcSourceFromConfig(loadCotConfig({})).kind).toBe('replay');
    expect(cftcSourceFromConfig(loadCotConfig({ COT_SOURCE: 'live' })).kind).toBe('live');
  });
});
