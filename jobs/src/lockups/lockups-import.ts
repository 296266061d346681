// `npm run cli -- import lockups <file>`: an operator's CSV of lock-up events (docs/lockups.md,
// "CSV import"), validated row by row with every error by line, stored in one transaction (nothing
// on any error), idempotent: a row is its offering (ticker + IPO date) and tranche.
import { parse } from 'csv-parse/sync';
import type { DataSource } from 'typeorm';
import { upsertLockupOffering, type LockupOfferingInput } from './lockups.store';
import { LOCKUP_TICKER_PATTERN } from './lockups-follows.store';
import { DEFAULT_LOCKUP_RISK_WEIGHTS, scoreLockup, type LockupRiskWeights } from './lockups-risk';

/** The columns of a lock-up CSV: the required ones, then the optional ones (docs/lockups.md). */
export const LOCKUP_CSV_REQUIRED_COLUMNS = ['ticker', 'company_name', 'ipo_date', 'lockup_expiration_date'] as const;
export const LOCKUP_CSV_OPTIONAL_COLUMNS = [
  'shares_locked_up',
  'total_shares_outstanding',
  'vc_backed',
  'industry',
  'ipo_price',
  'tranche',
  'tranche_label',
  'lockup_days',
  'cik',
  'underwriters',
  'bound_parties',
  'clause',
  'source_url',
] as const;
export const LOCKUP_CSV_COLUMNS = [...LOCKUP_CSV_REQUIRED_COLUMNS, ...LOCKUP_CSV_OPTIONAL_COLUMNS];
type Column = (typeof LOCKUP_CSV_COLUMNS)[number];

/** Rows one file may hold. */
export const LOCKUP_CSV_MAX_ROWS = 50_000;

export interface LockupCsvIssue {
  /** 1-based line of the file (the header is line 1). */
  line: number;
  column: string | null;
  message: string;
}

/** A file that does not import: every problem found, by line. Nothing was written. */
export class LockupCsvError extends Error {
  constructor(readonly issues: LockupCsvIssue[]) {
    super(
      `${issues.length} problem${issues.length === 1 ? '' : 's'}; nothing was written:\n` +
        issues
          .slice(0, 50)
          .map((i) => `  line ${i.line}${i.column ? `, ${i.column}` : ''}: ${i.message}`)
          .join('\n') +
        (issues.length > 50 ? `\n  ... and ${issues.length - 50} more` : ''),
    );
    this.name = 'LockupCsvError';
  }
}

