import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { parse as parseCsvStream } from 'csv-parse';
import { parse as parseCsvSync } from 'csv-parse/sync';
import { z } from 'zod';

/**
 * Parser for the CFTC Traders in Financial Futures (TFF) report, futures-only: the 87-column CSV
 * layout of the yearly `FinFutYY.txt` (inside `fut_fin_txt_YYYY.zip`), and the rows of the CFTC's
 * public reporting API (Socrata dataset gpe5-46if), both mapped to one shape, `CotRow`.
 *
 * Pure: text or already-decoded rows in, rows out. Quirks of the source handled here:
 * CRLF line endings, numbers padded with spaces, `.` for a suppressed value (NULL), a trailing
 * space in `CFTC_Market_Code`, market names that changed over time (instruments are keyed on
 * `CFTC_Contract_Market_Code`, never on the name).
 */

/** The 87 columns of the futures-only TFF CSV, in file order. */
export const TFF_COLUMNS = [
  'Market_and_Exchange_Names', 'As_of_Date_In_Form_YYMMDD', 'Report_Date_as_YYYY-MM-DD', 'CFTC_Contract_Market_Code',
  'CFTC_Market_Code', 'CFTC_Region_Code', 'CFTC_Commodity_Code', 'Open_Interest_All',
  'Dealer_Positions_Long_All', 'Dealer_Positions_Short_All', 'Dealer_Positions_Spread_All',
  'Asset_Mgr_Positions_Long_All', 'Asset_Mgr_Positions_Short_All', 'Asset_Mgr_Positions_Spread_All',
  'Lev_Money_Positions_Long_All', 'Lev_Money_Positions_Short_All', 'Lev_Money_Positions_Spread_All',
  'Other_Rept_Positions_Long_All', 'Other_Rept_Positions_Short_All', 'Other_Rept_Positions_Spread_All',
  'Tot_Rept_Positions_Long_All', 'Tot_Rept_Positions_Short_All', 'NonRept_Positions_Long_All', 'NonRept_Positions_Short_All',
  'Change_in_Open_Interest_All', 'Change_in_Dealer_Long_All', 'Change_in_Dealer_Short_All', 'Change_in_Dealer_Spread_All',
  'Change_in_Asset_Mgr_Long_All', 'Change_in_Asset_Mgr_Short_All', 'Change_in_Asset_Mgr_Spread_All',
  'Change_in_Lev_Money_Long_All', 'Change_in_Lev_Money_Short_All', 'Change_in_Lev_Money_Spread_All',
  'Change_in_Other_Rept_Long_All', 'Change_in_Other_Rept_Short_All', 'Change_in_Other_Rept_Spread_All',
  'Change_in_Tot_Rept_Long_All', 'Change_in_Tot_Rept_Short_All', 'Change_in_NonRept_Long_All', 'Change_in_NonRept_Short_All',
  'Pct_of_Open_Interest_All', 'Pct_of_OI_Dealer_Long_All', 'Pct_of_OI_Dealer_Short_All', 'Pct_of_OI_Dealer_Spread_All',
  'Pct_of_OI_Asset_Mgr_Long_All', 'Pct_of_OI_Asset_Mgr_Short_All', 'Pct_of_OI_Asset_Mgr_Spread_All',
  'Pct_of_OI_Lev_Money_Long_All', 'Pct_of_OI_Lev_Money_Short_All', 'Pct_of_OI_Lev_Money_Spread_All',
  'Pct_of_OI_Other_Rept_Long_All', 'Pct_of_OI_Other_Rept_Short_All', 'Pct_of_OI_Other_Rept_Spread_All',
  'Pct_of_OI_Tot_Rept_Long_All', 'Pct_of_OI_Tot_Rept_Short_All', 'Pct_of_OI_NonRept_Long_All', 'Pct_of_OI_NonRept_Short_All',
  'Traders_Tot_All', 'Traders_Dealer_Long_All', 'Traders_Dealer_Short_All', 'Traders_Dealer_Spread_All',
  'Traders_Asset_Mgr_Long_All', 'Traders_Asset_Mgr_Short_All', 'Traders_Asset_Mgr_Spread_All',
  'Traders_Lev_Money_Long_All', 'Traders_Lev_Money_Short_All', 'Traders_Lev_Money_Spread_All',
  'Traders_Other_Rept_Long_All', 'Traders_Other_Rept_Short_All', 'Traders_Other_Rept_Spread_All',
  'Traders_Tot_Rept_Long_All', 'Traders_Tot_Rept_Short_All',
  'Conc_Gross_LE_4_TDR_Long_All', 'Conc_Gross_LE_4_TDR_Short_All', 'Conc_Gross_LE_8_TDR_Long_All', 'Conc_Gross_LE_8_TDR_Short_All',
  'Conc_Net_LE_4_TDR_Long_All', 'Conc_Net_LE_4_TDR_Short_All', 'Conc_Net_LE_8_TDR_Long_All', 'Conc_Net_LE_8_TDR_Short_All',
  'Contract_Units', 'CFTC_Contract_Market_Code_Quotes', 'CFTC_Market_Code_Quotes', 'CFTC_Commodity_Code_Quotes',
  'CFTC_SubGroup_Code', 'FutOnly_or_Combined',
] as const;

