import { createWriteStream, readFileSync, rmSync, statSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { runMigrations } from '@tickerbell/entities';
import { TFF_COLUMNS, importCotRows, openCotFile, recomputeCotAnalyticsFor } from '@tickerbell/jobs/cot';
import { benchDatabase, type Benchmark, type BenchRow } from './bench';

const SAMPLE = join(__dirname, '../jobs/test/fixtures/cot/cftc_tff_futures_only_2022_sample.csv');
const INSTRUMENTS = 80;
const WEEKS = 20 * 52;

const column = (name: (typeof TFF_COLUMNS)[number]) => TFF_COLUMNS.indexOf(name);
// Contract counts (open interest, positions, their changes) are scaled together, so every ratio
// (net percent of open interest) stays that of a real row; percents and trader counts are kept.
const SCALED = TFF_COLUMNS.map((_, i) => i >= column('Open_Interest_All') && i <= column('Change_in_NonRept_Short_All'));

/**
 * 20 years of weekly reports for 80 instruments, made only of the real sample's rows: instrument i
 * takes its rows from sample contract i % 4, with its own code and name, dates shifted to a weekly
 * series from 2006, and contract counts scaled by a factor between 0.8 and 1.2.
 */
async function writeBenchFile(path: string): Promise<number> {
  const records = parse(readFileSync(SAMPLE), { bom: true }) as string[][];
  const [header, ...rows] = records;
  const code = column('CFTC_Contract_Market_Code');
  const byCode = new Map<string, string[][]>();
  for (const row of rows) byCode.set(row[code], [...(byCode.get(row[code]) ?? []), row]);
  const templates = [...byCode.values()];
  const quote = (v: string) => `"${v.replace(/"/g, '""')}"`;
  const out = createWriteStream(path);
  const write = (line: string) => (out.write(line) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r())));
  await write(header.map(quote).join(',') + '\r\n');
  const start = Date.UTC(2006, 0, 3); // a Tuesday
  let written = 0;
  for (let w = 0; w < WEEKS; w++) {
    const date = new Date(start + w * 7 * 86400000).toISOString().slice(0, 10);
    const yymmdd = date.slice(2).replace(/-/g, '');
    const lines: string[] = [];
    for (let i = 0; i < INSTRUMENTS; i++) {
      const pool = templates[i % templates.length];
      const row = [...pool[(w * 7 + i * 3) % pool.length]];
      const factor = 0.8 + ((i * 13 + w * 7) % 41) / 100;
      for (let c = 0; c < row.length; c++) {
        if (SCALED[c] && row[c].trim() !== '.') row[c] = String(Math.round(Number(row[c]) * factor));
      }
      const [market, exchange] = row[column('Market_and_Exchange_Names')].split(' - ');
      row[column('Market_and_Exchange_Names')] = `${market} BENCH ${i} - ${exchange}`;
      row[code] = `B${String(i).padStart(5, '0')}`;
      row[column('CFTC_Contract_Market_Code_Quotes')] = row[code];
      row[column('Report_Date_as_YYYY-MM-DD')] = date;
      row[column('As_of_Date_In_Form_YYMMDD')] = yymmdd;
      lines.push(row.map((v, c) => (c === 0 || c === column('Contract_Units') ? quote(v) : v)).join(',') + '\r\n');
      written += 1;
    }
    await write(lines.join(''));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return written;
}


export const cotImportBenchmark: Benchmark = {
  name: 'cot',
  description: `COT: import and analyse ${WEEKS} weekly reports x ${INSTRUMENTS} instruments (one TFF CSV), then import it again (idempotent)`,
  async run({ pgAdminUrl }) {
    const dir = await mkdtemp(join(tmpdir(), 'tb-bench-cot-'));
    const database = await benchDatabase(pgAdminUrl, 'cot', 4);
    const { dataSource } = database;
    const rows: BenchRow[] = [];
    try {
      await dataSource.initialize();
      await runMigrations(dataSource);
      const file = join(dir, 'FinFutBench.txt');
      const written = await writeBenchFile(file);
      const megabytes = statSync(file).size / 2 ** 20;

      const started = performance.now();
      const source = openCotFile(file);
      const imported = await importCotRows(dataSource, source.rows, { sourceUrl: source.sourceUrl, now: new Date(), batchSize: 1000 });
      const importSeconds = (performance.now() - started) / 1000;
      rows.push({ scenario: `import (${megabytes.toFixed(0)} MB CSV)`, rows: imported.rows, seconds: importSeconds, 'rows/s': imported.rows / importSeconds });

      const analyticsStarted = performance.now();
      const analytics = await recomputeCotAnalyticsFor(dataSource, imported.instrumentIds, { concurrency: 3 });
      const analyticsSeconds = (performance.now() - analyticsStarted) / 1000;
      const analysed = analytics.inserted + analytics.updated + analytics.unchanged;
      rows.push({ scenario: 'analytics (lookback 156)', rows: analysed, seconds: analyticsSeconds, 'rows/s': analysed / analyticsSeconds });
      const total = (performance.now() - started) / 1000;
      rows.push({ scenario: 'import + analytics (target < 60 s)', rows: written, seconds: total, 'rows/s': written / total });

      const againStarted = performance.now();
      const again = await importCotRows(dataSource, openCotFile(file).rows, { sourceUrl: source.sourceUrl, now: new Date(), batchSize: 1000 });
      const againSeconds = (performance.now() - againStarted) / 1000;
      if (again.positions.inserted + again.positions.updated !== 0) throw new Error('the second import changed positions');
      rows.push({ scenario: 'import again (all unchanged)', rows: again.rows, seconds: againSeconds, 'rows/s': again.rows / againSeconds });
    } finally {
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};
