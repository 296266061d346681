import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  FORM4_SAMPLE_FILES,
  Form4ParseError,
  INSIDERS_RECORDINGS_DIR,
  mentions10b5One,
  parseForm4,
  type Form4ParseErrorKind,
  type ParsedForm4,
  type ParsedTransaction,
} from '../../src/insiders/form4.parse';

// Pure tests on the recorded real filings (src/insiders/data/README.md gives each one's origin).
// Every expected value below was read by hand from the XML of the file named in its test.
// Where a case has no recorded filing (a 10b5-1 footnote, joint owners, a missing value...), the
// test varies the text of a real document and says so.

const bytes = (file: string): Buffer => readFileSync(join(INSIDERS_RECORDINGS_DIR, file));
const text = (file: string): string => bytes(file).toString('latin1');
const sample = (prefix: string): string => {
  const file = FORM4_SAMPLE_FILES.find((name) => name.startsWith(prefix));
  if (!file) throw new Error(`no recorded filing ${prefix}`);
  return file;
};
const parse = (prefix: string): ParsedForm4 => parseForm4(bytes(sample(prefix)));

/** A line as a row of the paper form: table, line, date, code, shares, price, A/D, owned after, D/I, value. */
const row = (t: ParsedTransaction) => [
  t.table === 'derivative' ? 'D' : 'N',
  t.lineNumber,
  t.transactionDate,
  t.transactionCode,
  t.sharesTraded,
  t.pricePerShare,
  t.acquiredDisposed,
  t.sharesOwnedAfter,
  t.directOrIndirect,
  t.totalValue,
];

/** Replaces one exact piece of a real document; fails loudly when the piece is not there. */
function vary(source: string, from: string, to: string): string {
  expect(source).toContain(from);
  return source.replace(from, to);
}

function failure(input: string | Buffer): Form4ParseError {
  try {
    parseForm4(input);
  } catch (error) {
    expect(error).toBeInstanceOf(Form4ParseError);
    return error as Form4ParseError;
  }
  throw new Error('parseForm4 did not throw');
}

function expectFailure(input: string | Buffer, kind: Form4ParseErrorKind, message: RegExp): void {
  const error = failure(input);
  expect({ kind: error.kind, message: error.message }).toEqual({ kind, message: expect.stringMatching(message) });
}

