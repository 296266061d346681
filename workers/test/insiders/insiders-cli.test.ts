import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { FORM4_SAMPLE_FILES, INSIDERS_RECORDINGS_DIR } from '@tickerbell/jobs/insiders';
import { testQueuePrefix } from '@tickerbell/jobs/testing/test-redis';
import { runCliCaptured } from '../cli-capture';

const recorded = (file: string) => join(INSIDERS_RECORDINGS_DIR, file);
const NCV = recorded('sec_form4_NCV_2007-08-17_code_P_X0202_pem-wrapped_fullsubmission.txt');

describe('CLI: import insiders and insiders filing (the recorded real filings)', () => {
  let db: TestDatabase;
  let dir: string;
  const prefix = testQueuePrefix();

  beforeAll(async () => {
    db = await createTestDatabase();
    dir = mkdtempSync(join(tmpdir(), 'tb-insiders-cli-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await db.drop();
  });

  const cli = (args: string[]) => runCliCaptured(args, db.url, prefix);

  it('imports every wrapper (full submission, .nc, bare XML), one line per file, and says a non-Form-4 file is not one', async () => {
    const files = FORM4_SAMPLE_FILES.map(recorded);
    const tickers = recorded('sec_company_tickers_first300.json');
    const result = await cli(['import', 'insiders', ...files.slice(0, 6), tickers, ...files.slice(6)]);
    expect(result.code).toBe(1);
    expect(result.err).toBe(
      `${tickers}: not a Form 4: neither an EDGAR submission nor ownershipDocument XML (starts with "{"0":{"cik_str":7890")\n` +
        `error: 1 of ${files.length + 1} files not imported\n`,
    );
    const lines = result.out.trim().split('\n');
    expect(lines).toHaveLength(files.length);
    expect(lines).toContain(`${NCV}: inserted 0001240812-07-000005 (1 line)`);
    expect(lines).toContain(`${recorded('sec_form4_ARW_2025-02-12_codes_A_F_nc-format.nc')}: inserted 0001127602-25-004598 (2 lines)`);
    expect(lines).toContain(`${recorded('sec_form4_META_2025-10-31_codes_C_G_gift_X0508_primarydoc.xml')}: inserted 0000950103-25-014304 (2 lines)`);
    const [{ n }] = await db.dataSource.query(`SELECT count(*)::int AS n FROM insider_trading_filings WHERE status = 'parsed'`);
    expect(n).toBe(files.length);
  });

  it('changes nothing the second time, and says so', async () => {
    const result = await cli(['import', 'insiders', NCV]);
    expect(result).toEqual({ code: 0, out: `${NCV}: unchanged 0001240812-07-000005 (1 line)\n`, err: '' });
  });

  it('refuses a truncated filing (the real NCV cut in half) and a missing file, with exit code 1', async () => {
    const cut = join(dir, 'cut.txt');
    writeFileSync(cut, (await import('node:fs')).readFileSync(NCV, 'utf8').slice(0, 2600));
    const result = await cli(['import', 'insiders', cut, join(dir, 'nope.txt')]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(new RegExp(`^${cut}: not imported, (truncated|malformed): `));
    expect(result.err).toContain(`${join(dir, 'nope.txt')}: no such file`);
    expect(result.err).toContain('error: 2 of 2 files not imported');
  });

  it('prints a stored filing as JSON, and exits 1 for an unknown accession', async () => {
    const result = await cli(['insiders', 'filing', '0001240812-07-000005']);
    expect(result.code).toBe(0);
    const filing = JSON.parse(result.out);
    expect(filing).toMatchObject({
      accessionNumber: '0001240812-07-000005',
      formType: '4',
      issuer: { cik: '0001214935', ticker: 'NCV', name: 'NICHOLAS APPLEGATE CONVERTIBLE & INCOME FUND' },
      reportingOwners: [{ cik: '0001240808', name: 'LEMESEVSKI ELIZABETH', isOfficer: false, isDirector: false, isTenPercentOwner: false, isOther: true, officerTitle: null }],
      rule10b5One: null,
      transactions: [
        { table: 'non-derivative', transactionDate: '2007-08-17', transactionCode: 'P', sharesTraded: '300', pricePerShare: '11.75', acquiredDisposed: 'A', sharesOwnedAfter: '300', totalValue: '3525.00' },
      ],
    });
    const iht = JSON.parse((await cli(['insiders', 'filing', '0001493152-25-015819'])).out);
    expect(iht.rule10b5One).toBe(true);
    expect(await cli(['insiders', 'filing', '0000000000-00-000000'])).toEqual({ code: 1, out: '', err: 'error: no filing 0000000000-00-000000\n' });
  });
});
