import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse/sync';
import { asApiRow } from './api-rows';
import { CotParseError, TFF_COLUMNS, parseSocrataRows, parseTffCsv, parseTffCsvStream, type CotRow } from '../../src/cot/cftc.parse';

const SAMPLE = join(__dirname, '../fixtures/cot/cftc_tff_futures_only_2022_sample.csv');
const text = readFileSync(SAMPLE);

function find(rows: CotRow[], code: string, date: string): CotRow {
  const row = rows.find((r) => r.cftcCode === code && r.reportDate === date);
  if (!row) throw new Error(`no row ${code} ${date}`);
  return row;
}

describe('cftc.parse: the TFF futures-only CSV (real 2022 sample)', () => {
  const rows = parseTffCsv(text);

  it('reads every data row of the file, CRLF and all', () => {
    expect(text.includes('\r\n')).toBe(true);
    expect(rows).toHaveLength(132);
    expect(new Set(rows.map((r) => r.cftcCode))).toEqual(new Set(['099741', '13874A', '043602', '133741']));
  });

  it('reads Euro FX of 2022-08-16 exactly as printed (values checked by hand against the file)', () => {
    const row = find(rows, '099741', '2022-08-16');
    expect(row.marketAndExchangeName).toBe('EURO FX - CHICAGO MERCANTILE EXCHANGE');
    expect(row.position).toMatchObject({
      openInterest: 698570,
      dealerLong: 59450, dealerShort: 297836, dealerSpreading: 4996,
      assetManagerLong: 384008, assetManagerShort: 177485, assetManagerSpreading: 28848,
      leveragedLong: 70967, leveragedShort: 93137, leveragedSpreading: 19728,
      otherLong: 45847, otherShort: 13682, otherSpreading: 5137,
      nonReportableLong: 79589, nonReportableShort: 57721,
      dealerLongChange: 4486, dealerShortChange: -3367, dealerSpreadingChange: -436,
      assetManagerLongChange: 2775, assetManagerShortChange: 7641, assetManagerSpreadingChange: -631,
      leveragedLongChange: -1812, leveragedShortChange: 3750, leveragedSpreadingChange: 349,
      otherLongChange: 856, otherShortChange: 15, otherSpreadingChange: -60,
      nonReportableLongChange: 645, nonReportableShortChange: -1089,
      dealerLongPercent: '8.5', dealerShortPercent: '42.6', dealerSpreadingPercent: '0.7',
      assetManagerLongPercent: '55', assetManagerShortPercent: '25.4', assetManagerSpreadingPercent: '4.1',
      leveragedLongPercent: '10.2', leveragedShortPercent: '13.3', leveragedSpreadingPercent: '2.8',
      otherLongPercent: '6.6', otherShortPercent: '2', otherSpreadingPercent: '0.7',
      nonReportableLongPercent: '11.4', nonReportableShortPercent: '8.3',
      totalTraders: 331,
      dealerLongTraders: 19, dealerShortTraders: 11, dealerSpreadingTraders: 9,
      assetManagerLongTraders: 103, assetManagerShortTraders: 46, assetManagerSpreadingTraders: 47,
      leveragedLongTraders: 43, leveragedShortTraders: 54, leveragedSpreadingTraders: 24,
      otherLongTraders: 38, otherShortTraders: 17, otherSpreadingTraders: 11,
    });
  });

  it('keeps the columns cot_positions does not hold, trimmed (the market code loses its trailing space)', () => {
    const row = find(rows, '099741', '2022-08-16');
    expect(row.extras).toMatchObject({
      CFTC_Market_Code: 'CME',
      CFTC_Commodity_Code: '099',
      Tot_Rept_Positions_Long_All: '618981',
      Tot_Rept_Positions_Short_All: '640849',
      Conc_Gross_LE_4_TDR_Long_All: '14.6',
      Conc_Net_LE_8_TDR_Short_All: '52.0',
      Contract_Units: '(CONTRACTS OF EUR 125,000)',
      CFTC_SubGroup_Code: 'F10',
      FutOnly_or_Combined: 'FutOnly',
    });
  });

  it('reads a suppressed value "." as null (E-mini S&P 500 of 2022-01-04, other reportables spreading traders)', () => {
    const row = find(rows, '13874A', '2022-01-04');
    expect(row.position.otherSpreadingTraders).toBeNull();
    expect(row.position).toMatchObject({ totalTraders: 493, otherLongTraders: 38, otherShortTraders: 24, otherSpreading: 2877 });
  });

  it('reads Bitcoin of 2022-08-16 with its several suppressed trader counts', () => {
    const row = find(rows, '133741', '2022-08-16');
    expect(row.position).toMatchObject({
      openInterest: 12423,
      dealerLong: 113, dealerShort: 1819, dealerSpreading: 0, dealerSpreadingPercent: '0',
      dealerLongTraders: null, dealerShortTraders: 4, dealerSpreadingTraders: 0,
      assetManagerLongTraders: 6, assetManagerShortTraders: 7, assetManagerSpreadingTraders: null,
      otherLongTraders: 8, otherShortTraders: 7, otherSpreadingTraders: null,
      totalTraders: 91,
    });
  });

  it('keys the renamed E-mini S&P 500 on its contract code: both names, one code', () => {
    const es = rows.filter((r) => r.cftcCode === '13874A');
    expect(es).toHaveLength(33);
    expect(new Set(es.map((r) => r.marketAndExchangeName))).toEqual(
      new Set(['E-MINI S&P 500 STOCK INDEX - CHICAGO MERCANTILE EXCHANGE', 'E-MINI S&P 500 - CHICAGO MERCANTILE EXCHANGE']),
    );
    expect(find(rows, '13874A', '2022-02-01').marketAndExchangeName).toBe('E-MINI S&P 500 STOCK INDEX - CHICAGO MERCANTILE EXCHANGE');
    expect(find(rows, '13874A', '2022-02-08').marketAndExchangeName).toBe('E-MINI S&P 500 - CHICAGO MERCANTILE EXCHANGE');
    expect(find(rows, '043602', '2022-01-04').marketAndExchangeName).toBe('10-YEAR U.S. TREASURY NOTES - CHICAGO BOARD OF TRADE');
    expect(find(rows, '043602', '2022-08-16').marketAndExchangeName).toBe('UST 10Y NOTE - CHICAGO BOARD OF TRADE');
  });

  it('streams the same rows as the whole-file parse', async () => {
    const streamed: CotRow[] = [];
    for await (const row of parseTffCsvStream(Readable.from([text.subarray(0, 5000), text.subarray(5000)]))) streamed.push(row);
    expect(streamed).toEqual(rows);
  });

  it('rejects a file that is not the TFF layout, naming the missing columns', () => {
    expect(() => parseTffCsv('a,b,c\r\n1,2,3\r\n')).toThrow(/not a TFF futures-only file: missing column\(s\) Report_Date_as_YYYY-MM-DD/);
  });

  it('rejects a row whose number is not a number, naming line and column', () => {
    const lines = text.toString('utf8').split('\r\n');
    lines[1] = lines[1].replace('  698570', '  69x570');
    expect(() => parseTffCsv(lines.slice(0, 2).join('\r\n'))).toThrow(new CotParseError('"69x570" is not a whole number', 2, 'Open_Interest_All'));
  });

  it('rejects a suppressed position count rather than storing a made-up 0', () => {
    const lines = text.toString('utf8').split('\r\n');
    lines[1] = lines[1].replace('  698570', '.');
    expect(() => parseTffCsv(lines.slice(0, 2).join('\r\n'))).toThrow(/line 2, Open_Interest_All: missing or suppressed position count/);
  });

  it('rejects a futures-and-options (Combined) row', () => {
    const lines = text.toString('utf8').split('\r\n');
    lines[1] = lines[1].replace('"FutOnly"', '"Combined"');
    expect(() => parseTffCsv(lines.slice(0, 2).join('\r\n'))).toThrow(/only the futures-only report is read/);
  });
});