describe('parseForm4 on every recorded filing', () => {
  // file prefix -> wrapper, accession (null for bare XML), formType, schema, lines per table.
  const expected: Record<string, [ParsedForm4['wrapper'], string | null, '4' | '4/A', string, number, number]> = {
    sec_form4_AIR: ['full-submission', '0001127602-25-001055', '4', 'X0508', 1, 0],
    sec_form4_AOSL: ['full-submission', '0001387467-25-000038', '4', 'X0508', 4, 0],
    sec_form4_ARW: ['nc', '0001127602-25-004598', '4', 'X0508', 2, 0],
    sec_form4_IHT: ['full-submission', '0001493152-25-015819', '4', 'X0508', 1, 0],
    sec_form4_META: ['xml', null, '4', 'X0508', 2, 0],
    sec_form4_MVIS: ['xml', null, '4', 'X0609', 3, 3],
    sec_form4_NCV: ['full-submission', '0001240812-07-000005', '4', 'X0202', 1, 0],
    sec_form4_SCWO: ['xml', null, '4', 'X0508', 1, 1],
    sec_form4_SNOW: ['xml', null, '4', 'X0306', 6, 1],
    sec_form4_TSVT: ['nc', '0001562180-25-000280', '4', 'X0508', 1, 1],
    sec_form4_WDAY: ['full-submission', '0001327811-25-000050', '4', 'X0508', 1, 0],
    sec_form4_ZIP: ['full-submission', '0001617553-25-000024', '4', 'X0508', 5, 4],
    sec_form4A_ATEX: ['xml', null, '4/A', 'X0609', 2, 1],
  };

  it('lists the thirteen recorded filings', () => {
    expect(FORM4_SAMPLE_FILES).toHaveLength(13);
    expect(Object.keys(expected).map(sample)).toEqual([...FORM4_SAMPLE_FILES]);
  });

  it.each(Object.entries(expected))('%s: wrapper, accession, form, schema and lines per table', (prefix, [wrapper, accession, formType, schema, nonDerivative, derivative]) => {
    // As a Buffer and as a string: the same answer.
    const parsed = parseForm4(bytes(sample(prefix)));
    expect(parseForm4(text(sample(prefix)))).toEqual(parsed);
    expect(parsed).toMatchObject({ wrapper, accessionNumber: accession, formType, schemaVersion: schema });
    expect(parsed.transactions.filter((t) => t.table === 'non-derivative').map((t) => t.lineNumber)).toEqual(Array.from({ length: nonDerivative }, (_, i) => i + 1));
    expect(parsed.transactions.filter((t) => t.table === 'derivative').map((t) => t.lineNumber)).toEqual(Array.from({ length: derivative }, (_, i) => i + 1));
    expect(parsed.reportingOwners.length).toBeGreaterThanOrEqual(1);
    for (const t of parsed.transactions) {
      expect(t.transactionDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(t.sharesTraded).toMatch(/^\d+(\.\d+)?$/);
      // Every footnote a line names is in the filing's footnotes (the trimmed 4/A lost its block).
      if (prefix !== 'sec_form4A_ATEX') for (const id of t.footnoteIds) expect(parsed.footnotes[id]).toEqual(expect.any(String));
    }
  });
});

describe('full submission .txt (SGML header around <XML>)', () => {
  it('AIR: the header, the owner, a weighted-average sale and the 10b5-1 checkbox at 0', () => {
    const parsed = parse('sec_form4_AIR');
    const weighted =
      'The price reported in Column 4 is a weighted average price. These shares were sold in multiple transactions at prices ranging from $66.8350 to $66.9800 inclusive. The reporting person undertakes to provide AAR CORP. any security holder of AAR CORP. or the staff of the Securities Exchange Commission upon request, full information regarding the number of shares sold at each separate price within the range set forth in this footnote.';
    expect(parsed).toEqual({
      wrapper: 'full-submission',
      accessionNumber: '0001127602-25-001055',
      formType: '4',
      schemaVersion: 'X0508',
      // <ACCEPTANCE-DATETIME>20250110160730: 16:07:30 in New York (EST, UTC-5).
      filedAt: '2025-01-10T21:07:30.000Z',
      filingDate: '2025-01-10',
      periodOfReport: '2025-01-10',
      dateOfOriginalSubmission: null,
      issuer: { cik: '0000001750', name: 'AAR CORP', ticker: 'AIR' },
      reportingOwners: [
        {
          cik: '0001806647',
          name: 'Garascia Jessica A.',
          isOfficer: true,
          isDirector: false,
          isTenPercentOwner: false,
          isOther: false,
          officerTitle: 'Senior VP, GC, CAO & Secretary',
          otherText: null,
        },
      ],
      rule10b5One: false,
      rule10b5OneFrom: 'checkbox',
      footnotes: { F1: weighted },
      remarks: null,
      transactions: [
        {
          table: 'non-derivative',
          lineNumber: 1,
          securityTitle: 'Common Stock',
          transactionDate: '2025-01-10',
          transactionCode: 'S',
          equitySwap: false,
          sharesTraded: '1500',
          pricePerShare: '66.903',
          isWeightedPrice: true,
          priceFootnote: weighted,
          acquiredDisposed: 'D',
          sharesOwnedAfter: '37565',
          directOrIndirect: 'D',
          natureOfOwnership: null,
          exercisePrice: null,
          underlyingTitle: null,
          underlyingShares: null,
          // 1,500 x 66.903 = 100,354.50
          totalValue: '100354.50',
          rule10b5One: false,
          footnoteIds: ['F1'],
        },
      ],
    });
  });

  it('IHT: the price typo 22625 kept as filed, aff10b5One=1, three roles, indirect by spouse', () => {
    const parsed = parse('sec_form4_IHT');
    expect(parsed).toMatchObject({
      accessionNumber: '0001493152-25-015819',
      // 20250926172901 = 17:29:01 EDT (UTC-4).
      filedAt: '2025-09-26T21:29:01.000Z',
      filingDate: '2025-09-26',
      periodOfReport: '2025-09-25',
      issuer: { cik: '0000082473', name: 'INNSUITES HOSPITALITY TRUST', ticker: 'IHT' },
      rule10b5One: true,
      rule10b5OneFrom: 'checkbox',
      footnotes: {},
      remarks: null,
    });
    expect(parsed.reportingOwners).toEqual([
      {
        cik: '0001055365',
        name: 'WIRTH JAMES F',
        isOfficer: true,
        isDirector: false,
        isTenPercentOwner: true,
        isOther: true,
        officerTitle: 'President & CEO',
        otherText: 'Chairman',
      },
    ]);
    const [line] = parsed.transactions;
    // 12,500 x 22,625 = 282,812,500.00: absurd (the stock traded near $2), but it is what was filed.
    expect(row(line)).toEqual(['N', 1, '2025-09-25', 'S', '12500', '22625', 'D', '6226796', 'I', '282812500.00']);
    expect(line).toMatchObject({ securityTitle: 'INNSUITES HOSPITALITY REIT', natureOfOwnership: 'By Spouse', rule10b5One: true, isWeightedPrice: false, priceFootnote: null, footnoteIds: [] });
  });

  it('AOSL: "&amp;" in the issuer name, grants and tax withholding, owned-after with three footnotes', () => {
    const parsed = parse('sec_form4_AOSL');
    expect(parsed.issuer).toEqual({ cik: '0001387467', name: 'ALPHA & OMEGA SEMICONDUCTOR Ltd', ticker: 'AOSL' });
    expect(parsed.filedAt).toBe('2025-03-19T00:14:08.000Z'); // 20:14:08 EDT on the 18th
    expect(parsed.reportingOwners[0]).toMatchObject({ cik: '0001878542', name: 'Li Wenjun', isOfficer: true, officerTitle: 'Chief Operating Officer', otherText: null });
    expect(parsed.transactions.map(row)).toEqual([
      ['N', 1, '2025-03-17', 'A', '10000', '0', 'A', '69064', 'D', '0.00'],
      ['N', 2, '2025-03-17', 'F', '2954', '27.61', 'D', '66110', 'D', '81559.94'], // 2,954 x 27.61
      ['N', 3, '2025-03-17', 'F', '1897', '27.61', 'D', '64213', 'D', '52376.17'], // 1,897 x 27.61
      ['N', 4, '2025-03-17', 'A', '10000', '0', 'A', '74213', 'D', '0.00'],
    ]);
    expect(parsed.transactions.map((t) => t.footnoteIds)).toEqual([
      ['F1', 'F2', 'F3', 'F4'],
      ['F5', 'F2', 'F3', 'F4'],
      ['F6', 'F2', 'F3', 'F4'],
      ['F7', 'F2', 'F3', 'F4'],
    ]);
  });

  it('WDAY: one F line, the holding beside it skipped, an empty derivative table', () => {
    const parsed = parse('sec_form4_WDAY');
    expect(parsed.issuer).toEqual({ cik: '0001327811', name: 'Workday, Inc.', ticker: 'WDAY' });
    expect(parsed.reportingOwners[0]).toMatchObject({ cik: '0001409324', name: 'Eschenbach Carl M.', isOfficer: true, isDirector: true, isTenPercentOwner: false, officerTitle: 'CEO' });
    expect(parsed.filedAt).toBe('2025-03-07T23:28:58.000Z'); // 18:28:58 EST
    // 11,084 x 253.63 = 2,811,234.92
    expect(parsed.transactions.map(row)).toEqual([['N', 1, '2025-03-05', 'F', '11084', '253.63', 'D', '627104', 'D', '2811234.92']]);
    expect(parsed.transactions[0].footnoteIds).toEqual(['F1', 'F2']);
    // F2 is written over two lines in the file: one space in the text.
    expect(parsed.footnotes.F2).toContain('All grants are subject to the Reporting Person');
    expect(Object.keys(parsed.footnotes)).toEqual(['F1', 'F2', 'F3']);
  });

  it('ZIP: four M and one F in the table of shares, four RSU settlements in the derivative table', () => {
    const parsed = parse('sec_form4_ZIP');
    expect(parsed.issuer).toEqual({ cik: '0001617553', name: 'ZIPRECRUITER, INC.', ticker: 'ZIP' });
    expect(parsed.reportingOwners[0]).toMatchObject({ cik: '0001859449', name: 'TRAVERS DAVID', isOfficer: true, officerTitle: 'President' });
    expect(parsed.transactions.map(row)).toEqual([
      ['N', 1, '2025-03-15', 'M', '6250', '0', 'A', '1114607', 'D', '0.00'],
      ['N', 2, '2025-03-15', 'M', '13347', '0', 'A', '1127954', 'D', '0.00'],
      ['N', 3, '2025-03-15', 'M', '20691', '0', 'A', '1148645', 'D', '0.00'],
      ['N', 4, '2025-03-15', 'M', '20444', '0', 'A', '1169089', 'D', '0.00'],
      ['N', 5, '2025-03-15', 'F', '33148', '5.96', 'D', '1138960', 'D', '197562.08'], // 33,148 x 5.96
      ['D', 1, '2025-03-15', 'M', '6250', '0', 'D', '12500', 'D', '0.00'],
      ['D', 2, '2025-03-15', 'M', '13347', '0', 'D', '93427', 'D', '0.00'],
      ['D', 3, '2025-03-15', 'M', '20691', '0', 'D', '227595', 'D', '0.00'],
      ['D', 4, '2025-03-15', 'M', '20444', '0', 'D', '306656', 'D', '0.00'],
    ]);
    const settlement = parsed.transactions[5];
    // exerciseDate (F4) and expirationDate (F5) are footnotes only: their ids are kept.
    expect(settlement).toMatchObject({ securityTitle: 'Restricted Stock Units', exercisePrice: '0', underlyingTitle: 'Class A Common Stock', underlyingShares: '6250', footnoteIds: ['F3', 'F4', 'F5'] });
    expect(parsed.footnotes.F5).toBe('RSUs do not expire; they either vest or are canceled prior to vesting date.');
  });

  it('NCV: the PEM-wrapped 2007 submission, schema X0202, an open-market purchase (P), no 10b5-1 element', () => {
    const parsed = parse('sec_form4_NCV');
    expect(parsed).toMatchObject({
      wrapper: 'full-submission',
      accessionNumber: '0001240812-07-000005',
      schemaVersion: 'X0202',
      filedAt: '2007-08-17T19:27:25.000Z', // 15:27:25 EDT
      filingDate: '2007-08-17',
      periodOfReport: '2007-08-15',
      issuer: { cik: '0001214935', name: 'NICHOLAS APPLEGATE CONVERTIBLE & INCOME FUND', ticker: 'NCV' },
      // No checkbox in X0202 and no footnote or remark naming a plan: unknown.
      rule10b5One: null,
      rule10b5OneFrom: null,
      footnotes: {},
      remarks:
        'Nicholas-Applegate Capital Management LLC ("NACM") is an investment adviser of the Issuer. Ms. Lemesevski is an investment analyst with NACM who is invloved with the day-to-day portfolio management of the Issuer.',
    });
    expect(parsed.reportingOwners).toEqual([
      { cik: '0001240808', name: 'LEMESEVSKI ELIZABETH', isOfficer: false, isDirector: false, isTenPercentOwner: false, isOther: true, officerTitle: null, otherText: 'Affiliated Person' },
    ]);
    // 300 x 11.75 = 3,525.00; the empty <transactionTimeliness><value></value> is no problem.
    expect(parsed.transactions.map(row)).toEqual([['N', 1, '2007-08-17', 'P', '300', '11.75', 'A', '300', 'D', '3525.00']]);
    expect(parsed.transactions[0].rule10b5One).toBeNull();
  });
});

describe('.nc dissemination files (angle-bracket header, CR-only line breaks)', () => {
  it('ARW: the recorded file breaks lines with CR only, and the header and lines are read', () => {
    const raw = text(sample('sec_form4_ARW'));
    expect(raw.split('\n')).toHaveLength(2); // only the first line ends with LF
    expect(raw.split('\r')).toHaveLength(190); // the other 189 end with CR
    const parsed = parseForm4(raw);
    expect(parsed).toMatchObject({
      wrapper: 'nc',
      accessionNumber: '0001127602-25-004598',
      formType: '4',
      filedAt: null, // an .nc header has no acceptance time
      filingDate: '2025-02-13',
      periodOfReport: '2025-02-12',
      issuer: { cik: '0000007536', name: 'ARROW ELECTRONICS, INC.', ticker: 'ARW' },
      rule10b5One: false,
      rule10b5OneFrom: 'checkbox',
    });
    expect(parsed.reportingOwners).toEqual([
      { cik: '0001870985', name: 'Jean-Claude Carine Lamercie', isOfficer: true, isDirector: false, isTenPercentOwner: false, isOther: false, officerTitle: 'SVP, CLO & Secretary', otherText: null },
    ]);
    expect(parsed.transactions.map(row)).toEqual([
      ['N', 1, '2025-02-12', 'A', '2193', '106.82', 'A', '21878', 'D', '234256.26'], // 2,193 x 106.82
      ['N', 2, '2025-02-12', 'F', '1009', '106.82', 'D', '20869', 'D', '107781.38'], // 1,009 x 106.82
    ]);
    expect(parsed.transactions.map((t) => t.footnoteIds)).toEqual([['F1'], ['F2']]);
    expect(parsed.footnotes.F1).toMatch(/^Represents Common Stock earned from the vesting and settlement of a Performance Stock Unit \("PSU"\) grant/);
  });

  it('TSVT: true/false booleans, an option whose exerciseDate is only a footnote, the title in the remarks', () => {
    const raw = text(sample('sec_form4_TSVT'));
    expect(raw).toContain('<isOfficer>true</isOfficer>');
    expect(raw.split('\n')).toHaveLength(2);
    const parsed = parseForm4(raw);
    expect(parsed).toMatchObject({
      wrapper: 'nc',
      accessionNumber: '0001562180-25-000280',
      filingDate: '2025-01-08',
      periodOfReport: '2025-01-06',
      issuer: { cik: '0001860782', name: '2seventy bio, Inc.', ticker: 'TSVT' },
      rule10b5One: false, // <aff10b5One>false</aff10b5One>
      rule10b5OneFrom: 'checkbox',
      remarks: 'Title: Senior Vice President of Quality and Enabling Functions',
    });
    expect(parsed.reportingOwners).toEqual([
      { cik: '0002009134', name: 'Snow Jessica', isOfficer: true, isDirector: false, isTenPercentOwner: false, isOther: false, officerTitle: 'See Remarks', otherText: null },
    ]);
    // "106150.00" as filed is the decimal 106150.
    expect(parsed.transactions.map(row)).toEqual([
      ['N', 1, '2025-01-06', 'A', '106150', '0', 'A', '253329', 'D', '0.00'],
      ['D', 1, '2025-01-06', 'A', '70750', '0', 'A', '70750', 'D', '0.00'],
    ]);
    const option = parsed.transactions[1];
    expect(option).toMatchObject({ securityTitle: 'Stock Option (Right to buy)', exercisePrice: '2.64', underlyingTitle: 'Common Stock', underlyingShares: '70750', equitySwap: false });
    // <exerciseDate><footnoteId id="F2"/></exerciseDate>: no value, the footnote id is kept.
    expect(option.footnoteIds).toEqual(['F2']);
    expect(parsed.footnotes.F2).toMatch(/^This stock option vests over a four-year period at the rate of 25% on January 2, 2026/);
  });
});

describe('bare ownershipDocument XML', () => {
  it('META: a conversion (C) held indirectly, then a gift (G) at price 0', () => {
    const parsed = parse('sec_form4_META');
    expect(parsed).toMatchObject({
      wrapper: 'xml',
      accessionNumber: null,
      filedAt: null,
      filingDate: null,
      periodOfReport: '2025-10-31',
      issuer: { cik: '0001326801', name: 'Meta Platforms, Inc.', ticker: 'META' },
      rule10b5One: false,
      rule10b5OneFrom: 'checkbox',
    });
    expect(parsed.reportingOwners).toEqual([
      { cik: '0001548760', name: 'Zuckerberg Mark', isOfficer: true, isDirector: true, isTenPercentOwner: true, isOther: false, officerTitle: 'COB and CEO', otherText: null },
    ]);
    expect(parsed.transactions.map(row)).toEqual([
      ['N', 1, '2025-10-31', 'C', '242340', '0', 'A', '242340', 'I', '0.00'],
      ['N', 2, '2025-10-31', 'G', '242340', '0', 'D', '351470516', 'D', '0.00'],
    ]);
    expect(parsed.transactions[0]).toMatchObject({ securityTitle: 'Class A Common Stock', natureOfOwnership: 'By CZI Holdings, LLC', footnoteIds: ['F1'] });
    expect(parsed.transactions[1]).toMatchObject({ natureOfOwnership: null, footnoteIds: [] });
  });

  it('MVIS: schema X0609, a weighted sell-to-cover, RSU grant and settlements', () => {
    const parsed = parse('sec_form4_MVIS');
    expect(parsed.issuer).toEqual({ cik: '0000065770', name: 'MICROVISION, INC.', ticker: 'MVIS' });
    expect(parsed.reportingOwners[0]).toMatchObject({ cik: '0001865433', name: 'Markham Drew G', isOfficer: true, isDirector: false, officerTitle: 'GC' });
    expect(parsed.transactions.map(row)).toEqual([
      ['N', 1, '2026-06-08', 'M', '150000', '0', 'A', '622308', 'D', '0.00'],
      ['N', 2, '2026-06-08', 'M', '118800', '0', 'A', '741108', 'D', '0.00'],
      ['N', 3, '2026-06-10', 'F', '77905', '0.3621', 'D', '663203', 'D', '28209.40'], // 77,905 x 0.3621 = 28,209.4005
      ['D', 1, '2026-06-08', 'A', '150000', '0', 'A', '150000', 'D', '0.00'],
      ['D', 2, '2026-06-08', 'M', '150000', '0', 'D', '0', 'D', '0.00'],
      ['D', 3, '2026-06-08', 'M', '118800', '0', 'D', '0', 'D', '0.00'],
    ]);
    expect(parsed.transactions[2]).toMatchObject({
      isWeightedPrice: true,
      priceFootnote: 'The price reported in column 4 is a weighted average price. These shares were sold by the Issuer in multiple transactions at prices ranging from $0.3509 to $0.3779, inclusive.',
      footnoteIds: ['F2', 'F3'],
    });
    expect(parsed.transactions[3]).toMatchObject({ securityTitle: 'Restricted Stock Units', exercisePrice: '0', underlyingTitle: 'Common stock', underlyingShares: '150000', footnoteIds: ['F4', 'F5'] });
  });

  it('SCWO: an RSU grant and an option whose exerciseDate is only a footnote, true/false booleans', () => {
    const parsed = parse('sec_form4_SCWO');
    expect(parsed.issuer).toEqual({ cik: '0000933972', name: '374Water Inc.', ticker: 'SCWO' });
    expect(parsed.reportingOwners).toEqual([
      { cik: '0002064133', name: 'Melkote Rajesh Ramaswamy', isOfficer: true, isDirector: false, isTenPercentOwner: false, isOther: false, officerTitle: 'Chief Technology Officer', otherText: null },
    ]);
    expect(parsed).toMatchObject({ rule10b5One: false, rule10b5OneFrom: 'checkbox' });
    // As filed: 757,756 RSUs but 757,576 options (the filer's digits).
    expect(parsed.transactions.map(row)).toEqual([
      ['N', 1, '2025-04-30', 'A', '757756', '0', 'A', '757756', 'D', '0.00'],
      ['D', 1, '2025-04-30', 'A', '757576', '0', 'A', '757756', 'D', '0.00'],
    ]);
    expect(parsed.transactions[1]).toMatchObject({ exercisePrice: '0.33', underlyingShares: '757576', footnoteIds: ['F1'] });
  });

  it('SNOW: schema X0306 without a 10b5-1 element, five weighted-average sales, eight holdings skipped', () => {
    const parsed = parse('sec_form4_SNOW');
    expect(parsed.issuer).toEqual({ cik: '0001640147', name: 'Snowflake Inc.', ticker: 'SNOW' });
    expect(parsed.reportingOwners[0]).toMatchObject({ cik: '0001402349', name: 'Scarpelli Michael', isOfficer: true, officerTitle: 'Chief Financial Officer', otherText: null });
    // F2 says "effected for financial and tax planning purposes": no plan named, so unknown.
    expect(parsed).toMatchObject({ rule10b5One: null, rule10b5OneFrom: null, remarks: null });
    expect(parsed.transactions.map(row)).toEqual([
      ['N', 1, '2022-12-13', 'M', '200000', '8.88', 'A', '301097', 'D', '1776000.00'],
      ['N', 2, '2022-12-13', 'S', '73170', '150.841', 'D', '227927', 'D', '11037035.97'],
      ['N', 3, '2022-12-13', 'S', '74907', '151.814', 'D', '153020', 'D', '11371931.30'],
      ['N', 4, '2022-12-13', 'S', '41986', '152.655', 'D', '111034', 'D', '6409372.83'],
      ['N', 5, '2022-12-13', 'S', '5496', '153.872', 'D', '105538', 'D', '845680.51'],
      ['N', 6, '2022-12-13', 'S', '4441', '154.76', 'D', '101097', 'D', '687289.16'],
      ['D', 1, '2022-12-13', 'M', '200000', '0', 'A', '2219299', 'D', '0.00'],
    ]);
    const sales = parsed.transactions.filter((t) => t.transactionCode === 'S');
    expect(sales.map((t) => t.isWeightedPrice)).toEqual([true, true, true, true, true]);
    expect(sales.map((t) => t.footnoteIds)).toEqual([['F2', 'F3'], ['F2', 'F4'], ['F2', 'F5'], ['F2', 'F6'], ['F2', 'F7']]);
    // The footnote is written over several indented lines: one line of text here.
    expect(sales[1].priceFootnote).toBe('The price reported in Column 4 is a weighted-average price. The shares were sold in multiple transactions ranging from $151.300 to $152.295, inclusive.');
    expect(parsed.transactions[0]).toMatchObject({ isWeightedPrice: false, priceFootnote: null });
    expect(parsed.transactions[6]).toMatchObject({ exercisePrice: '8.88', underlyingShares: '200000', footnoteIds: ['F16'] });
    expect(Object.keys(parsed.footnotes)).toHaveLength(16);
  });

  it('ATEX 4/A: documentType 4/A with dateOfOriginalSubmission; footnote ids kept although the trimmed copy lost its footnotes', () => {
    const parsed = parse('sec_form4A_ATEX');
    expect(parsed).toMatchObject({
      wrapper: 'xml',
      formType: '4/A',
      schemaVersion: 'X0609',
      periodOfReport: '2026-09-08',
      dateOfOriginalSubmission: '2026-09-08',
      issuer: { cik: '0001304492', name: 'Anterix Inc.', ticker: 'ATEX' },
      rule10b5One: false,
      footnotes: {},
    });
    expect(parsed.reportingOwners).toEqual([
      { cik: '0001669943', name: 'Ashe Gena L', isOfficer: true, isDirector: false, isTenPercentOwner: false, isOther: false, officerTitle: 'Chief Legal Officer & Corp Sec', otherText: null },
    ]);
    expect(parsed.transactions.map(row)).toEqual([
      ['N', 1, '2026-09-08', 'S', '293', '85.44', 'D', '9238', 'D', '25033.92'], // 293 x 85.44
      ['N', 2, '2026-09-08', 'F', '2769', '86.27', 'D', '13302', 'D', '238881.63'], // 2,769 x 86.27
      ['D', 1, '2026-09-08', 'M', '6833', '0', 'D', '35658', 'D', '0.00'],
    ]);
    expect(parsed.transactions.map((t) => t.footnoteIds)).toEqual([[], ['F1'], ['F2']]);
    expect(parsed.transactions[2]).toMatchObject({ exercisePrice: '34.96', underlyingShares: '6833' });
  });
});

describe('10b5-1 plans', () => {
  it('reads the checkbox: IHT aff10b5One=1 -> true, AIR aff10b5One=0 -> false', () => {
    expect(parse('sec_form4_IHT')).toMatchObject({ rule10b5One: true, rule10b5OneFrom: 'checkbox' });
    expect(parse('sec_form4_AIR')).toMatchObject({ rule10b5One: false, rule10b5OneFrom: 'checkbox' });
  });

  // No recorded filing names a 10b5-1 plan in a footnote: these cases vary the text of SNOW's
  // real footnote F2 (schema X0306, no checkbox), which its five sales reference.
  const snow = text(sample('sec_form4_SNOW'));
  const F2 = 'The sales reported in this Form 4 were effected for financial and tax planning purposes.';

  it('reads a plan from a footnote when the schema has no checkbox (varied SNOW F2)', () => {
    const varied = vary(snow, F2, 'The sales reported in this Form 4 were effected pursuant to a Rule 10b5-1 trading plan adopted by the Reporting Person on August 26, 2022.');
    const parsed = parseForm4(varied);
    expect(parsed).toMatchObject({ rule10b5One: true, rule10b5OneFrom: 'footnote' });
    // The sales name F2; the exercises take the filing's value.
    expect(parsed.transactions.map((t) => [t.transactionCode, t.rule10b5One])).toEqual([
      ['M', true],
      ['S', true],
      ['S', true],
      ['S', true],
      ['S', true],
      ['S', true],
      ['M', true],
    ]);
  });

  it('does not count a negated mention: "not made pursuant to a Rule 10b5-1 plan" is a discretionary trade (varied SNOW F2)', () => {
    const varied = vary(snow, F2, 'The sales reported in this Form 4 were not made pursuant to a Rule 10b5-1 trading plan.');
    const parsed = parseForm4(varied);
    expect(parsed).toMatchObject({ rule10b5One: false, rule10b5OneFrom: 'footnote' });
    expect(parsed.transactions.filter((t) => t.transactionCode === 'S').map((t) => t.rule10b5One)).toEqual([false, false, false, false, false]);
  });

  it("a line's own footnote naming a plan wins over the filing's checkbox (varied AIR F1, checkbox 0)", () => {
    const air = text(sample('sec_form4_AIR'));
    const varied = vary(air, 'within the range set forth in this footnote.</footnote>', 'within the range set forth in this footnote. The shares were sold pursuant to a Rule 10b5\u20111 trading plan adopted on May 1, 2024.</footnote>');
    const parsed = parseForm4(varied);
    expect(parsed).toMatchObject({ rule10b5One: false, rule10b5OneFrom: 'checkbox' });
    expect(parsed.transactions[0]).toMatchObject({ rule10b5One: true, isWeightedPrice: true });
  });

  it('reads a plan from the remarks (varied NCV remarks, schema X0202)', () => {
    const ncv = text(sample('sec_form4_NCV'));
    const varied = vary(ncv, 'who is invloved with the day-to-day portfolio management of the Issuer.</remarks>', 'who is invloved with the day-to-day portfolio management of the Issuer. The purchase was made under a 10b5-1 plan.</remarks>');
    const parsed = parseForm4(varied);
    expect(parsed).toMatchObject({ rule10b5One: true, rule10b5OneFrom: 'footnote' });
    expect(parsed.transactions[0].rule10b5One).toBe(true);
  });

  it.each([
    ['Sold pursuant to a Rule 10b5-1 trading plan.', 'yes'],
    ['Effected pursuant to a 10b5-1 plan adopted on March 3, 2023.', 'yes'],
    ['Made under a Rule 10b5\u20111 plan (non-breaking hyphen).', 'yes'],
    ['Made under a Rule 10b5\u20131 plan (en dash).', 'yes'],
    ['Pursuant to a trading plan intended to satisfy Rule 10b5-1(c).', 'yes'],
    ['Pursuant to a Rule 10b-5-1 plan.', 'yes'],
    ['Pursuant to a Rule 10(b)5-1 plan.', 'yes'],
    ['Pursuant to a 10b5-l plan (the letter l).', 'yes'],
    ['The sales were not made pursuant to a Rule 10b5-1 plan.', 'no'],
    ["The sale wasn't made under a 10b5-1 plan.", 'no'],
    ['These shares were sold outside of a 10b5-1 plan.', 'no'],
    ['The shares were not withheld for taxes. They were sold under a Rule 10b5-1 plan.', 'yes'],
    ['Sold under a 10b5-1 plan; other shares were not sold under a 10b5-1 plan.', 'yes'],
    ['Liability under Rule 10b-5 is disclaimed.', null],
    ['The sales were effected for financial and tax planning purposes.', null],
    ['See Rule 10b5-12 of a different regime.', null],
  ])('mentions10b5One(%j) is %j', (footnote, verdict) => {
    expect(mentions10b5One(footnote)).toBe(verdict);
  });
});

describe('cases built by varying a real document', () => {
  it('joint filers: a second reportingOwner block (copied from the same META document, other values) is read in order', () => {
    // No recorded filing has several owners. The second block is the first one copied with a
    // varied CIK, name and roles; the lines are counted once, under the first owner.
    const meta = text(sample('sec_form4_META'));
    const firstOwner = meta.slice(meta.indexOf('<reportingOwner>'), meta.indexOf('</reportingOwner>') + '</reportingOwner>'.length);
    const secondOwner = firstOwner
      .replace('<rptOwnerCik>0001548760</rptOwnerCik>', '<rptOwnerCik>1999999</rptOwnerCik>')
      .replace('<rptOwnerName>Zuckerberg Mark</rptOwnerName>', '<rptOwnerName>CZI Holdings, LLC (varied copy)</rptOwnerName>')
      .replace('<isDirector>1</isDirector>', '<isDirector>0</isDirector>')
      .replace('<isOfficer>1</isOfficer>', '<isOfficer>0</isOfficer>')
      .replace('<isOther>0</isOther>', '<isOther>1</isOther>')
      .replace('<officerTitle>COB and CEO</officerTitle>', '<officerTitle></officerTitle>')
      .replace('<otherText></otherText>', '<otherText>Controlled entity</otherText>');
    const varied = vary(meta, firstOwner, `${firstOwner}\n    ${secondOwner}`);
    const parsed = parseForm4(varied);
    expect(parsed.reportingOwners).toEqual([
      { cik: '0001548760', name: 'Zuckerberg Mark', isOfficer: true, isDirector: true, isTenPercentOwner: true, isOther: false, officerTitle: 'COB and CEO', otherText: null },
      { cik: '0001999999', name: 'CZI Holdings, LLC (varied copy)', isOfficer: false, isDirector: false, isTenPercentOwner: true, isOther: true, officerTitle: null, otherText: 'Controlled entity' },
    ]);
    expect(parsed.transactions).toHaveLength(2);
  });

  it('a value replaced by its footnote: price null, no total, the footnote id and text kept (varied AIR)', () => {
    const air = text(sample('sec_form4_AIR'));
    const varied = vary(air, '<value>66.903</value>\n                    <footnoteId id="F1"/>', '<footnoteId id="F1"/>');
    const [line] = parseForm4(varied).transactions;
    expect(line).toMatchObject({ pricePerShare: null, totalValue: null, isWeightedPrice: true, footnoteIds: ['F1'] });
    expect(line.priceFootnote).toMatch(/^The price reported in Column 4 is a weighted average price\./);
  });

  it('rounds the total half up to cents (varied AIR: 1 share at 0.125 -> 0.13)', () => {
    const air = text(sample('sec_form4_AIR'));
    const varied = vary(vary(air, '<value>1500</value>', '<value>1</value>'), '<value>66.903</value>', '<value>0.125</value>');
    expect(parseForm4(varied).transactions[0].totalValue).toBe('0.13');
  });

  it("an issuer without a ticker ('NONE', '' or 'N/A') has ticker null; a lower-case one is upper-cased (varied META)", () => {
    const meta = text(sample('sec_form4_META'));
    for (const symbol of ['NONE', '', 'N/A', 'none']) {
      expect(parseForm4(vary(meta, '<issuerTradingSymbol>META</issuerTradingSymbol>', `<issuerTradingSymbol>${symbol}</issuerTradingSymbol>`)).issuer.ticker).toBeNull();
    }
    expect(parseForm4(vary(meta, '<issuerTradingSymbol>META</issuerTradingSymbol>', '<issuerTradingSymbol>meta</issuerTradingSymbol>')).issuer.ticker).toBe('META');
  });

  it('decodes a Latin-1 Buffer and a UTF-8 Buffer alike, and numeric character references (varied AIR owner name)', () => {
    const air = text(sample('sec_form4_AIR'));
    const varied = vary(air, '<rptOwnerName>Garascia Jessica A.</rptOwnerName>', '<rptOwnerName>Garasc\u00eda Jessica A.</rptOwnerName>');
    expect(parseForm4(Buffer.from(varied, 'latin1')).reportingOwners[0].name).toBe('Garasc\u00eda Jessica A.');
    expect(parseForm4(Buffer.from(varied, 'utf8')).reportingOwners[0].name).toBe('Garasc\u00eda Jessica A.');
    const referenced = vary(air, '<officerTitle>Senior VP, GC, CAO &amp; Secretary</officerTitle>', '<officerTitle>Senior VP &#8211; GC&#x2019;s office</officerTitle>');
    expect(parseForm4(referenced).reportingOwners[0].officerTitle).toBe('Senior VP \u2013 GC\u2019s office');
    // Decoded once: an escaped reference stays a reference.
    const escaped = vary(air, '<officerTitle>Senior VP, GC, CAO &amp; Secretary</officerTitle>', '<officerTitle>A &amp;#8217; B &lt;C&gt;</officerTitle>');
    expect(parseForm4(escaped).reportingOwners[0].officerTitle).toBe('A &#8217; B <C>');
  });

  it('reads a Form 4/A in a full submission (varied IHT header and documentType)', () => {
    const iht = text(sample('sec_form4_IHT'));
    const amended = vary(
      vary(iht, 'CONFORMED SUBMISSION TYPE:\t4\n', 'CONFORMED SUBMISSION TYPE:\t4/A\n'),
      '<documentType>4</documentType>',
      '<documentType>4/A</documentType>\n\n    <dateOfOriginalSubmission>2025-09-26</dateOfOriginalSubmission>',
    );
    expect(parseForm4(amended)).toMatchObject({ formType: '4/A', dateOfOriginalSubmission: '2025-09-26', accessionNumber: '0001493152-25-015819' });
  });
});

describe('documents that are not a readable Form 4', () => {
  it('truncated: a full submission cut inside its XML', () => {
    const air = text(sample('sec_form4_AIR'));
    const cut = air.slice(0, air.indexOf('<transactionAmounts>'));
    expectFailure(cut, 'truncated', /cut off inside its XML document \(no <\/XML>\)/);
  });

  it('truncated: a full submission cut inside its SEC header, and an .nc file cut before its document', () => {
    const iht = text(sample('sec_form4_IHT'));
    expectFailure(iht.slice(0, iht.indexOf('ISSUER:')), 'truncated', /cut off inside its SEC header/);
    const tsvt = text(sample('sec_form4_TSVT'));
    expectFailure(tsvt.slice(0, tsvt.indexOf('<DOCUMENT>')), 'truncated', /cut off inside its header \(no <DOCUMENT>\)/);
  });

  it('truncated: bare XML cut in the middle', () => {
    const meta = text(sample('sec_form4_META'));
    expectFailure(meta.slice(0, Math.floor(meta.length / 2)), 'truncated', /ownershipDocument XML is cut off \(no closing <\/ownershipDocument>\)/);
  });

  it('not-form4: the Atom feed, the daily index, the tickers JSON', () => {
    expectFailure(text('sec_getcurrent_type4_atom_2025-12-12.xml'), 'not-form4', /the XML root is <feed>, not <ownershipDocument>/);
    expectFailure(text('sec_daily_form_index_form.20200318_excerpt.idx'), 'not-form4', /neither an EDGAR submission nor ownershipDocument XML \(starts with "Description:/);
    expectFailure(bytes('sec_company_tickers_first300.json'), 'not-form4', /not a Form 4/);
    expectFailure('', 'not-form4', /not a Form 4/);
  });

  it('not-form4: another form type in the header, or an ownershipDocument of another form (varied IHT and META)', () => {
    const iht = text(sample('sec_form4_IHT'));
    expectFailure(vary(iht, 'CONFORMED SUBMISSION TYPE:\t4\n', 'CONFORMED SUBMISSION TYPE:\t8-K\n'), 'not-form4', /the submission is a Form 8-K, not a Form 4/);
    const arw = text(sample('sec_form4_ARW'));
    expectFailure(vary(arw, '<TYPE>4\r', '<TYPE>3\r'), 'not-form4', /the submission is a Form 3, not a Form 4/);
    const meta = text(sample('sec_form4_META'));
    expectFailure(vary(meta, '<documentType>4</documentType>', '<documentType>5</documentType>'), 'not-form4', /the ownershipDocument is a Form 5, not a Form 4/);
  });

  it('malformed: a mismatched closing tag, a missing one, a stray one, a cut inside a tag, a number that is not one (varied META)', () => {
    const meta = text(sample('sec_form4_META'));
    // The XML parser (saxes) names the problem and where it is (line 94 of the file).
    expectFailure(
      vary(meta, '<transactionCode>G</transactionCode>', '<transactionCode>G</transactionCod>'),
      'malformed',
      /^the ownershipDocument XML is not well-formed: unexpected close tag\. \(line 94, column \d+ of the XML document\)$/,
    );
    expectFailure(vary(meta, '<value>By CZI Holdings, LLC</value>', '<value>By CZI Holdings, LLC'), 'malformed', /^the ownershipDocument XML is not well-formed: unexpected close tag\. \(line \d+, column \d+ of the XML document\)$/);
    expectFailure(
      vary(meta, '</issuer>', '</issuerName></issuer>'),
      'malformed',
      /^the ownershipDocument XML is not well-formed: unexpected close tag\. \(line 16, column \d+ of the XML document\)$/,
    );
    expectFailure(vary(meta, '<issuerTradingSymbol>META</issuerTradingSymbol>', '<issuerTradingSymbol META</issuerTradingSymbol>'), 'malformed', /^the ownershipDocument XML is not well-formed: /);
    expectFailure(vary(meta, '<value>242340</value>', '<value>12,5x</value>'), 'malformed', /^non-derivative line 1: transactionShares "12,5x" is not a number$/);
    expectFailure(vary(meta, '<value>2025-10-31</value>', '<value>31/10/2025</value>'), 'malformed', /^non-derivative line 1: transactionDate "31\/10\/2025" is not a date$/);
  });

  it('malformed: a stray "&" or an undefined entity in a text (the parser is strict XML) (varied META)', () => {
    // Before saxes, a hand-written check let a stray "&" through as text; a strict parser rejects it.
    const meta = text(sample('sec_form4_META'));
    expectFailure(vary(meta, '<issuerName>Meta Platforms, Inc.</issuerName>', '<issuerName>Meta & Platforms</issuerName>'), 'malformed', /^the ownershipDocument XML is not well-formed: /);
    expectFailure(
      vary(meta, '<issuerName>Meta Platforms, Inc.</issuerName>', '<issuerName>Meta &eacute; Platforms</issuerName>'),
      'malformed',
      /^the ownershipDocument XML is not well-formed: undefined entity\. \(line 14, column \d+ of the XML document\)$/,
    );
    // &nbsp; is declared to the parser: read as a space.
    expect(parseForm4(vary(meta, '<issuerName>Meta Platforms, Inc.</issuerName>', '<issuerName>Meta&nbsp;Platforms</issuerName>')).issuer.name).toBe('Meta Platforms');
  });

  it('missing-field: no issuerCik, no transactionDate value, no transactionCode (varied META)', () => {
    const meta = text(sample('sec_form4_META'));
    expectFailure(vary(meta, '<issuerCik>0001326801</issuerCik>', ''), 'missing-field', /^issuerCik is missing$/);
    const secondLine = meta.lastIndexOf('<transactionDate>');
    const withoutDate = meta.slice(0, secondLine) + meta.slice(secondLine).replace('<value>2025-10-31</value>', '');
    expectFailure(withoutDate, 'missing-field', /^non-derivative line 2: transactionDate is missing$/);
    expectFailure(vary(meta, '<transactionCode>C</transactionCode>', '<transactionCode></transactionCode>'), 'missing-field', /^non-derivative line 1: transactionCode is missing$/);
    const firstOwnerCik = '<rptOwnerCik>0001548760</rptOwnerCik>';
    expectFailure(vary(meta, firstOwnerCik, ''), 'missing-field', /^reportingOwner 1: rptOwnerCik is missing$/);
  });
});
