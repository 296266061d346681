import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  SEC_ARCHIVES_URL,
  dailyFormIndexUrl,
  dedupeByAccession,
  filingIndexUrl,
  filingTextUrl,
  parseCompanyTickers,
  parseCurrentFilingsFeed,
  parseFormIndex,
  parseSubmissions,
} from '../../src/insiders/edgar-index.parse';
import { INSIDERS_RECORDINGS_DIR } from '../../src/insiders/form4.parse';

// Pure tests on the recorded real discovery documents (src/insiders/data/README.md gives each
// one's origin). Expected values were read by hand from the files.

const read = (file: string, encoding: BufferEncoding = 'utf8') => readFileSync(join(INSIDERS_RECORDINGS_DIR, file), encoding);
// The Atom feed declares ISO-8859-1.
const atom = read('sec_getcurrent_type4_atom_2025-12-12.xml', 'latin1');
const formIndex = read('sec_daily_form_index_form.20200318_excerpt.idx', 'latin1');

describe('parseCurrentFilingsFeed on the recorded getcurrent type=4 page', () => {
  const entries = parseCurrentFilingsFeed(atom);

  it('reads all 100 entries in feed order, each party of a filing on its own entry', () => {
    expect(entries).toHaveLength(100);
    expect(entries.slice(0, 4)).toEqual([
      {
        accessionNumber: '0002063236-25-000004',
        formType: '4',
        cik: '0002063236',
        role: 'reporting',
        name: 'Perez Daniel Antonio',
        // <updated>2025-12-12T18:02:43-05:00</updated>
        filedAt: '2025-12-12T23:02:43.000Z',
        indexUrl: 'https://www.sec.gov/Archives/edgar/data/2063236/000206323625000004/0002063236-25-000004-index.htm',
      },
      {
        accessionNumber: '0002063236-25-000004',
        formType: '4',
        cik: '0001673743',
        role: 'issuer',
        name: 'Hinge Health, Inc.',
        filedAt: '2025-12-12T23:02:43.000Z',
        indexUrl: 'https://www.sec.gov/Archives/edgar/data/1673743/000206323625000004/0002063236-25-000004-index.htm',
      },
      {
        accessionNumber: '0001572985-25-000003',
        formType: '4',
        cik: '0001572985',
        role: 'reporting',
        name: 'Vance Ronald J',
        filedAt: '2025-12-12T23:02:41.000Z',
        indexUrl: 'https://www.sec.gov/Archives/edgar/data/1572985/000157298525000003/0001572985-25-000003-index.htm',
      },
      {
        accessionNumber: '0001572985-25-000003',
        formType: '4',
        // The title writes 10 digits, the link "85535".
        cik: '0000085535',
        role: 'issuer',
        name: 'ROYAL GOLD INC',
        filedAt: '2025-12-12T23:02:41.000Z',
        indexUrl: 'https://www.sec.gov/Archives/edgar/data/85535/000157298525000003/0001572985-25-000003-index.htm',
      },
    ]);
    expect(entries.at(-1)).toEqual({
      accessionNumber: '0000950142-25-003181',
      formType: '4',
      cik: '0001187388',
      role: 'reporting',
      name: 'GAPCO GMBH & CO KG', // "&amp;" in the feed
      filedAt: '2025-12-12T22:32:17.000Z',
      indexUrl: 'https://www.sec.gov/Archives/edgar/data/1187388/000095014225003181/0000950142-25-003181-index.htm',
    });
    expect(entries.filter((e) => e.role === 'issuer')).toHaveLength(46);
    expect(entries.filter((e) => e.role === 'reporting')).toHaveLength(54);
    for (const entry of entries) {
      expect(entry.cik).toMatch(/^\d{10}$/);
      expect(entry.indexUrl).toContain(`/${entry.accessionNumber.replace(/-/g, '')}/${entry.accessionNumber}-index.htm`);
    }
  });

  it('dedupes by accession: 46 filings, each under its issuer, in order of first appearance', () => {
    const filings = dedupeByAccession(entries);
    expect(filings).toHaveLength(46);
    expect(new Set(filings.map((f) => f.accessionNumber)).size).toBe(46);
    expect(filings.every((f) => f.role === 'issuer')).toBe(true);
    expect(filings.slice(0, 2).map((f) => [f.accessionNumber, f.cik, f.name])).toEqual([
      ['0002063236-25-000004', '0001673743', 'Hinge Health, Inc.'],
      ['0001572985-25-000003', '0000085535', 'ROYAL GOLD INC'],
    ]);
    // The joint filing of nine General Atlantic entities is listed ten times: one row, the issuer's.
    expect(entries.filter((e) => e.accessionNumber === '0000950142-25-003181')).toHaveLength(10);
    expect(filings.find((f) => f.accessionNumber === '0000950142-25-003181')).toMatchObject({ cik: '0001832466', name: 'Alignment Healthcare, Inc.', role: 'issuer' });
  });

  it('keeps the first reporting entry when the page does not hold the issuer entry (split across pages)', () => {
    const withoutIssuer = entries.filter((e) => !(e.accessionNumber === '0000950142-25-003181' && e.role === 'issuer'));
    const kept = dedupeByAccession(withoutIssuer).find((f) => f.accessionNumber === '0000950142-25-003181');
    expect(kept).toMatchObject({ role: 'reporting', cik: withoutIssuer.find((e) => e.accessionNumber === '0000950142-25-003181')?.cik });
  });

  it('reads an empty page as no entries', () => {
    const empty = atom.slice(0, atom.indexOf('<entry>')) + '</feed>\n';
    expect(parseCurrentFilingsFeed(empty)).toEqual([]);
  });

  it('throws an Error naming the problem on an HTML page, a non-XML answer, a cut feed, another document, an entry without accession', () => {
    expect(() => parseCurrentFilingsFeed('<!DOCTYPE html><html><body>Your Request Originates from an Undeclared Automated Tool</body></html>')).toThrow(
      'the current filings answer is an HTML page, not an Atom feed',
    );
    expect(() => parseCurrentFilingsFeed('{"error":"rate limited"}')).toThrow('the current filings answer is not XML');
    expect(() => parseCurrentFilingsFeed(atom.slice(0, 30_000))).toThrow(/the current filings feed is not well-formed XML: .*\(line \d+\)/);
    expect(() => parseCurrentFilingsFeed(read('sec_form4_META_2025-10-31_codes_C_G_gift_X0508_primarydoc.xml'))).toThrow('the current filings answer is not an Atom feed (no <feed> root)');
    // Varied copy of the real feed: the first entry's id and link lose their accession number.
    const noAccession = atom
      .replace('<id>urn:tag:sec.gov,2008:accession-number=0002063236-25-000004</id>', '<id>urn:tag:sec.gov,2008:x</id>')
      .replace('000206323625000004/0002063236-25-000004-index.htm', 'x/index.htm');
    expect(() => parseCurrentFilingsFeed(noAccession)).toThrow('entry 1 ("4 - Perez Daniel Antonio (0002063236) (Reporting)") has no accession number');
  });
});

