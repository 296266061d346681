import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { testQueuePrefix } from '@tickerbell/jobs/testing/test-redis';
import { zipFile } from '@tickerbell/jobs/testing/zip-file';
import { runCliCaptured } from '../cli-capture';

const SAMPLE = join(__dirname, '../../../jobs/test/fixtures/cot/cftc_tff_futures_only_2022_sample.csv');

describe('CLI: import cot and cot analytics', () => {
  let db: TestDatabase;
  let zipDb: TestDatabase;
  let dir: string;
  const prefix = testQueuePrefix();

  beforeAll(async () => {
    db = await createTestDatabase();
    zipDb = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'tb-cot-cli-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db.drop();
    await zipDb.drop();
  });

  const cli = (args: string[], databaseUrl = db.url) => runCliCaptured(args, databaseUrl, prefix);

  it('imports the yearly CSV with progress, and computes the analytics', async () => {
    const result = await cli(['import', 'cot', SAMPLE]);
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).toContain('  132 rows read (positions: 132 inserted, 0 updated, 0 unchanged)');
    expect(result.out).toContain('rows: 132; reports 2022-01-04 .. 2022-08-16');
    expect(result.out).toContain('instruments: 4 inserted, 0 updated, 0 unchanged');
    expect(result.out).toContain('reports: 33 inserted, 0 unchanged');
    expect(result.out).toContain('analytics (lookback 156): 132 inserted, 0 updated, 0 unchanged');
  });

  it('changes nothing the second time, and says so', async () => {
    const result = await cli(['import', 'cot', SAMPLE]);
    expect(result.code).toBe(0);
    expect(result.out).toContain('positions: 0 inserted, 0 updated, 132 unchanged');
    expect(result.out).toContain('reports: 0 inserted, 33 unchanged');
    expect(result.out).toContain('analytics (lookback 156): 0 inserted, 0 updated, 132 unchanged');
  });

  it('imports the yearly .zip archive', async () => {
    const zip = join(dir, 'fut_fin_txt_2022.zip');
    writeFileSync(zip, zipFile([{ name: 'FinFut22.txt', content: readFileSync(SAMPLE) }]));
    const result = await cli(['import', 'cot', zip, '--no-analytics'], zipDb.url);
    expect(result.code).toBe(0);
    expect(result.out).toContain('positions: 132 inserted, 0 updated, 0 unchanged');
    expect(result.out).not.toContain('analytics (lookback');
    const [{ n }] = await zipDb.dataSource.query(`SELECT count(*)::int AS n FROM cot_analytics`);
    expect(n).toBe(0);
  });

  it('refuses a missing file, a file of another layout and a bad lookback, with exit code 1', async () => {
    expect(await cli(['import', 'cot', join(dir, 'nope.csv')])).toMatchObject({ code: 1, err: expect.stringMatching(/no such file/) });
    const other = join(dir, 'other.csv');
    writeFileSync(other, 'a,b\r\n1,2\r\n');
    expect(await cli(['import', 'cot', other])).toMatchObject({ code: 1, err: expect.stringMatching(/not a TFF futures-only file/) });
    expect(await cli(['import', 'cot', SAMPLE, '--lookback', '30'])).toMatchObject({ code: 1, err: expect.stringMatching(/--lookback must be one of 26, 52, 156/) });
  });

  describe('files that are not a whole report (variations of the real sample): exit code 1, one clear message, nothing written', () => {
    const lines = () => readFileSync(SAMPLE).toString('latin1').split('\r\n');
    const counts = async () =>
      (await db.dataSource.query(`SELECT (SELECT count(*) FROM cot_positions)::int AS positions, (SELECT count(*) FROM cot_reports)::int AS reports`))[0];
    async function imported(name: string, content: string) {
      const path = join(dir, name);
      writeFileSync(path, content, 'latin1');
      const before = await counts();
      const result = await cli(['import', 'cot', path]);
      expect(await counts()).toEqual(before);
      return { ...result, path };
    }

    it('a header and no rows: says there were no rows, not "0 inserted"', async () => {
      const result = await imported('header-only.csv', `${lines()[0]}\r\n`);
      expect(result).toMatchObject({ code: 1, out: '' });
      expect(result.err).toBe(`error: ${result.path}: no report rows to import (the file has a header line and no rows); nothing was written\n`);
    });

    it('an empty list of API rows: the same', async () => {
      const result = await imported('empty.json', '[]');
      expect(result).toMatchObject({ code: 1, err: expect.stringContaining('no report rows to import (the file has an empty list of rows)') });
    });

    it('truncated mid-line: names the line and says the file is truncated, never the report type', async () => {
      const all = lines();
      // Cut inside the fourth line, and cut between its CR and LF (this one blamed the report type, 'a ""FutOnly"" row').
      for (const [name, tail] of [
        ['cut.csv', all[3].slice(0, 400)],
        ['cut-crlf.csv', `${all[3]}\r`],
      ]) {
        const result = await imported(name, `${all.slice(0, 3).join('\r\n')}\r\n${tail}`);
        expect(result).toMatchObject({ code: 1, out: '' });
        expect(result.err).toBe(`error: ${result.path}: line 4: the file ends in the middle of this line: it is truncated (an interrupted download or copy?)\n`);
      }
    });

    it('a short row: one line number, and how many values against the header', async () => {
      const all = lines();
      all[3] = all[3].split(',').slice(0, 60).join(',');
      const result = await imported('short-row.csv', all.join('\r\n'));
      expect(result).toMatchObject({ code: 1, out: '' });
      expect(result.err).toBe(`error: ${result.path}: line 4: 60 values where the header has 87\n`);
      expect(result.err.match(/line \d+/g)).toEqual(['line 4']);
    });
  });

  it('prints each report date\'s analytics of an instrument as JSON', async () => {
    const result = await cli(['cot', 'analytics', '--code', '13874A', '--lookback', '26']);
    expect(result.code).toBe(0);
    const points = JSON.parse(result.out);
    expect(points).toHaveLength(33);
    const last = points[32];
    expect(last).toMatchObject({ reportDate: '2022-08-16', lookback: 26, windowSize: 26, provisional: false, reportsInHistory: 33 });
    expect(Object.keys(last.netPercent).sort()).toEqual(['assetManager', 'commercial', 'dealer', 'leveraged', 'nonReportable', 'other']);
    expect(Object.keys(last.percentileRank).sort()).toEqual(['assetManager', 'commercial', 'leveraged']);
    expect(Object.keys(last.cotIndex).sort()).toEqual(['assetManager', 'commercial', 'leveraged']);
    expect(last).toHaveProperty('extremes');
    expect(last).toHaveProperty('divergenceScore');
    expect(points[0]).toMatchObject({ reportDate: '2022-01-04', provisional: true, windowSize: 1 });
  });

  it('cot analytics refuses an unknown code', async () => {
    expect(await cli(['cot', 'analytics', '--code', 'ZZZZZZ'])).toMatchObject({ code: 1, err: expect.stringMatching(/no COT instrument with code ZZZZZZ/) });
  });
});
