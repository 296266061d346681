import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { FORM4_SAMPLE_FILES, Form4ParseError, INSIDERS_RECORDINGS_DIR, parseForm4, type ParsedForm4 } from '../../src/insiders/form4.parse';
import { parseCompanyTickers } from '../../src/insiders/edgar-index.parse';
import { importParsedFiling, recordFilingFailure, recordFilingRetry, storedFiling, upsertCompanies } from '../../src/insiders/insiders.store';
import { accessionForFile, importInsiderFile, seedRecordedInsiderFilings } from '../../src/insiders/insiders.seed';
import { simulatedPurchaseText } from '../../src/insiders/insiders-replay';

// Every case runs on the recorded real filings (jobs/src/insiders/data), or on values varied inside
// one of them, as each test says.
const file = (name: string) => join(INSIDERS_RECORDINGS_DIR, name);
const parsedFile = (name: string) => parseForm4(readFileSync(file(name)));
const NCV = 'sec_form4_NCV_2007-08-17_code_P_X0202_pem-wrapped_fullsubmission.txt';
const AIR = 'sec_form4_AIR_2025-01-10_code_S_fullsubmission.txt';
const ATEX = 'sec_form4A_ATEX_2026-09-08_amendment_codes_S_F_M_X0609_THIRD-PARTY-TRIMMED.xml';
const NOW = new Date('2025-12-12T23:00:00Z');

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db.drop();
});