describe('cftc.parse: rows of the CFTC public reporting API', () => {
  const records = parse(text, { columns: true, bom: true }) as Record<string, string>[];
  const csvRows = parseTffCsv(text);

  it('has the 87 columns the parser knows', () => {
    expect(Object.keys(records[0])).toEqual([...TFF_COLUMNS]);
  });

  it('maps renamed API rows to exactly the positions of the CSV rows', () => {
    const api = parseSocrataRows(records.map(asApiRow));
    expect(api).toHaveLength(csvRows.length);
    api.forEach((row, i) => {
      expect(row.reportDate).toBe(csvRows[i].reportDate);
      expect(row.cftcCode).toBe(csvRows[i].cftcCode);
      expect(row.marketAndExchangeName).toBe(csvRows[i].marketAndExchangeName);
      expect(row.position).toEqual(csvRows[i].position);
    });
  });

  it('reads the API date form and a left-out suppressed value as null (Bitcoin, 2022-08-16)', () => {
    const btc = records.find((r) => r.CFTC_Contract_Market_Code === '133741' && r['Report_Date_as_YYYY-MM-DD'] === '2022-08-16')!;
    const apiRow = asApiRow(btc);
    expect(apiRow.report_date_as_yyyy_mm_dd).toBe('2022-08-16T00:00:00.000');
    expect(apiRow.traders_dealer_long_all).toBeUndefined();
    expect(apiRow.lev_money_positions_long).toBe('1673');
    const [row] = parseSocrataRows([apiRow]);
    expect(row.reportDate).toBe('2022-08-16');
    expect(row.position).toMatchObject({ leveragedLong: 1673, leveragedShort: 6270, dealerLongTraders: null, dealerShortTraders: 4 });
  });

  it('rejects an answer that is not a list of rows, or a row without its positions', () => {
    expect(() => parseSocrataRows({ error: 'query failed' })).toThrow(CotParseError);
    const row = asApiRow(records[0]);
    delete row.open_interest_all;
    expect(() => parseSocrataRows([row])).toThrow(/missing field open_interest_all/);
  });
});

