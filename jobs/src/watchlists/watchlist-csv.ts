import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';

/** The largest CSV a watchlist import accepts (bytes of UTF-8). */
export const WATCHLIST_CSV_MAX_BYTES = 256 * 1024;

/** The export's columns, in order; an import reads only `symbol`. */
export const WATCHLIST_CSV_COLUMNS = ['symbol', 'name', 'type'] as const;

export interface WatchlistCsvRow {
  symbol: string;
  name: string;
  type: string;
}

/** A symbol as read from an import file, with the line it ends on (1-based). */
export interface WatchlistCsvSymbol {
  symbol: string;
  line: number;
}

export interface ParsedWatchlistCsv {
  /** Each symbol once (compared case-insensitively), in the order of its first occurrence. */
  symbols: WatchlistCsvSymbol[];
  /** Rows naming a symbol already named above them in the file. */
  duplicates: number;
}

/** The file cannot be read as a watchlist (bad CSV, no symbol column). Nothing is written. */
export class WatchlistCsvError extends Error {
  constructor(
    readonly code: 'invalid_csv' | 'missing_symbol_column' | 'empty_csv',
    message: string,
    readonly line?: number,
  ) {
    super(message);
    this.name = 'WatchlistCsvError';
  }
}

/**
 * A text cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first) gets a leading
 * apostrophe, which spreadsheets show as text (OWASP "CSV injection"). Symbols are left as they
 * are: they are validated market symbols and must survive an export -> import round trip.
 */
export function neutralizeCsvFormula(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** `symbol,name,type` with a header, one row per item in list order, LF line ends. */
export function watchlistToCsv(rows: readonly WatchlistCsvRow[]): string {
  return stringify(
    rows.map((r) => [r.symbol, neutralizeCsvFormula(r.name), neutralizeCsvFormula(r.type)]),
    { header: true, columns: [...WATCHLIST_CSV_COLUMNS] },
  );
}

interface CsvRecord {
  record: string[];
  info: { lines: number };
}

/**
 * Reads the symbols of an import file. The first row is a header when one of its cells is
 * `symbol` (any case): that column is read and the others ignored. Without such a header, the
 * file must be a single column of symbols, since guessing which of several columns holds them
 * would import the wrong thing silently. Blank rows and blank symbol cells are skipped.
 */
export function parseWatchlistCsv(text: string): ParsedWatchlistCsv {
  let records: CsvRecord[];
  try {
    // With `info`, csv-parse returns { record, info } per row; its types do not model the option.
    records = parse(text, { bom: true, info: true, relax_column_count: true, skip_empty_lines: true, trim: true }) as unknown as CsvRecord[];
  } catch (error) {
    const line = (error as { lines?: unknown }).lines;
    throw new WatchlistCsvError('invalid_csv', `The file is not valid CSV: ${(error as Error).message}`, typeof line === 'number' ? line : undefined);
  }
  if (!records.length) throw new WatchlistCsvError('empty_csv', 'The file lists no symbols');

  const headerColumn = records[0].record.findIndex((cell) => cell.toLowerCase() === 'symbol');
  let column = 0;
  let body = records;
  if (headerColumn >= 0) {
    column = headerColumn;
    body = records.slice(1);
  } else {
    const wide = records.find((r) => r.record.length > 1);
    if (wide) {
      throw new WatchlistCsvError(
        'missing_symbol_column',
        'The first row must be a header naming a `symbol` column, or the file must be one column of symbols',
        records[0].info.lines,
      );
    }
  }

  const seen = new Set<string>();
  const symbols: WatchlistCsvSymbol[] = [];
  let duplicates = 0;
  for (const { record, info } of body) {
    const symbol = (record[column] ?? '').trim();
    if (!symbol) continue;
    const key = symbol.toUpperCase();
    if (seen.has(key)) {
      duplicates += 1;
      continue;
    }
    seen.add(key);
    symbols.push({ symbol, line: info.lines });
  }
  if (!symbols.length) throw new WatchlistCsvError('empty_csv', 'The file lists no symbols');
  return { symbols, duplicates };
}