describe('parseFormIndex on the recorded form.20200318.idx excerpt', () => {
  const rows = parseFormIndex(formIndex);

  it('reads every row of every form type (the caller keeps 4 and 4/A)', () => {
    expect(rows).toHaveLength(732);
    const perForm: Record<string, number> = {};
    for (const row of rows) perForm[row.formType] = (perForm[row.formType] ?? 0) + 1;
    expect(perForm).toEqual({ '1-A': 1, '10-K': 68, '3': 89, '3/A': 2, '4': 300, '4/A': 34, '8-K': 232, 'S-1': 1, 'S-1/A': 5 });
    expect(rows[0]).toEqual({
      formType: '1-A',
      companyName: 'DLP Positive Note Fund LLC',
      cik: '0001806014',
      dateFiled: '2020-03-18',
      fileName: 'edgar/data/1806014/0001140361-20-006155.txt',
      accessionNumber: '0001140361-20-006155',
    });
    expect(rows.find((r) => r.formType === '4/A')).toEqual({
      formType: '4/A',
      companyName: 'ARENA PHARMACEUTICALS INC',
      cik: '0001080709',
      dateFiled: '2020-03-18',
      fileName: 'edgar/data/1080709/0001209191-20-019882.txt',
      accessionNumber: '0001209191-20-019882',
    });
    // "3           AAR CORP    ...  1750        20200318    edgar/data/1750/0001127602-20-011230.txt"
    expect(rows.find((r) => r.accessionNumber === '0001127602-20-011230')).toMatchObject({ formType: '3', companyName: 'AAR CORP', cik: '0000001750' });
    expect(rows.every((r) => r.dateFiled === '2020-03-18' && /^\d{10}$/.test(r.cik))).toBe(true);
  });

  it('throws on a document that is not a form index, and names a garbled row', () => {
    expect(() => parseFormIndex(atom)).toThrow('not an EDGAR form index: no "Form Type ... Company Name ... File Name" header line');
    expect(() => parseFormIndex(formIndex.replace(/^-{20,}/m, ''))).toThrow('not an EDGAR form index: no dashed line under the header');
    // Varied copy: the first row loses its date.
    const garbled = formIndex.replace('1806014     20200318    edgar', '1806014     2020-3-18   edgar');
    expect(() => parseFormIndex(garbled)).toThrow('form index line 11: "2020-3-18" is not a date');
  });
});