export type TffColumn = (typeof TFF_COLUMNS)[number];

export const COT_GROUPS = ['dealer', 'assetManager', 'leveraged', 'other'] as const;
export type CotGroup = (typeof COT_GROUPS)[number];
const SIDES = ['Long', 'Short', 'Spreading'] as const;
type Side = (typeof SIDES)[number];
type NonReportableSide = 'Long' | 'Short';

type CountField = `${CotGroup}${Side}` | `nonReportable${NonReportableSide}` | 'openInterest';
type ChangeField = `${CotGroup}${Side}Change` | `nonReportable${NonReportableSide}Change`;
type PercentField = `${CotGroup}${Side}Percent` | `nonReportable${NonReportableSide}Percent`;
type TradersField = `${CotGroup}${Side}Traders` | 'totalTraders';

/** One instrument's positions in one report, keyed like the cot_positions columns. */
export type CotPositionValues = Record<CountField, number> &
  Record<ChangeField, number | null> &
  Record<PercentField, string | null> &
  Record<TradersField, number | null>;

export type CotPositionField = keyof CotPositionValues;

export interface CotRow {
  /** The Tuesday the positions are as of, YYYY-MM-DD. */
  reportDate: string;
  /** CFTC_Contract_Market_Code, trimmed: the instrument's identity across renames. */
  cftcCode: string;
  /** The name as printed in this row (it changes over the years). */
  marketAndExchangeName: string;
  position: CotPositionValues;
  /** Every other reported column (totals, concentration ratios, codes, units), trimmed, `.` as null. */
  extras: Partial<Record<TffColumn, string | null>>;
}

type FieldKind = 'count' | 'change' | 'percent' | 'traders';
interface FieldSpec {
  field: CotPositionField;
  column: TffColumn;
  kind: FieldKind;
}

const CSV_GROUP: Record<CotGroup, string> = { dealer: 'Dealer', assetManager: 'Asset_Mgr', leveraged: 'Lev_Money', other: 'Other_Rept' };
const CSV_SIDE: Record<Side, string> = { Long: 'Long', Short: 'Short', Spreading: 'Spread' };

function column(name: string): TffColumn {
  if (!(TFF_COLUMNS as readonly string[]).includes(name)) throw new Error(`not a TFF column: ${name}`);
  return name as TffColumn;
}

/** Which CSV column fills which cot_positions column. */
export const POSITION_FIELDS: FieldSpec[] = (() => {
  const specs: FieldSpec[] = [{ field: 'openInterest', column: 'Open_Interest_All', kind: 'count' }];
  for (const group of COT_GROUPS) {
    const g = CSV_GROUP[group];
    for (const side of SIDES) {
      const s = CSV_SIDE[side];
      specs.push(
        { field: `${group}${side}`, column: column(`${g}_Positions_${s}_All`), kind: 'count' },
        { field: `${group}${side}Change`, column: column(`Change_in_${g}_${s}_All`), kind: 'change' },
        { field: `${group}${side}Percent`, column: column(`Pct_of_OI_${g}_${s}_All`), kind: 'percent' },
        { field: `${group}${side}Traders`, column: column(`Traders_${g}_${s}_All`), kind: 'traders' },
      );
    }
  }
  for (const side of ['Long', 'Short'] as const) {
    specs.push(
      { field: `nonReportable${side}`, column: column(`NonRept_Positions_${side}_All`), kind: 'count' },
      { field: `nonReportable${side}Change`, column: column(`Change_in_NonRept_${side}_All`), kind: 'change' },
      { field: `nonReportable${side}Percent`, column: column(`Pct_of_OI_NonRept_${side}_All`), kind: 'percent' },
    );
  }
  specs.push({ field: 'totalTraders', column: 'Traders_Tot_All', kind: 'traders' });
  return specs;
})();