describe('cftc.parse: streamed CSV errors', () => {
  it('reports a broken CSV (unterminated quote) as bad data with its line', async () => {
    const text = readFileSync(SAMPLE).toString('utf8').split('\r\n').slice(0, 3);
    text[2] = `"EURO FX - CHICAGO MERCANTILE EXCHANGE,${text[2].split(',').slice(1).join(',')}`;
    const read = async () => {
      for await (const row of parseTffCsvStream(Readable.from([text.join('\r\n')]))) void row;
    };
    await expect(read()).rejects.toThrow(CotParseError);
  });
});

describe('cftc.parse: files cut short or malformed (variations of the real 2022 sample)', () => {
  const lines = readFileSync(SAMPLE).toString('latin1').split('\r\n');
  const header = lines[0];
  /** The header and the first `complete` rows, each with its CRLF, then `tail` as it is. */
  const file = (complete: number, tail = '') => `${lines.slice(0, complete + 1).join('\r\n')}\r\n${tail}`;
  const both = async (content: string): Promise<{ sync: unknown; stream: unknown }> => {
    let sync: unknown;
    let stream: unknown;
    try {
      sync = parseTffCsv(content).length;
    } catch (error) {
      sync = error;
    }
    try {
      let n = 0;
      // Two chunks, the cut inside the stream as in a real read.
      const buffer = Buffer.from(content, 'latin1');
      for await (const row of parseTffCsvStream(Readable.from([buffer.subarray(0, 1000), buffer.subarray(1000)]))) void (row && n++);
      stream = n;
    } catch (error) {
      stream = error;
    }
    return { sync, stream };
  };
  const message = (error: unknown) => (error instanceof CotParseError ? error.message : `not a CotParseError: ${String(error)}`);

  it('a header and no rows is read as no rows (the CLI refuses to import nothing)', async () => {
    expect(await both(`${header}\r\n`)).toEqual({ sync: 0, stream: 0 });
    expect(await both(header)).toEqual({ sync: 0, stream: 0 });
  });

  it('a file cut anywhere inside its last line is reported as truncated at that line, never as a bad report type or a short row', async () => {
    const last = `${lines[3]}\r\n`;
    const seen = new Set<string>();
    // Every cut next to a delimiter or a quote, and every 10th character in between.
    const cuts = [...Array(last.length).keys()].filter((cut) => cut > 0 && (cut % 10 === 0 || /[,"]/.test(last[cut - 1] + last[cut]) || cut >= lines[3].length - 1));
    for (const cut of cuts) {
      const { sync, stream } = await both(file(2, last.slice(0, cut)));
      if (cut === lines[3].length) {
        // The whole line without its line break: a file saved without a final newline, read in full.
        expect({ sync, stream }).toEqual({ sync: 3, stream: 3 });
        continue;
      }
      seen.add(message(sync));
      expect(message(stream)).toBe(message(sync));
    }
    expect([...seen]).toEqual(['line 4: the file ends in the middle of this line: it is truncated (an interrupted download or copy?)']);
  });

  it('cut between the CR and the LF of the last line: truncated (it blamed the report type, \'a ""FutOnly"" row\')', async () => {
    const { sync, stream } = await both(file(2, `${lines[3]}\r`));
    expect(message(sync)).toBe('line 4: the file ends in the middle of this line: it is truncated (an interrupted download or copy?)');
    expect(message(stream)).toBe(message(sync));
  });

  it('a row of the wrong length names its one line and both counts', async () => {
    const short = lines[3].split(',').slice(0, 60).join(',');
    const long = `${lines[3]},"F85"`;
    for (const [row, expected] of [
      [short, 'line 4: 60 values where the header has 87'],
      [long, 'line 4: 88 values where the header has 87'],
    ]) {
      const { sync, stream } = await both(`${file(2, `${row}\r\n`)}${lines.slice(4).join('\r\n')}`);
      expect(message(sync)).toBe(expected);
      expect(message(stream)).toBe(expected);
    }
  });

  it('rows after blank lines keep their own line numbers', async () => {
    const lines2 = lines.slice(0, 4);
    lines2[3] = lines2[3].replace('"FutOnly"', '"Combined"');
    const { sync, stream } = await both(`${lines2[0]}\r\n${lines2[1]}\r\n\r\n${lines2[2]}\r\n${lines2[3]}\r\n`);
    expect(message(sync)).toMatch(/^line 5, FutOnly_or_Combined: /);
    expect(message(stream)).toBe(message(sync));
  });
});