describe('parseCompanyTickers on the recorded company_tickers.json (first 300)', () => {
  it('reads 300 rows with 10-digit CIKs', () => {
    const rows = parseCompanyTickers(read('sec_company_tickers_first300.json'));
    expect(rows).toHaveLength(300);
    expect(rows[0]).toEqual({ cik: '0000789019', ticker: 'MSFT', name: 'MICROSOFT CORP' });
    expect(rows[5]).toEqual({ cik: '0001326801', ticker: 'META', name: 'Meta Platforms, Inc.' });
    expect(rows[6]).toEqual({ cik: '0001067983', ticker: 'BRK-B', name: 'BERKSHIRE HATHAWAY INC' });
    expect(rows.at(-1)).toEqual({ cik: '0000899051', ticker: 'ALL', name: 'ALLSTATE CORP' });
  });

  it('throws on something else', () => {
    expect(() => parseCompanyTickers('<html>')).toThrow(/^company_tickers.json is not JSON/);
    expect(() => parseCompanyTickers('{"0":{"cik":1}}')).toThrow(/^company_tickers.json has an unexpected shape: 0\.cik_str/);
  });
});

describe('parseSubmissions on the recorded Tesla submissions JSON', () => {
  const json = read('sec_edgar_submissions_CIK0001318605_TSLA_trimmed.json');

  it('reads the company and the 150 rows of the column-oriented filings.recent', () => {
    const submissions = parseSubmissions(json);
    expect(submissions).toMatchObject({ cik: '0001318605', name: 'Tesla, Inc.', tickers: ['TSLA'], sic: '3711', sicDescription: 'Motor Vehicles & Passenger Car Bodies' });
    expect(submissions.filings).toHaveLength(150);
    expect(submissions.filings[0]).toEqual({
      accessionNumber: '0001790565-22-000015',
      form: '4',
      filingDate: '2022-11-30',
      // Written "2022-11-30T16:42:36.000Z": New York wall time (EST), so 21:42:36 UTC.
      acceptanceDateTime: '2022-11-30T21:42:36.000Z',
      primaryDocument: 'xslF345X03/edgardoc.xml',
    });
    expect(submissions.filings.filter((f) => f.form === '4')).toHaveLength(104);
    expect(submissions.filings.filter((f) => f.form === '4/A')).toEqual([
      // "2022-06-03T17:42:00.000Z" in EDT (UTC-4).
      { accessionNumber: '0000899243-22-021041', form: '4/A', filingDate: '2022-06-03', acceptanceDateTime: '2022-06-03T21:42:00.000Z', primaryDocument: 'xslF345X03/doc4a.xml' },
    ]);
    // The 10-Q "accepted at 06:08:50Z" was accepted at 06:08 in New York, when EDGAR opens.
    expect(submissions.filings.find((f) => f.accessionNumber === '0000950170-22-019867')).toMatchObject({ form: '10-Q', acceptanceDateTime: '2022-10-24T10:08:50.000Z' });
  });

  it('throws when the parallel arrays differ in length (varied copy) or the shape is not a submissions document', () => {
    const document = JSON.parse(json) as { filings: { recent: { form: string[] } } };
    document.filings.recent.form.pop();
    expect(() => parseSubmissions(JSON.stringify(document))).toThrow("the submissions document's filings.recent.form has 149 entries, accessionNumber 150");
    expect(() => parseSubmissions(read('sec_company_tickers_first300.json'))).toThrow(/^the submissions document has an unexpected shape/);
    expect(() => parseSubmissions('not json')).toThrow(/^the submissions document is not JSON/);
  });
});

describe('sec.gov URLs', () => {
  it('builds the full submission, the index page and the daily form index', () => {
    expect(SEC_ARCHIVES_URL).toBe('https://www.sec.gov/Archives/edgar');
    expect(filingTextUrl('0000001750', '0001127602-25-001055')).toBe('https://www.sec.gov/Archives/edgar/data/1750/000112760225001055/0001127602-25-001055.txt');
    expect(filingIndexUrl('85535', '000157298525000003')).toBe('https://www.sec.gov/Archives/edgar/data/85535/000157298525000003/0001572985-25-000003-index.htm');
    // The recorded feed's link for the same filing.
    expect(filingIndexUrl('0000085535', '0001572985-25-000003')).toBe(parseCurrentFilingsFeed(atom)[3].indexUrl);
    expect(dailyFormIndexUrl('2020-03-18')).toBe('https://www.sec.gov/Archives/edgar/daily-index/2020/QTR1/form.20200318.idx');
    expect(dailyFormIndexUrl('2025-12-31')).toBe('https://www.sec.gov/Archives/edgar/daily-index/2025/QTR4/form.20251231.idx');
    expect(dailyFormIndexUrl('2025-07-01')).toBe('https://www.sec.gov/Archives/edgar/daily-index/2025/QTR3/form.20250701.idx');
  });

  it('refuses what is not a CIK, an accession number or a day', () => {
    expect(() => filingTextUrl('../etc', '0001127602-25-001055')).toThrow('"../etc" is not a CIK');
    expect(() => filingTextUrl('1750', '0001127602-25-1055')).toThrow('"0001127602-25-1055" is not an accession number');
    expect(() => dailyFormIndexUrl('2020-13-01')).toThrow('"2020-13-01" is not a day (YYYY-MM-DD)');
  });
});