const KEY_COLUMNS: TffColumn[] = ['Report_Date_as_YYYY-MM-DD', 'CFTC_Contract_Market_Code', 'Market_and_Exchange_Names'];
const POSITION_COLUMNS = new Set<TffColumn>(POSITION_FIELDS.map((f) => f.column));
const EXTRA_COLUMNS = TFF_COLUMNS.filter((c) => !POSITION_COLUMNS.has(c) && c !== 'CFTC_Contract_Market_Code' && c !== 'Report_Date_as_YYYY-MM-DD');
/** Columns a file must have to be read as TFF futures-only. */
export const REQUIRED_COLUMNS: TffColumn[] = [...KEY_COLUMNS, ...POSITION_FIELDS.filter((f) => f.kind === 'count').map((f) => f.column)];

/** A row or file that is not what the CFTC publishes: permanent, never worth retrying. */
export class CotParseError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    readonly column?: string,
  ) {
    super(line === undefined ? message : `line ${line}${column ? `, ${column}` : ''}: ${message}`);
    this.name = 'CotParseError';
  }
}

const INTEGER = /^[+-]?\d+$/;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** '' and '.' (the CFTC's mark for a suppressed value) are null; everything else is trimmed. */
function clean(value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const trimmed = value.trim();
  return trimmed === '' || trimmed === '.' ? null : trimmed;
}

function toInteger(value: string | null, line: number | undefined, col: string): number | null {
  if (value === null) return null;
  if (!INTEGER.test(value)) throw new CotParseError(`"${value}" is not a whole number`, line, col);
  const n = Number(value);
  if (!Number.isSafeInteger(n) || Math.abs(n) > 2147483647) throw new CotParseError(`${value} is out of range`, line, col);
  return n;
}

function toPercent(value: string | null, line: number | undefined, col: string): string | null {
  if (value === null) return null;
  if (!DECIMAL.test(value)) throw new CotParseError(`"${value}" is not a number`, line, col);
  const n = Number(value);
  if (Math.abs(n) >= 1000) throw new CotParseError(`${value} is out of range for a percent`, line, col);
  // Canonical form without the padding: '8.5' stays '8.5', '+.5' becomes '0.5'.
  return String(n);
}

function toReportDate(record: Partial<Record<TffColumn, string | null>>, line: number | undefined): string {
  const raw = clean(record['Report_Date_as_YYYY-MM-DD']);
  if (raw !== null) {
    // The CSV has '2022-08-16', the API '2022-08-16T00:00:00.000'.
    const m = /^(\d{4})-(\d{2})-(\d{2})(T00:00:00(\.0+)?Z?)?$/.exec(raw);
    if (!m || !validDate(+m[1], +m[2], +m[3])) throw new CotParseError(`"${raw}" is not a report date`, line, 'Report_Date_as_YYYY-MM-DD');
    return `${m[1]}-${m[2]}-${m[3]}`;
  }
  const yymmdd = clean(record.As_of_Date_In_Form_YYMMDD);
  const m = yymmdd === null ? null : /^(\d{2})(\d{2})(\d{2})$/.exec(yymmdd);
  if (!m) throw new CotParseError('no report date', line, 'Report_Date_as_YYYY-MM-DD');
  // The TFF series starts in 2006: two-digit years are all 20YY.
  const year = 2000 + Number(m[1]);
  if (!validDate(year, +m[2], +m[3])) throw new CotParseError(`"${yymmdd}" is not a report date`, line, 'As_of_Date_In_Form_YYMMDD');
  return `${year}-${m[2]}-${m[3]}`;
}

function validDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Maps one record (values keyed by CSV column name, still padded) to a CotRow. */
export function toCotRow(record: Partial<Record<TffColumn, string | null>>, line?: number): CotRow {
  const kind = clean(record.FutOnly_or_Combined);
  if (kind !== null && kind.toLowerCase() !== 'futonly') {
    throw new CotParseError(`a "${kind}" row: only the futures-only report is read`, line, 'FutOnly_or_Combined');
  }
  const cftcCode = clean(record.CFTC_Contract_Market_Code);
  if (cftcCode === null) throw new CotParseError('no contract market code', line, 'CFTC_Contract_Market_Code');
  if (cftcCode.length > 20) throw new CotParseError(`"${cftcCode}" is not a contract market code`, line, 'CFTC_Contract_Market_Code');
  const name = clean(record.Market_and_Exchange_Names);
  if (name === null) throw new CotParseError('no market name', line, 'Market_and_Exchange_Names');

  const position: Record<string, number | string | null> = {};
  for (const spec of POSITION_FIELDS) {
    const value = clean(record[spec.column]);
    if (spec.kind === 'percent') {
      position[spec.field] = toPercent(value, line, spec.column);
      continue;
    }
    const n = toInteger(value, line, spec.column);
    // Position counts are never suppressed by the CFTC (only trader counts are); a file that
    // does so is not one we understand, and storing 0 would be a lie.
    if (n === null && spec.kind === 'count') throw new CotParseError('missing or suppressed position count', line, spec.column);
    position[spec.field] = n;
  }

  const extras: Partial<Record<TffColumn, string | null>> = {};
  for (const col of EXTRA_COLUMNS) {
    if (col in record) extras[col] = clean(record[col]);
  }
  return {
    reportDate: toReportDate(record, line),
    cftcCode,
    marketAndExchangeName: name,
    position: position as CotPositionValues,
    extras,
  };
}

function headerIndex(header: string[]): Map<TffColumn, number> {
  const index = new Map<TffColumn, number>();
  header.forEach((name, i) => {
    const trimmed = name.trim();
    if ((TFF_COLUMNS as readonly string[]).includes(trimmed)) index.set(trimmed as TffColumn, i);
  });
  const missing = REQUIRED_COLUMNS.filter((c) => !index.has(c));
  if (missing.length) {
    throw new CotParseError(`not a TFF futures-only file: missing column(s) ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''}`, 1);
  }
  return index;
}

function recordOf(values: string[], index: Map<TffColumn, number>): Partial<Record<TffColumn, string>> {
  const record: Partial<Record<TffColumn, string>> = {};
  for (const [col, i] of index) record[col] = values[i];
  return record;
}

/**
 * `info`: each record comes with `info.lines`, the line it ends on (its own line: TFF rows are one
 * line each). `relax_column_count`: a row of the wrong length reaches TffRecords, which names it
 * (and tells a last line cut short from a short row).
 */
const CSV_OPTIONS = { bom: true, skip_empty_lines: true, relax_quotes: true, relax_column_count: true, info: true } as const;

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

/** How the input ended: whether its last line was cut (published files end every line with CRLF). */
interface InputEnd {
  /** Lines in the input, the last one counted even without its line break. */
  lines: number;
  /** The last byte is `\n`: the last line is complete. */
  endsWithNewline: boolean;
  /** The last byte is `\r`: the input stops between the CR and LF of a line break. */
  endsWithCr: boolean;
}

/** Counts the lines of an input and remembers its last byte, chunk by chunk. */
class LineCounter {
  private newlines = 0;
  private last: number | undefined;

  add(chunk: Buffer): void {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) this.newlines++;
    if (chunk.length) this.last = chunk[chunk.length - 1];
  }

  get inputEnd(): InputEnd {
    return {
      lines: this.newlines + (this.last === undefined || this.last === 10 ? 0 : 1),
      endsWithNewline: this.last === 10,
      endsWithCr: this.last === 13,
    };
  }
}