const count = async (table: string, where = 'true', params: unknown[] = []) =>
  ((await db.dataSource.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`, params)) as { n: number }[])[0].n;

describe('importParsedFiling', () => {
  it('stores the real NCV purchase: issuer, owner, the filing and its one line, and shows it as the CLI prints it', async () => {
    const result = await importParsedFiling(db.dataSource, parsedFile(NCV), { accessionNumber: '0001240812-07-000005', via: 'import', dataSource: 'sec', now: NOW });
    expect(result).toMatchObject({ status: 'inserted', lines: 1, amendedFilingId: null });
    const view = await storedFiling(db.dataSource, '0001240812-07-000005');
    expect(view).toEqual({
      accessionNumber: '0001240812-07-000005',
      formType: '4',
      status: 'parsed',
      failureReason: null,
      filedAt: '2007-08-17T19:27:25.000Z',
      filingDate: '2007-08-17',
      periodOfReport: '2007-08-15',
      secUrl: 'https://www.sec.gov/Archives/edgar/data/1214935/000124081207000005/0001240812-07-000005-index.htm',
      issuer: { cik: '0001214935', ticker: 'NCV', name: 'NICHOLAS APPLEGATE CONVERTIBLE & INCOME FUND' },
      reportingOwners: [
        { cik: '0001240808', name: 'LEMESEVSKI ELIZABETH', isOfficer: false, isDirector: false, isTenPercentOwner: false, isOther: true, officerTitle: null },
      ],
      rule10b5One: null,
      amends: null,
      amendedBy: null,
      footnotes: {},
      transactions: [
        {
          table: 'non-derivative',
          lineNumber: 1,
          securityTitle: 'Common Stock',
          transactionDate: '2007-08-17',
          transactionCode: 'P',
          sharesTraded: '300',
          pricePerShare: '11.75',
          acquiredDisposed: 'A',
          sharesOwnedAfter: '300',
          totalValue: '3525.00',
          isWeightedPrice: false,
          rule10b5One: null,
        },
      ],
    });
    const [line] = await db.dataSource.query(
      `SELECT t.relationship, t.data_source, t.sec_form_type, to_char(t.sec_filing_date, 'YYYY-MM-DD') AS filed, i.cik
       FROM insider_trading_transactions t JOIN insider_trading_insiders i ON i.id = t.insider_id WHERE t.sec_accession_number = $1`,
      ['0001240812-07-000005'],
    );
    expect(line).toEqual({ relationship: 'Affiliated Person', data_source: 'sec', sec_form_type: '4', filed: '2007-08-17', cik: '0001240808' });
    expect(await storedFiling(db.dataSource, '0000000000-00-000000')).toBeNull();
  });

  it('is idempotent: the same accession again answers unchanged and writes nothing', async () => {
    const before = await db.dataSource.query(`SELECT id, updated_at, attempts FROM insider_trading_filings WHERE accession_number = $1`, ['0001240812-07-000005']);
    const again = await importParsedFiling(db.dataSource, parsedFile(NCV), { accessionNumber: '0001240812-07-000005', via: 'feed', dataSource: 'sec', now: new Date() });
    expect(again).toMatchObject({ status: 'unchanged', lines: 1 });
    expect(await db.dataSource.query(`SELECT id, updated_at, attempts FROM insider_trading_filings WHERE accession_number = $1`, ['0001240812-07-000005'])).toEqual(before);
    expect(await count('insider_trading_transactions', 'sec_accession_number = $1', ['0001240812-07-000005'])).toBe(1);
  });

  it('stores a filing once when two imports of it run at the same time', async () => {
    const parsed = parsedFile(AIR);
    const meta = { accessionNumber: '0001127602-25-001055', via: 'feed' as const, dataSource: 'sec' as const, now: NOW };
    const results = await Promise.all([importParsedFiling(db.dataSource, parsed, meta), importParsedFiling(db.dataSource, parsed, meta)]);
    expect(results.map((r) => r.status).sort()).toEqual(['inserted', 'unchanged']);
    expect(results[0].filingId).toBe(results[1].filingId);
    expect(await count('insider_trading_filings', 'accession_number = $1', [meta.accessionNumber])).toBe(1);
    expect(await count('insider_trading_transactions', 'sec_accession_number = $1', [meta.accessionNumber])).toBe(1);
    expect(await count('insider_trading_filing_owners', 'filing_id = $1', [results[0].filingId])).toBe(1);
  });

  it("stores a joint filing's lines once, under the first owner, with every owner linked (a second owner added to the real NCV document's parse)", async () => {
    const real = parsedFile(NCV);
    const joint: ParsedForm4 = {
      ...real,
      accessionNumber: null,
      reportingOwners: [
        ...real.reportingOwners,
        { cik: '0001240809', name: 'ALLIANZ TEST CO-FILER', isOfficer: false, isDirector: false, isTenPercentOwner: true, isOther: false, officerTitle: null, otherText: null },
      ],
    };
    const result = await importParsedFiling(db.dataSource, joint, { accessionNumber: '0001240812-07-900001', via: 'import', dataSource: 'sec', now: NOW });
    expect(result.lines).toBe(1);
    const view = await storedFiling(db.dataSource, '0001240812-07-900001');
    expect(view?.reportingOwners.map((o) => [o.cik, o.isTenPercentOwner])).toEqual([
      ['0001240808', false],
      ['0001240809', true],
    ]);
    const lines = await db.dataSource.query(
      `SELECT i.cik FROM insider_trading_transactions t JOIN insider_trading_insiders i ON i.id = t.insider_id WHERE t.sec_accession_number = $1`,
      ['0001240812-07-900001'],
    );
    expect(lines).toEqual([{ cik: '0001240808' }]);
  });

  it('keeps the latest roles and name of an insider: a newer filing updates them, an older one does not', async () => {
    const real = parsedFile(NCV);
    const promoted = (date: string, title: string): ParsedForm4 => ({
      ...real,
      filingDate: date,
      filedAt: `${date}T20:00:00.000Z`,
      reportingOwners: [{ ...real.reportingOwners[0], name: `LEMESEVSKI E ${title}`, isOfficer: true, isOther: false, officerTitle: title }],
    });
    await importParsedFiling(db.dataSource, promoted('2009-01-05', 'CFO'), { accessionNumber: '0001240812-09-000001', via: 'import', dataSource: 'sec', now: NOW });
    await importParsedFiling(db.dataSource, promoted('2008-01-05', 'ANALYST'), { accessionNumber: '0001240812-08-000001', via: 'import', dataSource: 'sec', now: NOW });
    const [insider] = await db.dataSource.query(`SELECT name, is_officer, is_other FROM insider_trading_insiders WHERE cik = '0001240808'`);
    expect(insider).toEqual({ name: 'LEMESEVSKI E CFO', is_officer: true, is_other: false });
  });

  it('moves a ticker to the filing issuer when another company holds it, unless the filing is over a year old', async () => {
    // Another CIK holds NCV (as company_tickers.json would say after a symbol is reused).
    await upsertCompanies(db.dataSource, [{ cik: '0000999999', ticker: 'OLDCO', name: 'Old Co' }]);
    await db.dataSource.query(`UPDATE insider_trading_companies SET ticker = NULL WHERE cik = '0001214935'`);
    await db.dataSource.query(`UPDATE insider_trading_companies SET ticker = 'NCV' WHERE cik = '0000999999'`);
    // The 2007 filing's ticker does not take it back (it is stored already: a varied accession of it, same dates).
    await importParsedFiling(db.dataSource, parsedFile(NCV), { accessionNumber: '0001240812-07-900002', via: 'import', dataSource: 'sec', now: NOW });
    const tickers = async () =>
      Object.fromEntries(
        ((await db.dataSource.query(`SELECT cik, ticker FROM insider_trading_companies WHERE cik IN ('0000999999', '0001214935')`)) as { cik: string; ticker: string | null }[]).map((r) => [r.cik, r.ticker]),
      );
    expect(await tickers()).toEqual({ '0000999999': 'NCV', '0001214935': null });
    // A recent filing of NCV (the simulated variant of the real document, dated now) moves the ticker.
    const recent = parseForm4(simulatedPurchaseText(readFileSync(file(NCV), 'utf8'), 0, NOW));
    await importParsedFiling(db.dataSource, recent, { accessionNumber: recent.accessionNumber as string, via: 'import', dataSource: 'simulated', now: NOW });
    expect(await tickers()).toEqual({ '0000999999': null, '0001214935': 'NCV' });
    const view = await storedFiling(db.dataSource, recent.accessionNumber as string);
    // A simulated filing has no page on sec.gov.
    expect(view?.secUrl).toBeNull();
    expect((await db.dataSource.query(`SELECT DISTINCT data_source FROM insider_trading_transactions WHERE sec_accession_number = $1`, [recent.accessionNumber]))[0].data_source).toBe('simulated');
  });

  it('rejects a value no column can hold as a malformed filing, with nothing written (shares varied in the real AIR parse)', async () => {
    const real = parsedFile(AIR);
    const huge: ParsedForm4 = { ...real, transactions: [{ ...real.transactions[0], sharesTraded: '123456789012345678901234567890' }] };
    const before = { filings: await count('insider_trading_filings'), lines: await count('insider_trading_transactions'), companies: await count('insider_trading_companies') };
    await expect(importParsedFiling(db.dataSource, huge, { accessionNumber: '0001127602-25-999999', via: 'import', dataSource: 'sec', now: NOW })).rejects.toThrow(Form4ParseError);
    expect({ filings: await count('insider_trading_filings'), lines: await count('insider_trading_transactions'), companies: await count('insider_trading_companies') }).toEqual(before);
  });
});

describe('amendments (the real ATEX 4/A; its original is the same document varied: form 4, filed 2026-09-08)', () => {
  const amendment = () => ({ ...parsedFile(ATEX), filingDate: '2026-09-11', filedAt: '2026-09-11T16:07:08.000Z' });
  const original = (): ParsedForm4 => ({ ...parsedFile(ATEX), formType: '4', dateOfOriginalSubmission: null, filingDate: '2026-09-08', filedAt: '2026-09-08T20:00:00.000Z' });

  it('a 4/A replaces the lines of the original it names and links both', async () => {
    const first = await importParsedFiling(db.dataSource, original(), { accessionNumber: '0001669943-26-000011', via: 'feed', dataSource: 'sec', now: NOW });
    expect(first).toMatchObject({ status: 'inserted', lines: 3 });
    const amended = await importParsedFiling(db.dataSource, amendment(), { accessionNumber: '0001669943-26-000021', via: 'feed', dataSource: 'sec', now: NOW });
    expect(amended).toMatchObject({ status: 'replaced', lines: 3, amendedFilingId: first.filingId });
    expect(await count('insider_trading_transactions', 'filing_id = $1', [first.filingId])).toBe(0);
    expect(await count('insider_trading_transactions', 'filing_id = $1', [amended.filingId])).toBe(3);
    expect((await storedFiling(db.dataSource, '0001669943-26-000011'))?.amendedBy).toBe('0001669943-26-000021');
    expect((await storedFiling(db.dataSource, '0001669943-26-000021'))?.amends).toBe('0001669943-26-000011');
  });

  it('an original stored after its amendment arrives replaced', async () => {
    const other = await createTestDatabase();
    try {
      const amended = await importParsedFiling(other.dataSource, amendment(), { accessionNumber: '0001669943-26-000021', via: 'index', dataSource: 'sec', now: NOW });
      expect(amended).toMatchObject({ status: 'inserted', amendedFilingId: null });
      const late = await importParsedFiling(other.dataSource, original(), { accessionNumber: '0001669943-26-000011', via: 'index', dataSource: 'sec', now: NOW });
      expect(late).toMatchObject({ status: 'inserted', lines: 0 });
      expect((await storedFiling(other.dataSource, '0001669943-26-000011'))?.transactions).toEqual([]);
      expect((await storedFiling(other.dataSource, '0001669943-26-000021'))?.amends).toBe('0001669943-26-000011');
    } finally {
      await other.drop();
    }
  });
});

describe('failures', () => {
  it('records a failure with the reason and counts attempts; a retry stays pending; nothing else is written', async () => {
    const lines = await count('insider_trading_transactions');
    expect(await recordFilingRetry(db.dataSource, '0000320193-25-000001', 'fetch: HTTP 503', { cik: '320193', now: NOW })).toEqual({ attempts: 1 });
    expect(await recordFilingFailure(db.dataSource, '0000320193-25-000001', 'truncated: the document ends early', { now: NOW })).toEqual({ attempts: 2 });
    const view = await storedFiling(db.dataSource, '0000320193-25-000001');
    expect(view).toMatchObject({ status: 'failed', failureReason: 'truncated: the document ends early', issuer: null, transactions: [] });
    expect(await count('insider_trading_transactions')).toBe(lines);
  });

  it('never turns a parsed filing into a failed one', async () => {
    await recordFilingFailure(db.dataSource, '0001240812-07-000005', 'late duplicate failure', { now: NOW });
    expect(await storedFiling(db.dataSource, '0001240812-07-000005')).toMatchObject({ status: 'parsed', failureReason: null });
  });
});

describe('upsertCompanies (the real company_tickers.json, first 300 entries)', () => {
  it('stores one row per CIK with its first ticker, and changes nothing the second time', async () => {
    const rows = parseCompanyTickers(readFileSync(file('sec_company_tickers_first300.json'), 'utf8'));
    expect(rows).toHaveLength(300);
    const ciks = new Set(rows.map((r) => r.cik));
    const written = await upsertCompanies(db.dataSource, rows);
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThanOrEqual(ciks.size);
    expect(await upsertCompanies(db.dataSource, rows)).toBe(0);
    const first = rows[0];
    const [stored] = await db.dataSource.query(`SELECT ticker, company_name FROM insider_trading_companies WHERE cik = $1`, [first.cik]);
    expect(stored).toEqual({ ticker: first.ticker, company_name: first.name });
  });

  it('moves a ticker listed under another CIK (a reused symbol) and clears it on the old holder', async () => {
    await upsertCompanies(db.dataSource, [{ cik: '0000111111', ticker: 'MOVE', name: 'First holder' }]);
    await upsertCompanies(db.dataSource, [{ cik: '0000222222', ticker: 'MOVE', name: 'Second holder' }]);
    const rows = await db.dataSource.query(`SELECT cik, ticker FROM insider_trading_companies WHERE cik IN ('0000111111', '0000222222') ORDER BY cik`);
    expect(rows).toEqual([
      { cik: '0000111111', ticker: null },
      { cik: '0000222222', ticker: 'MOVE' },
    ]);
  });
});

describe('import of recorded files', () => {
  it('imports every recorded filing (every wrapper), keyed by its accession, once', async () => {
    const other = await createTestDatabase();
    try {
      const first = await seedRecordedInsiderFilings(other.dataSource, NOW);
      expect(first.filings).toBe(FORM4_SAMPLE_FILES.length);
      expect(await seedRecordedInsiderFilings(other.dataSource, NOW)).toEqual({ filings: FORM4_SAMPLE_FILES.length, lines: first.lines });
      const [{ n }] = await other.dataSource.query(`SELECT count(*)::int AS n FROM insider_trading_filings WHERE status = 'parsed'`);
      expect(n).toBe(FORM4_SAMPLE_FILES.length);
      const [{ lines }] = await other.dataSource.query(`SELECT count(*)::int AS lines FROM insider_trading_transactions WHERE data_source = 'sec-replay'`);
      expect(lines).toBe(first.lines);
    } finally {
      await other.drop();
    }
  });

  it('keys a bare XML file by the accession in its name, its recorded origin, or a hash of its content', async () => {
    const snow = 'sec_form4_SNOW_2022-12-13_codes_M_S.xml';
    const content = readFileSync(file(snow));
    const parsed = parseForm4(content);
    expect(accessionForFile(parsed, file('sec_form4_META_2025-10-31_codes_C_G_gift_X0508_primarydoc.xml'), content)).toBe('0000950103-25-014304');
    expect(accessionForFile(parsed, '/tmp/0001640147-22-000123.xml', content)).toBe('0001640147-22-000123');
    const local = accessionForFile(parsed, file(snow), content);
    expect(local).toMatch(/^local-[0-9a-f]{19}$/);
    const { result } = await importInsiderFile(db.dataSource, file(snow), { now: NOW });
    expect(result.status).toBe('inserted');
    expect((await importInsiderFile(db.dataSource, file(snow), { now: NOW })).result.status).toBe('unchanged');
    expect((await storedFiling(db.dataSource, local))?.secUrl).toBeNull();
  });
});