export interface LockupCsvResult {
  rows: number;
  offerings: number;
  inserted: number;
  updated: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const validDay = (v: string) => {
  if (!DAY.test(v)) return false;
  const at = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(at.getTime()) && at.toISOString().slice(0, 10) === v;
};
const SHARES = /^\d{1,3}(,\d{3})+$|^\d{1,20}$/;
const PRICE = /^\d{1,12}(\.\d{1,4})?$/;
const BOOLEAN: Record<string, boolean> = { true: true, yes: true, y: true, '1': true, false: false, no: false, n: false, '0': false };

interface ValidRow {
  line: number;
  ticker: string;
  companyName: string;
  ipoDate: string;
  expirationDate: string | null;
  tranche: number;
  trancheLabel: string | null;
  sharesLockedUp: string | null;
  totalSharesOutstanding: string | null;
  vcBacked: boolean;
  industry: string | null;
  ipoPrice: string | null;
  lockupDays: number | null;
  cik: string | null;
  underwriters: string[];
  boundParties: string | null;
  clause: string | null;
  sourceUrl: string | null;
}

/** Parses and checks the file; throws LockupCsvError with every problem. Pure. */
export function parseLockupsCsv(text: string | Buffer): ValidRow[] {
  const issues: LockupCsvIssue[] = [];
  let records: { record: Record<string, string>; info: { lines: number } }[];
  let header: string[] = [];
  try {
    records = parse(text, {
      bom: true,
      columns: (names: string[]) => {
        header = names.map((n) => n.trim().toLowerCase());
        return header;
      },
      info: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: false,
    }) as { record: Record<string, string>; info: { lines: number } }[];
  } catch (error) {
    const e = error as Error & { lines?: number };
    throw new LockupCsvError([{ line: e.lines ?? 1, column: null, message: `not a CSV file: ${e.message}` }]);
  }
  const unknown = header.filter((h) => !(LOCKUP_CSV_COLUMNS as readonly string[]).includes(h));
  const missing = LOCKUP_CSV_REQUIRED_COLUMNS.filter((c) => !header.includes(c));
  if (unknown.length) issues.push({ line: 1, column: null, message: `unknown column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} (the columns: ${LOCKUP_CSV_COLUMNS.join(', ')})` });
  if (missing.length) issues.push({ line: 1, column: null, message: `missing column${missing.length > 1 ? 's' : ''} ${missing.join(', ')}` });
  if (issues.length) throw new LockupCsvError(issues);
  if (!records.length) throw new LockupCsvError([{ line: 2, column: null, message: 'no rows under the header' }]);
  if (records.length > LOCKUP_CSV_MAX_ROWS) throw new LockupCsvError([{ line: LOCKUP_CSV_MAX_ROWS + 2, column: null, message: `at most ${LOCKUP_CSV_MAX_ROWS} rows a file` }]);

  const rows: ValidRow[] = [];
  const seen = new Map<string, number>();
  for (const { record, info } of records) {
    const line = info.lines;
    const before = issues.length;
    const bad = (column: Column, message: string) => issues.push({ line, column, message });
    const get = (column: Column): string => (record[column] ?? '').trim();
    const opt = (column: Column): string | null => get(column) || null;

    const ticker = get('ticker').toUpperCase();
    if (!LOCKUP_TICKER_PATTERN.test(ticker)) bad('ticker', ticker ? `"${ticker}" is not a ticker (letters, digits, dots, dashes; at most 20)` : 'required');
    const companyName = get('company_name');
    if (!companyName) bad('company_name', 'required');
    else if (companyName.length > 200) bad('company_name', 'at most 200 characters');
    const ipoDate = get('ipo_date');
    if (!validDay(ipoDate)) bad('ipo_date', ipoDate ? `"${ipoDate}" is not a date YYYY-MM-DD` : 'required');
    const expiration = get('lockup_expiration_date');
    if (expiration && !validDay(expiration)) bad('lockup_expiration_date', `"${expiration}" is not a date YYYY-MM-DD (leave it empty when unknown: the event is marked for review)`);
    else if (expiration && validDay(ipoDate) && expiration <= ipoDate) bad('lockup_expiration_date', `${expiration} is not after the IPO date ${ipoDate}`);

    const shares = (column: Column): string | null => {
      const v = get(column);
      if (!v) return null;
      if (!SHARES.test(v)) {
        bad(column, `"${v}" is not a whole number of shares`);
        return null;
      }
      return v.replace(/,/g, '').replace(/^0+(?=\d)/, '');
    };
    const sharesLockedUp = shares('shares_locked_up');
    const totalSharesOutstanding = shares('total_shares_outstanding');
    if (sharesLockedUp && totalSharesOutstanding && BigInt(sharesLockedUp) > BigInt(totalSharesOutstanding)) {
      bad('shares_locked_up', `${sharesLockedUp} is more than total_shares_outstanding ${totalSharesOutstanding}`);
    }
    const vcText = get('vc_backed').toLowerCase();
    const vcBacked = vcText === '' ? false : BOOLEAN[vcText];
    if (vcBacked === undefined) bad('vc_backed', `"${get('vc_backed')}" is not true/false (or yes/no, 1/0)`);
    const industry = opt('industry');
    if (industry && industry.length > 100) bad('industry', 'at most 100 characters');
    const ipoPrice = opt('ipo_price')?.replace(/^\$/, '') ?? null;
    if (ipoPrice && !PRICE.test(ipoPrice)) bad('ipo_price', `"${ipoPrice}" is not a price (e.g. 68.00)`);
    const trancheText = get('tranche');
    const tranche = trancheText === '' ? 1 : Number(trancheText);
    if (!Number.isInteger(tranche) || tranche < 1 || tranche > 20) bad('tranche', `"${trancheText}" is not a tranche number from 1 to 20`);
    const daysText = get('lockup_days');
    const lockupDays = daysText === '' ? null : Number(daysText);
    if (lockupDays !== null && (!Number.isInteger(lockupDays) || lockupDays < 1 || lockupDays > 3650)) bad('lockup_days', `"${daysText}" is not a number of days from 1 to 3650`);
    const cikText = get('cik');
    if (cikText && !/^\d{1,10}$/.test(cikText)) bad('cik', `"${cikText}" is not a CIK (digits)`);
    const sourceUrl = opt('source_url');
    if (sourceUrl && !/^https:\/\/\S+$/.test(sourceUrl)) bad('source_url', 'an https:// address');
    const trancheLabel = opt('tranche_label');
    if (trancheLabel && trancheLabel.length > 300) bad('tranche_label', 'at most 300 characters');

    const key = `${ticker}|${ipoDate}|${tranche}`;
    if (issues.length === before && seen.has(key)) {
      bad('tranche', `tranche ${tranche} of ${ticker} (IPO ${ipoDate}) is also on line ${seen.get(key)}`);
    }
    if (issues.length > before) continue;
    seen.set(key, line);
    rows.push({
      line,
      ticker,
      companyName,
      ipoDate,
      expirationDate: expiration || null,
      tranche,
      trancheLabel,
      sharesLockedUp,
      totalSharesOutstanding,
      vcBacked: vcBacked as boolean,
      industry,
      ipoPrice,
      lockupDays,
      cik: cikText ? cikText.padStart(10, '0') : null,
      underwriters: (opt('underwriters') ?? '').split(';').map((u) => u.trim()).filter(Boolean),
      boundParties: opt('bound_parties'),
      clause: opt('clause'),
      sourceUrl,
    });
  }
  if (issues.length) throw new LockupCsvError(issues);
  return rows;
}

/** The CSV offering of a ticker and IPO date. */
export function csvOfferingKey(ticker: string, ipoDate: string): string {
  return `csv:${ticker}:${ipoDate}`;
}

/** The rows grouped by offering (ticker + IPO date), each with its tranches scored. */
export function lockupCsvOfferings(rows: readonly ValidRow[], weights: LockupRiskWeights = DEFAULT_LOCKUP_RISK_WEIGHTS): LockupOfferingInput[] {
  const groups = new Map<string, ValidRow[]>();
  for (const row of rows) {
    const key = csvOfferingKey(row.ticker, row.ipoDate);
    groups.set(key, [...(groups.get(key) ?? []), row]);
  }
  return [...groups].map(([offeringKey, group]) => {
    const sorted = [...group].sort((a, b) => a.tranche - b.tranche);
    const first = sorted[0];
    // Facts of the offering: the first row that gives one.
    const pick = <K extends keyof ValidRow>(k: K): ValidRow[K] => (sorted.find((r) => r[k] !== null && r[k] !== '')?.[k] ?? first[k]) as ValidRow[K];
    const totalSharesOutstanding = pick('totalSharesOutstanding');
    const underwriters = sorted.find((r) => r.underwriters.length)?.underwriters ?? [];
    const vcBacked = sorted.some((r) => r.vcBacked);
    const industry = pick('industry');
    // Tranche numbers as given; an offering's tranche count is its highest number.
    return {
      offeringKey,
      ticker: first.ticker,
      companyName: first.companyName,
      cik: pick('cik'),
      ipoDate: first.ipoDate,
      filingDate: null,
      ipoPrice: pick('ipoPrice'),
      sharesOffered: null,
      underwriters,
      lockupDays: pick('lockupDays'),
      boundParties: pick('boundParties'),
      clause: pick('clause'),
      sourceAccession: null,
      sourceUrl: pick('sourceUrl'),
      dataSource: 'csv' as const,
      totalSharesOutstanding,
      vcBacked,
      industry,
      earlyRelease: [],
      reviewReason: sorted.some((r) => r.expirationDate === null) ? 'no lock-up expiration date in the CSV' : null,
      tranches: sorted.map((r) => {
        const risk = scoreLockup({ vcBacked, sharesLockedUp: r.sharesLockedUp, totalSharesOutstanding, runUp: null, avgVolumeRatio: null, industry, underwriters }, weights);
        return { tranche: r.tranche, label: r.trancheLabel, expirationDate: r.expirationDate, sharesLockedUp: r.sharesLockedUp, riskScore: risk.score, riskFactors: risk.factors };
      }),
    };
  });
}

/**
 * Validates the whole file, then stores every offering in one transaction (a re-import updates the
 * same rows). Throws LockupCsvError (nothing written) when any row is wrong.
 */
export async function importLockupsCsv(
  dataSource: DataSource,
  text: string | Buffer,
  options: { today: string; weights?: LockupRiskWeights },
): Promise<LockupCsvResult> {
  const rows = parseLockupsCsv(text);
  const offerings = lockupCsvOfferings(rows, options.weights);
  let inserted = 0;
  let updated = 0;
  await dataSource.transaction(async (manager) => {
    for (const offering of offerings) {
      const result = await upsertLockupOffering(manager, offering, { today: options.today });
      inserted += result.inserted;
      updated += result.updated;
    }
  });
  return { rows: rows.length, offerings: offerings.length, inserted, updated };
}