/** Passes the input through to the parser, counting its lines. */
class LineCountingStream extends Transform {
  readonly counter = new LineCounter();
  ended = false;

  override _transform(chunk: Buffer | string, _encoding: BufferEncoding, done: TransformCallback): void {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    this.counter.add(buffer);
    done(null, buffer);
  }

  override _flush(done: TransformCallback): void {
    this.ended = true;
    done();
  }
}

function truncated(line: number): CotParseError {
  return new CotParseError('the file ends in the middle of this line: it is truncated (an interrupted download or copy?)', line);
}

/**
 * The records of a TFF CSV, header first, turned into rows. The last record is held back until
 * the end of the input is known: a last line without its line break is either a file saved without
 * a final newline (read as usual) or a file cut in the middle of that line, which is reported as
 * truncated rather than by what the cut left (a missing report type, a short row).
 */
class TffRecords {
  private index: Map<TffColumn, number> | undefined;
  private columns = 0;
  private held: CsvRecord | undefined;

  /** The row of the record before this one (none for the header). */
  *add(item: CsvRecord): Generator<CotRow> {
    if (!this.index) {
      this.index = headerIndex(item.record);
      this.columns = item.record.length;
      return;
    }
    if (this.held) yield this.row(this.held, null);
    this.held = item;
  }

  /** The held last row, once the input has ended. */
  *finish(end: InputEnd): Generator<CotRow> {
    if (!this.index) throw new CotParseError('empty file');
    if (this.held) yield this.row(this.held, end);
  }

  /** `end`: given for the last record only. */
  private row(item: CsvRecord, end: InputEnd | null): CotRow {
    const { record: values, info } = item;
    if (end && !end.endsWithNewline) {
      // The last line without its line break: cut short (too few values), right after a delimiter
      // (the last value empty), or between the CR and LF of the line break. Else a complete line
      // of a file saved without a final newline.
      if (values.length < this.columns || end.endsWithCr || (values[values.length - 1] ?? '').trim() === '') throw truncated(info.lines);
    }
    if (values.length !== this.columns) throw new CotParseError(`${values.length} values where the header has ${this.columns}`, info.lines);
    return toCotRow(recordOf(values, this.index!), info.lines);
  }

  /** csv-parse's errors as bad data, naming one line; on the last line of an input cut short, as truncated. */
  csvError(error: unknown, end: InputEnd | null): unknown {
    if (!(error instanceof Error && 'code' in error && String(error.code).startsWith('CSV_'))) return error;
    const { code, lines } = error as Error & { code: string; lines?: number };
    const line = typeof lines === 'number' ? lines : undefined;
    if (end && !end.endsWithNewline && line !== undefined && line >= end.lines) return truncated(line);
    switch (code) {
      case 'CSV_QUOTE_NOT_CLOSED':
        return new CotParseError('the file ends inside a quoted value: a quote is never closed', line);
      default:
        // csv-parse's own wording ends with "on line N" / "at line N": the line is named once, in front.
        return new CotParseError(`not a valid CSV file: ${error.message.replace(/,? (on|at) line \d+\b/g, '')}`, line);
    }
  }
}

/** Parses a whole TFF futures-only CSV (the content of FinFutYY.txt). */
export function parseTffCsv(text: string | Buffer): CotRow[] {
  const reader = new TffRecords();
  const counter = new LineCounter();
  counter.add(typeof text === 'string' ? Buffer.from(text) : text);
  const end = counter.inputEnd;
  let records: CsvRecord[];
  try {
    records = parseCsvSync(text, CSV_OPTIONS) as unknown as CsvRecord[];
  } catch (error) {
    throw reader.csvError(error, end);
  }
  const rows: CotRow[] = [];
  for (const item of records) rows.push(...reader.add(item));
  rows.push(...reader.finish(end));
  return rows;
}

/** The same, streamed: for large files (20 years of every instrument) without holding the text. */
export async function* parseTffCsvStream(input: Readable): AsyncGenerator<CotRow> {
  const lines = new LineCountingStream();
  const parser = input.pipe(lines).pipe(parseCsvStream(CSV_OPTIONS));
  input.on('error', (error) => parser.destroy(error));
  const reader = new TffRecords();
  try {
    for await (const item of parser as AsyncIterable<CsvRecord>) yield* reader.add(item);
  } catch (error) {
    // Only an error at the end of the input can be on its last line.
    throw reader.csvError(error, lines.ended ? lines.counter.inputEnd : null);
  }
  yield* reader.finish(lines.counter.inputEnd);
}

/**
 * The API's field name(s) for a CSV column: lowercase, `-` as `_`; the API drops the `_all`
 * suffix on some fields (e.g. `asset_mgr_positions_long`, `traders_other_rept_short`, while
 * `dealer_positions_long_all` keeps it), so both spellings are looked up.
 */
export function socrataFieldNames(col: TffColumn): string[] {
  const base = col.toLowerCase().replace(/-/g, '_');
  return base.endsWith('_all') ? [base, base.slice(0, -'_all'.length)] : [base];
}

const socrataRowSchema = z.record(z.string(), z.union([z.string(), z.number(), z.null()]));

/** Rows of the CFTC public reporting API (JSON array of objects, values as strings). */
export function parseSocrataRows(rows: unknown): CotRow[] {
  const parsed = z.array(socrataRowSchema).safeParse(rows);
  if (!parsed.success) throw new CotParseError(`not a list of report rows: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  return parsed.data.map((row, i) => {
    const record: Partial<Record<TffColumn, string | null>> = {};
    for (const col of TFF_COLUMNS) {
      for (const key of socrataFieldNames(col)) {
        const value = row[key];
        if (value !== undefined) {
          record[col] = value === null ? null : String(value);
          break;
        }
      }
    }
    for (const col of REQUIRED_COLUMNS) {
      if (!(col in record)) throw new CotParseError(`row ${i + 1}: missing field ${socrataFieldNames(col).join(' / ')}`);
    }
    return toCotRow(record, undefined);
  });
}
