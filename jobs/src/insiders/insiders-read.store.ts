import { stringify } from 'csv-stringify/sync';
import type { DataSource, EntityManager } from 'typeorm';
import { neutralizeCsvFormula } from '../watchlists/watchlist-csv';
import {
  BUY_CODE,
  INSIDER_ALERT_LEVELS,
  INSIDER_CSV_MAX_ROWS,
  INSIDER_SCREENER_DEFAULT_LIMIT,
  INSIDER_SCREENER_MAX_LIMIT,
  INSIDER_SENTIMENTS,
  INSIDER_WINDOW_DAYS,
  SELL_CODE,
  TRANSACTION_CODES,
  type InsiderAlertLevel,
  type InsiderAnalyticsView,
  type InsiderClusterBuy,
  type InsiderCompanyPage,
  type InsiderCompanyRef,
  type InsiderDataSource,
  type InsiderFilingSummary,
  type InsiderFilingsPage,
  type InsiderFollowSettings,
  type InsiderOwnerRef,
  type InsiderPage,
  type InsiderRole,
  type InsiderScreenerPage,
  type InsiderScreenerQuery,
  type InsiderSentiment,
  type InsiderSortKey,
  type InsiderTradeRow,
  type TraderPattern,
  type TransactionTable,
} from './insiders.shapes';

/**
 * The reads of the insiders domain the api serves: the screener (JSON pages with keyset cursors,
 * and CSV), the latest filings, the company and insider pages, the latest cluster buys and the
 * company search. Writes are insiders.store.ts (filings) and insiders-follows.store.ts (follows).
 *
 * Speed (issue 13: p99 < 50 ms over 1,000,000 lines of 5,000 companies): a page is found first,
 * as ids only, on the transactions' indexes (trade and filing date with id, company and date,
 * code and date, insider, filing), then only its rows are decorated with company, insider,
 * filing and co-owners.
 */
type Db = DataSource | EntityManager;

/** A query the api must refuse (400 naming the field): a cursor of another query, say. */
export class InsiderQueryError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
    this.name = 'InsiderQueryError';
  }
}

/** Days before analysisDate that its 30-day window reaches back (the window includes both ends). */
const WINDOW_BACK = INSIDER_WINDOW_DAYS - 1;
/** The newest analytics rows of a company page's history. */
const HISTORY_DAYS = 365;
/** Answers of the company search. */
export const INSIDER_COMPANY_SEARCH_LIMIT = 20;
export const INSIDER_CLUSTER_BUYS_DEFAULT_LIMIT = 50;
export const INSIDER_CLUSTER_BUYS_MAX_LIMIT = 100;

type Row = Record<string, unknown>;

const text = (value: unknown): string | null => (value === null || value === undefined ? null : String(value));
const iso = (value: unknown): string | null => (value === null || value === undefined ? null : new Date(value as string | Date).toISOString());

// ---------------------------------------------------------------------------------------------
// Companies and insiders by their keys.

export interface InsiderCompanyKey extends InsiderCompanyRef {
  id: number;
  industry: string | null;
  sector: string | null;
}

/** A ticker (any case) or a 10-digit CIK (an issuer without a ticker): the company, or null. */
export async function findInsiderCompany(db: Db, key: string): Promise<InsiderCompanyKey | null> {
  const byCik = /^\d{10}$/.test(key);
  const rows: Row[] = await db.query(
    `SELECT id, cik, ticker, company_name, industry, sector FROM insider_trading_companies WHERE ${byCik ? 'cik' : 'ticker'} = $1`,
    [byCik ? key : key.toUpperCase()],
  );
  const row = rows[0];
  if (!row) return null;
  return { id: Number(row.id), cik: String(row.cik), ticker: text(row.ticker), name: String(row.company_name), industry: text(row.industry), sector: text(row.sector) };
}

/** A CIK of 1 to 10 digits as the tables hold it (10 digits, zero-padded). */
export const paddedCik = (cik: string): string => cik.padStart(10, '0');

async function findInsiderId(db: Db, cik: string): Promise<number | null> {
  const rows: { id: number }[] = await db.query('SELECT id FROM insider_trading_insiders WHERE cik = $1', [paddedCik(cik)]);
  return rows[0] ? Number(rows[0].id) : null;
}

// ---------------------------------------------------------------------------------------------
// The screener.

interface SortSpec {
  /** The expression ordered by (in the ids query: t is the line, c its company when joined). */
  expr: string;
  /** How a cursor value is cast back. */
  cast: 'date' | 'numeric' | 'text';
  /** The column can be null: lines without a value come last, in either order. */
  nullable: boolean;
  /**
   * A (column, id) index serves this order: descending, the lines with a value are read from it and
   * those without (few) after them, so the page never needs a sort of every matching line.
   */
  indexed?: true;
  /** The ids query must join the company. */
  company?: true;
}

/** The sort whitelist: nothing else reaches ORDER BY. Lines without a value come last, either way. */
const SORTS: Record<InsiderSortKey, SortSpec> = {
  // ix_insider_trading_transactions_filing_date (sec_filing_date, id); null for a bare XML document imported by hand.
  filedAt: { expr: 't.sec_filing_date', cast: 'date', nullable: true, indexed: true },
  // ix_insider_trading_transactions_trade_date (transaction_date, id).
  transactionDate: { expr: 't.transaction_date', cast: 'date', nullable: false, indexed: true },
  // With the indexes asked for in docs/insiders.md (total_value, id) and (shares_traded, id) these
  // read in order too; without them they sort every matching line.
  totalValue: { expr: 't.total_value', cast: 'numeric', nullable: true, indexed: true },
  sharesTraded: { expr: 't.shares_traded', cast: 'numeric', nullable: false, indexed: true },
  ticker: { expr: 'c.ticker', cast: 'text', nullable: true, company: true },
};

/** Text sorts start ascending, the others newest or largest first. */
export function defaultInsiderOrder(sort: InsiderSortKey): 'asc' | 'desc' {
  return sort === 'ticker' ? 'asc' : 'desc';
}

interface Cursor {
  sort: InsiderSortKey;
  order: 'asc' | 'desc';
  value: string | null;
  id: string;
}

const CURSOR_VALUE: Record<SortSpec['cast'], RegExp> = {
  date: /^\d{4}-\d{2}-\d{2}$/,
  numeric: /^-?\d{1,20}(\.\d{1,10})?$/,
  text: /^[\x20-\x7e]{1,20}$/,
};

export function encodeInsiderCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.sort, cursor.order, cursor.value, cursor.id]), 'utf8').toString('base64url');
}

/** The cursor of a page of this sort and order; anything else (another sort's cursor, garbage) is refused naming `cursor`. */
export function decodeInsiderCursor(raw: string, sort: InsiderSortKey, order: 'asc' | 'desc'): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
  } catch {
    throw new InsiderQueryError('cursor', 'The cursor is not one this api gave out');
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw new InsiderQueryError('cursor', 'The cursor is not one this api gave out');
  const [cursorSort, cursorOrder, value, id] = parsed as unknown[];
  if (cursorSort !== sort || cursorOrder !== order) throw new InsiderQueryError('cursor', 'The cursor belongs to another sort or order: start again without it');
  const valid = (value === null || (typeof value === 'string' && CURSOR_VALUE[SORTS[sort].cast].test(value))) && typeof id === 'string' && /^[1-9]\d{0,17}$/.test(id);
  if (!valid) throw new InsiderQueryError('cursor', 'The cursor is not one this api gave out');
  return { sort, order, value: value as string | null, id: id as string };
}

/** The query normalized: the api's defaults applied. */
export interface ResolvedScreenerQuery extends InsiderScreenerQuery {
  sort: InsiderSortKey;
  order: 'asc' | 'desc';
  limit: number;
}

export function resolveScreenerQuery(query: InsiderScreenerQuery): ResolvedScreenerQuery {
  const sort = query.sort ?? 'filedAt';
  return {
    ...query,
    sort,
    order: query.order ?? defaultInsiderOrder(sort),
    limit: Math.min(Math.max(query.limit ?? INSIDER_SCREENER_DEFAULT_LIMIT, 1), INSIDER_SCREENER_MAX_LIMIT),
  };
}

class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The ids of one page of lines (limit + 1, to know whether there is a next page), in order, with
 * their sort values. Null when a named company or insider does not exist (an empty answer).
 */
async function screenerIds(db: Db, query: ResolvedScreenerQuery, limit: number, cursor: Cursor | null): Promise<{ id: string; value: string | null }[] | null> {
  const p = new Params();
  const where: string[] = [];
  const spec = SORTS[query.sort];
  const join = spec.company ? 'JOIN insider_trading_companies c ON c.id = t.company_id' : '';

  if (query.ticker !== undefined) {
    const company = await findInsiderCompany(db, query.ticker);
    if (!company) return null;
    where.push(`t.company_id = ${p.add(company.id)}`);
  }
  if (query.insiderCik !== undefined) {
    const insiderId = await findInsiderId(db, query.insiderCik);
    if (insiderId === null) return null;
    const id = p.add(insiderId);
    // Its own lines, and the lines of joint filings it co-reported (stored under the first owner).
    where.push(
      `(t.insider_id = ${id} OR t.filing_id = ANY(ARRAY(SELECT fo.filing_id FROM insider_trading_filing_owners fo WHERE fo.insider_id = ${id} AND fo.position > 0)))`,
    );
  }
  if (query.filedFrom) where.push(`t.sec_filing_date >= ${p.add(query.filedFrom)}::date`);
  if (query.filedTo) where.push(`t.sec_filing_date <= ${p.add(query.filedTo)}::date`);
  if (query.tradedFrom) where.push(`t.transaction_date >= ${p.add(query.tradedFrom)}::date`);
  if (query.tradedTo) where.push(`t.transaction_date <= ${p.add(query.tradedTo)}::date`);
  if (query.codes?.length) where.push(`t.transaction_type = ANY(${p.add(query.codes)}::text[])`);
  if (query.minValue !== undefined && query.minValue > 0) where.push(`t.total_value >= ${p.add(String(query.minValue))}::numeric`); // never negative (shares x price)
  if (query.table) where.push(`t.table_kind = ${p.add(query.table)}`);
  if (query.exclude10b5One) where.push('t.rule10b5_one IS NOT TRUE');
  if (query.roles?.length) {
    // The relationship as filed on the line's filing (stored on the line when it is written).
    const column = { officer: 'filed_as_officer', director: 'filed_as_director', tenPercentOwner: 'filed_as_ten_percent_owner', other: 'filed_as_other' } as const;
    where.push(`(${query.roles.map((role) => `t.${column[role]}`).join(' OR ')})`);
  }
  if (query.clusterOnly) {
    // A line is in a cluster buy when an analytics day of its company flagged isClusterBuy has it
    // in its 30-day window: that day is on or within 29 days after the trade.
    where.push(
      `EXISTS (SELECT 1 FROM insider_trading_analytics a WHERE a.company_id = t.company_id AND a.is_cluster_buy
                 AND a.analysis_date BETWEEN t.transaction_date AND t.transaction_date + ${WINDOW_BACK})`,
    );
  }
  const cmp = query.order === 'asc' ? '>' : '<';
  const dir = query.order === 'asc' ? 'ASC' : 'DESC';
  const valueText = spec.cast === 'date' ? `to_char(${spec.expr}, 'YYYY-MM-DD')` : spec.cast === 'numeric' ? `${spec.expr}::text` : spec.expr;
  const select = (extra: string[], order: string) => {
    const all = [...where, ...extra];
    return `SELECT t.id::text AS id, ${valueText} AS value
     FROM insider_trading_transactions t ${join}
     ${all.length ? `WHERE ${all.join(' AND ')}` : ''}
     ORDER BY ${order}
     LIMIT ${p.add(limit)}`;
  };
  // A trade window of at most a quarter holds few lines, which its own index finds at once; read in
  // filing-date order instead, an old window would come after every newer filing. The expression
  // (the column + 0) keeps the planner off the filing-date index for that query.
  const narrowTradeWindow =
    query.sort === 'filedAt' && query.tradedFrom !== undefined && query.tradedTo !== undefined && Date.parse(query.tradedTo) - Date.parse(query.tradedFrom) <= 92 * 86_400_000;
  const orderExpr = narrowTradeWindow ? `(${spec.expr} + 0)` : spec.expr;
  const after = (value: string) => `(${orderExpr}, t.id) ${cmp} (${p.add(value)}::${spec.cast}, ${p.add(cursor!.id)}::bigint)`;
  const afterId = () => `t.id ${cmp} ${p.add(cursor!.id)}::bigint`;
  let sql: string;
  if (spec.nullable && spec.indexed && query.order === 'desc') {
    // NULLS LAST descending, as two index-ordered reads: the lines with a value, then those without
    // (an Append under LIMIT reads the second only when the first runs out).
    const withValue = cursor?.value === null ? null : select([`${spec.expr} IS NOT NULL`, ...(cursor ? [after(cursor.value!)] : [])], `${orderExpr} DESC, t.id DESC`);
    const withoutValue = select([`${spec.expr} IS NULL`, ...(cursor?.value === null ? [afterId()] : [])], 't.id DESC');
    sql = withValue ? `(${withValue}) UNION ALL (${withoutValue}) LIMIT ${p.add(limit)}` : withoutValue;
  } else {
    const extra: string[] = [];
    if (cursor && cursor.value !== null) extra.push(spec.nullable ? `(${after(cursor.value)} OR ${spec.expr} IS NULL)` : after(cursor.value));
    if (cursor && cursor.value === null) extra.push(`${spec.expr} IS NULL`, afterId());
    // NULLS LAST is only said of a nullable column: of a NOT NULL one it would keep a descending
    // read off its index (whose backward order is NULLS FIRST), for the same rows.
    sql = select(extra, `${orderExpr} ${dir}${spec.nullable ? ' NULLS LAST' : ''}, t.id ${dir}`);
  }
  const rows: { id: string; value: string | null }[] = await db.query(sql, p.values);
  return rows;
}

const ROLE_COLUMNS: readonly [InsiderRole, string][] = [
  ['officer', 'is_officer'],
  ['director', 'is_director'],
  ['tenPercentOwner', 'is_ten_percent_owner'],
  ['other', 'is_other'],
];

function rolesOf(row: Row, prefix: string): InsiderRole[] {
  return ROLE_COLUMNS.filter(([, column]) => row[`${prefix}${column}`] === true).map(([role]) => role);
}

const DATA_SOURCES = new Set<string>(['sec', 'sec-replay', 'simulated']);
const dataSourceOf = (value: unknown): InsiderDataSource => (DATA_SOURCES.has(String(value)) ? (String(value) as InsiderDataSource) : 'sec');
const countsAs = (code: string): 'buy' | 'sell' | null => (code === BUY_CODE ? 'buy' : code === SELL_CODE ? 'sell' : null);

/** The lines of these ids, decorated, in the order of the ids. */
async function tradeRows(db: Db, ids: readonly string[]): Promise<InsiderTradeRow[]> {
  if (!ids.length) return [];
  const rows: Row[] = await db.query(
    `SELECT t.id::text AS id, t.sec_accession_number, COALESCE(f.form_type, t.sec_form_type) AS form_type, f.filed_at,
            to_char(COALESCE(f.filing_date, t.sec_filing_date), 'YYYY-MM-DD') AS filing_date, COALESCE(f.sec_url, t.sec_url) AS sec_url,
            c.cik AS company_cik, c.ticker, c.company_name, i.cik AS insider_cik, i.name AS insider_name,
            COALESCE(fo.is_officer, i.is_officer) AS is_officer, COALESCE(fo.is_director, i.is_director) AS is_director,
            COALESCE(fo.is_ten_percent_owner, i.is_ten_percent_owner) AS is_ten_percent_owner, COALESCE(fo.is_other, i.is_other) AS is_other,
            fo.officer_title AS officer_title, co.owners AS co_owners,
            t.table_kind, t.line_number, t.security_title, to_char(t.transaction_date, 'YYYY-MM-DD') AS transaction_date, t.transaction_type,
            t.acquired_disposed, trim_scale(t.shares_traded)::text AS shares_traded, trim_scale(t.price_per_share)::text AS price_per_share,
            t.total_value::text AS total_value, trim_scale(t.shares_owned_after)::text AS shares_owned_after, t.is_weighted_price, t.price_footnote,
            t.direct_or_indirect, t.nature_of_ownership, t.rule10b5_one, t.trader_pattern, t.data_source
     FROM insider_trading_transactions t
     JOIN insider_trading_companies c ON c.id = t.company_id
     JOIN insider_trading_insiders i ON i.id = t.insider_id
     LEFT JOIN insider_trading_filings f ON f.id = t.filing_id
     LEFT JOIN insider_trading_filing_owners fo ON fo.filing_id = t.filing_id AND fo.insider_id = t.insider_id
     LEFT JOIN LATERAL (
       SELECT json_agg(json_build_object('cik', oi.cik, 'name', oi.name) ORDER BY o.position, oi.cik) AS owners
       FROM insider_trading_filing_owners o JOIN insider_trading_insiders oi ON oi.id = o.insider_id
       WHERE o.filing_id = t.filing_id AND o.insider_id <> t.insider_id
     ) co ON true
     WHERE t.id = ANY($1::bigint[])`,
    [ids],
  );
  const byId = new Map(rows.map((row) => [String(row.id), row]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [tradeRow(row)] : [];
  });
}

function tradeRow(row: Row): InsiderTradeRow {
  const code = String(row.transaction_type);
  const ad = row.acquired_disposed === 'A' || row.acquired_disposed === 'D' ? row.acquired_disposed : null;
  const di = row.direct_or_indirect === 'D' || row.direct_or_indirect === 'I' ? row.direct_or_indirect : null;
  const pattern = row.trader_pattern === 'routine' || row.trader_pattern === 'opportunistic' ? (row.trader_pattern as TraderPattern) : null;
  return {
    id: String(row.id),
    accessionNumber: String(row.sec_accession_number),
    formType: String(row.form_type),
    filedAt: iso(row.filed_at),
    filingDate: text(row.filing_date),
    secUrl: text(row.sec_url),
    companyCik: String(row.company_cik),
    ticker: text(row.ticker),
    companyName: String(row.company_name),
    insiderCik: String(row.insider_cik),
    insiderName: String(row.insider_name),
    roles: rolesOf(row, ''),
    officerTitle: text(row.officer_title),
    coOwners: ((row.co_owners as InsiderOwnerRef[] | null) ?? []).map((owner) => ({ cik: String(owner.cik), name: String(owner.name) })),
    table: (row.table_kind === 'derivative' ? 'derivative' : 'non-derivative') as TransactionTable,
    lineNumber: Number(row.line_number),
    securityTitle: text(row.security_title),
    transactionDate: String(row.transaction_date),
    transactionCode: code,
    acquiredDisposed: ad,
    sharesTraded: String(row.shares_traded),
    pricePerShare: text(row.price_per_share),
    totalValue: text(row.total_value),
    sharesOwnedAfter: text(row.shares_owned_after),
    isWeightedPrice: row.is_weighted_price === true,
    priceFootnote: text(row.price_footnote),
    directOrIndirect: di,
    natureOfOwnership: text(row.nature_of_ownership),
    rule10b5One: typeof row.rule10b5_one === 'boolean' ? row.rule10b5_one : null,
    traderPattern: pattern,
    countsAs: countsAs(code),
    dataSource: dataSourceOf(row.data_source),
  };
}

/** One page of the screener: the lines matching every filter, sorted, with the cursor of the next page. */
export async function insiderScreener(db: Db, input: InsiderScreenerQuery): Promise<InsiderScreenerPage> {
  const query = resolveScreenerQuery(input);
  const cursor = query.cursor ? decodeInsiderCursor(query.cursor, query.sort, query.order) : null;
  const ids = await screenerIds(db, query, query.limit + 1, cursor);
  if (!ids) return { rows: [], nextCursor: null, replay: false };
  const page = ids.slice(0, query.limit);
  const rows = await tradeRows(db, page.map((row) => row.id));
  const last = page.at(-1);
  const nextCursor = ids.length > query.limit && last ? encodeInsiderCursor({ sort: query.sort, order: query.order, value: last.value, id: last.id }) : null;
  return { rows, nextCursor, replay: rows.some((row) => row.dataSource !== 'sec') };
}

// ---------------------------------------------------------------------------------------------
// CSV export.

/** The export's columns, in order (a header row names them). */
export const INSIDER_CSV_COLUMNS = [
  'filed_at',
  'filing_date',
  'accession_number',
  'form_type',
  'ticker',
  'company',
  'company_cik',
  'insider',
  'insider_cik',
  'roles',
  'officer_title',
  'co_owners',
  'table',
  'line',
  'security',
  'trade_date',
  'code',
  'code_meaning',
  'counts_as',
  'acquired_disposed',
  'shares',
  'price',
  'weighted_price',
  'value',
  'shares_owned_after',
  'direct_or_indirect',
  'nature_of_ownership',
  'rule_10b5_1',
  'trader_pattern',
  'data_source',
  'sec_url',
] as const;

const BATCH = 2500;

/**
 * The screener's whole result (every page, up to INSIDER_CSV_MAX_ROWS lines; the cursor and limit
 * of the query are ignored) as CSV: a header row, one line per transaction line, LF line ends.
 * Text cells a spreadsheet would run as a formula are neutralized (OWASP "CSV injection").
 */
export async function insiderScreenerCsv(db: Db, input: InsiderScreenerQuery): Promise<{ csv: string; rows: number; truncated: boolean }> {
  const query = resolveScreenerQuery({ ...input, cursor: undefined });
  const records: InsiderTradeRow[] = [];
  let cursor: Cursor | null = null;
  let truncated = false;
  while (records.length < INSIDER_CSV_MAX_ROWS) {
    const want = Math.min(BATCH, INSIDER_CSV_MAX_ROWS - records.length);
    const ids = await screenerIds(db, query, want + 1, cursor);
    if (!ids) break;
    const page = ids.slice(0, want);
    records.push(...(await tradeRows(db, page.map((row) => row.id))));
    const last = page.at(-1);
    if (ids.length <= want || !last) break;
    if (records.length >= INSIDER_CSV_MAX_ROWS) {
      truncated = true;
      break;
    }
    cursor = { sort: query.sort, order: query.order, value: last.value, id: last.id };
  }
  const cell = (value: string | null) => (value === null ? '' : neutralizeCsvFormula(value));
  const flag = (value: boolean | null) => (value === null ? '' : value ? 'yes' : 'no');
  const csv = stringify(
    records.map((r) => [
      r.filedAt ?? '',
      r.filingDate ?? '',
      r.accessionNumber,
      r.formType,
      cell(r.ticker),
      cell(r.companyName),
      r.companyCik,
      cell(r.insiderName),
      r.insiderCik,
      r.roles.join(' '),
      cell(r.officerTitle),
      cell(r.coOwners.map((owner) => `${owner.name} (${owner.cik})`).join('; ') || null),
      r.table,
      r.lineNumber,
      cell(r.securityTitle),
      r.transactionDate,
      r.transactionCode,
      (TRANSACTION_CODES as Record<string, string>)[r.transactionCode] ?? '',
      r.countsAs ?? '',
      r.acquiredDisposed ?? '',
      r.sharesTraded,
      r.pricePerShare ?? '',
      r.isWeightedPrice ? 'yes' : 'no',
      r.totalValue ?? '',
      r.sharesOwnedAfter ?? '',
      r.directOrIndirect ?? '',
      cell(r.natureOfOwnership),
      flag(r.rule10b5One),
      r.traderPattern ?? '',
      r.dataSource,
      r.secUrl ?? '',
    ]),
    { header: true, columns: [...INSIDER_CSV_COLUMNS] },
  );
  return { csv, rows: records.length, truncated };
}

// ---------------------------------------------------------------------------------------------
// Latest filings.

export const INSIDER_FILINGS_DEFAULT_LIMIT = 50;
export const INSIDER_FILINGS_MAX_LIMIT = 100;

function encodeFilingsCursor(filedAt: string, id: number): string {
  return Buffer.from(JSON.stringify(['filings', filedAt, String(id)]), 'utf8').toString('base64url');
}

function decodeFilingsCursor(raw: string): { filedAt: string; id: string } {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
    if (Array.isArray(parsed) && parsed.length === 3 && parsed[0] === 'filings') {
      const [, filedAt, id] = parsed as unknown[];
      if (typeof filedAt === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(filedAt) && typeof id === 'string' && /^[1-9]\d{0,9}$/.test(id)) {
        return { filedAt, id };
      }
    }
  } catch {
    // Falls through to the refusal.
  }
  throw new InsiderQueryError('cursor', 'The cursor is not one this api gave out');
}

/**
 * The newest filings EDGAR accepted (parsed, pending and failed), by acceptance time then id, on
 * ix_insider_trading_filings_filed_at. A filing whose acceptance time is unknown (a bare XML
 * document imported by hand) is not in this feed; its lines are in the screener.
 */
export async function latestInsiderFilings(db: Db, options: { limit?: number; cursor?: string }): Promise<InsiderFilingsPage> {
  const limit = Math.min(Math.max(options.limit ?? INSIDER_FILINGS_DEFAULT_LIMIT, 1), INSIDER_FILINGS_MAX_LIMIT);
  const cursor = options.cursor ? decodeFilingsCursor(options.cursor) : null;
  const params: unknown[] = [limit + 1];
  const after = cursor ? `AND (f.filed_at, f.id) < ($2::timestamptz, $3::int)` : '';
  if (cursor) params.push(cursor.filedAt, cursor.id);
  const rows: Row[] = await db.query(
    `SELECT f.id, f.accession_number, f.form_type, f.filed_at,
            to_char(f.filed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS filed_at_key,
            to_char(f.filing_date, 'YYYY-MM-DD') AS filing_date, f.status, f.failure_reason, f.sec_url,
            COALESCE(c.cik, ic.cik) AS cik, COALESCE(c.ticker, ic.ticker) AS ticker, COALESCE(c.company_name, ic.company_name) AS company_name
     FROM insider_trading_filings f
     LEFT JOIN insider_trading_companies c ON c.id = f.company_id
     LEFT JOIN insider_trading_companies ic ON f.company_id IS NULL AND ic.cik = f.issuer_cik
     WHERE f.filed_at IS NOT NULL ${after}
     ORDER BY f.filed_at DESC, f.id DESC
     LIMIT $1`,
    params,
  );
  const page = rows.slice(0, limit);
  const ids = page.map((row) => Number(row.id));
  const owners = new Map<number, InsiderOwnerRef[]>();
  const stats = new Map<number, Row>();
  let replay = false;
  if (ids.length) {
    const ownerRows: Row[] = await db.query(
      `SELECT o.filing_id, i.cik, i.name FROM insider_trading_filing_owners o JOIN insider_trading_insiders i ON i.id = o.insider_id
       WHERE o.filing_id = ANY($1::int[]) ORDER BY o.filing_id, o.position, i.cik`,
      [ids],
    );
    for (const row of ownerRows) {
      const list = owners.get(Number(row.filing_id)) ?? [];
      list.push({ cik: String(row.cik), name: String(row.name) });
      owners.set(Number(row.filing_id), list);
    }
    const statRows: Row[] = await db.query(
      `SELECT filing_id, count(*)::int AS lines,
              count(*) FILTER (WHERE transaction_type = $2)::int AS buys, count(*) FILTER (WHERE transaction_type = $3)::int AS sells,
              COALESCE(sum(abs(total_value)) FILTER (WHERE transaction_type IN ($2, $3)), 0)::numeric(24, 2)::text AS open_market_value,
              bool_or(data_source <> 'sec') AS replay
       FROM insider_trading_transactions WHERE filing_id = ANY($1::int[]) GROUP BY filing_id`,
      [ids, BUY_CODE, SELL_CODE],
    );
    for (const row of statRows) stats.set(Number(row.filing_id), row);
    replay = statRows.some((row) => row.replay === true);
  }
  const filings: InsiderFilingSummary[] = page.map((row) => {
    const id = Number(row.id);
    const stat = stats.get(id);
    const status = row.status === 'parsed' || row.status === 'failed' ? row.status : 'pending';
    return {
      accessionNumber: String(row.accession_number),
      formType: String(row.form_type),
      filedAt: iso(row.filed_at),
      filingDate: text(row.filing_date),
      status,
      failureReason: text(row.failure_reason),
      company: row.cik === null ? null : { cik: String(row.cik), ticker: text(row.ticker), name: String(row.company_name) },
      reportingOwners: owners.get(id) ?? [],
      lines: Number(stat?.lines ?? 0),
      buys: Number(stat?.buys ?? 0),
      sells: Number(stat?.sells ?? 0),
      openMarketValue: String(stat?.open_market_value ?? '0.00'),
      secUrl: text(row.sec_url),
    };
  });
  const last = page.at(-1);
  const nextCursor = rows.length > limit && last ? encodeFilingsCursor(String(last.filed_at_key), Number(last.id)) : null;
  return { filings, nextCursor, replay };
}

// ---------------------------------------------------------------------------------------------
// Analytics, the company page and the insider page.

const ANALYTICS_COLUMNS = `to_char(a.analysis_date, 'YYYY-MM-DD') AS analysis_date, a.total_transactions_30d, a.buy_transactions_30d, a.sell_transactions_30d,
  a.net_shares_30d::text AS net_shares_30d, a.net_value_30d::text AS net_value_30d, a.total_volume_30d::text AS total_volume_30d,
  a.avg_transaction_size::text AS avg_transaction_size, a.discretionary_buy_value::text AS discretionary_buy_value,
  a.discretionary_sell_value::text AS discretionary_sell_value, a.distinct_insiders, a.insider_sentiment, a.sentiment_score::text AS sentiment_score,
  a.confidence_level::text AS confidence_level, a.percentile_rank::text AS percentile_rank, a.history_percentile::text AS history_percentile,
  a.is_cluster_buy, a.cluster_insiders, a.is_unusual_activity, a.alert_level, a.alert_reason, a.reason_transaction_ids`;

function analyticsView(row: Row): InsiderAnalyticsView {
  const sentiment = (INSIDER_SENTIMENTS as readonly string[]).includes(String(row.insider_sentiment)) ? (row.insider_sentiment as InsiderSentiment) : null;
  const level = (INSIDER_ALERT_LEVELS as readonly string[]).includes(String(row.alert_level)) ? (row.alert_level as InsiderAlertLevel) : 'none';
  const reasons = Array.isArray(row.reason_transaction_ids) ? (row.reason_transaction_ids as unknown[]).map(String) : [];
  return {
    analysisDate: String(row.analysis_date),
    totalTransactions30d: Number(row.total_transactions_30d),
    buyTransactions30d: Number(row.buy_transactions_30d),
    sellTransactions30d: Number(row.sell_transactions_30d),
    netShares30d: String(row.net_shares_30d),
    netValue30d: String(row.net_value_30d),
    totalVolume30d: String(row.total_volume_30d),
    avgTransactionSize: text(row.avg_transaction_size),
    discretionaryBuyValue: String(row.discretionary_buy_value),
    discretionarySellValue: String(row.discretionary_sell_value),
    distinctInsiders: Number(row.distinct_insiders),
    insiderSentiment: sentiment,
    sentimentScore: text(row.sentiment_score),
    confidenceLevel: text(row.confidence_level),
    percentileRank: text(row.percentile_rank),
    historyPercentile: text(row.history_percentile),
    isClusterBuy: row.is_cluster_buy === true,
    clusterInsiders: Number(row.cluster_insiders),
    isUnusualActivity: row.is_unusual_activity === true,
    alertLevel: level,
    alertReason: text(row.alert_reason),
    reasonTransactionIds: reasons,
  };
}

/** The market of the prices feature that trades this issuer: by its CIK, else a stock or fund with its ticker. */
async function marketSymbolOf(db: Db, company: InsiderCompanyKey): Promise<string | null> {
  const rows: { symbol: string }[] = await db.query(
    `SELECT symbol FROM markets WHERE cik = $1 OR ($2::varchar IS NOT NULL AND symbol = $2 AND type IN ('stock', 'etf'))
     ORDER BY (cik = $1) DESC NULLS LAST, id LIMIT 1`,
    [company.cik, company.ticker],
  );
  return rows[0]?.symbol ?? null;
}

/** The follow settings as stored (officer_buy_min_value numeric, null = off). */
export function followSettingsOf(row: Row): InsiderFollowSettings {
  return {
    notifyClusterBuy: row.notify_cluster_buy === true,
    officerBuyMinValue: row.officer_buy_min_value === null || row.officer_buy_min_value === undefined ? null : Number(row.officer_buy_min_value),
    notifyUnusualActivity: row.notify_unusual_activity === true,
  };
}

/**
 * A company's page: its analytics (the latest, and up to a year of history oldest first), its
 * newest lines (the screener's first page for it), the user's follow and the market of its price
 * chart. Null: no such company.
 */
export async function insiderCompanyPage(db: Db, key: string, userId: number | null): Promise<InsiderCompanyPage | null> {
  const company = await findInsiderCompany(db, key);
  if (!company) return null;
  const history: Row[] = await db.query(
    `SELECT ${ANALYTICS_COLUMNS} FROM insider_trading_analytics a
     WHERE a.company_id = $1 AND a.analysis_date > (SELECT max(analysis_date) FROM insider_trading_analytics WHERE company_id = $1) - ${HISTORY_DAYS}
     ORDER BY a.analysis_date`,
    [company.id],
  );
  const follows: Row[] =
    userId === null
      ? []
      : await db.query('SELECT notify_cluster_buy, officer_buy_min_value, notify_unusual_activity FROM insider_follows WHERE user_id = $1 AND company_id = $2', [
          userId,
          company.id,
        ]);
  const views = history.map(analyticsView);
  const transactions = await insiderScreener(db, { ticker: company.cik });
  return {
    company: { cik: company.cik, ticker: company.ticker, name: company.name, industry: company.industry, sector: company.sector },
    latest: views.at(-1) ?? null,
    history: views,
    transactions,
    follow: follows[0] ? followSettingsOf(follows[0]) : null,
    marketSymbol: await marketSymbolOf(db, company),
  };
}

/** An insider's page: who they are, the companies they reported on (their latest relationship at each) and their newest lines. Null: no such insider. */
export async function insiderPage(db: Db, cik: string): Promise<InsiderPage | null> {
  const [insider]: Row[] = await db.query(
    'SELECT id, cik, name, is_officer, is_director, is_ten_percent_owner, is_other FROM insider_trading_insiders WHERE cik = $1',
    [paddedCik(cik)],
  );
  if (!insider) return null;
  const companies: Row[] = await db.query(
    `SELECT * FROM (
       SELECT DISTINCT ON (x.company_id) c.cik, c.ticker, c.company_name, x.is_officer, x.is_director, x.is_ten_percent_owner, x.is_other,
              x.officer_title, x.filed_at
       FROM (
         SELECT f.company_id, o.is_officer, o.is_director, o.is_ten_percent_owner, o.is_other, o.officer_title, f.filed_at, f.id AS ord
         FROM insider_trading_filing_owners o JOIN insider_trading_filings f ON f.id = o.filing_id
         WHERE o.insider_id = $1 AND f.company_id IS NOT NULL
         UNION ALL
         SELECT t.company_id, i.is_officer, i.is_director, i.is_ten_percent_owner, i.is_other, t.relationship, NULL, 0
         FROM insider_trading_transactions t JOIN insider_trading_insiders i ON i.id = t.insider_id
         WHERE t.insider_id = $1 AND t.filing_id IS NULL
       ) x JOIN insider_trading_companies c ON c.id = x.company_id
       ORDER BY x.company_id, x.filed_at DESC NULLS LAST, x.ord DESC
     ) latest ORDER BY filed_at DESC NULLS LAST, company_name`,
    [insider.id],
  );
  return {
    insider: { cik: String(insider.cik), name: String(insider.name), roles: rolesOf(insider, '') },
    companies: companies.map((row) => ({
      cik: String(row.cik),
      ticker: text(row.ticker),
      name: String(row.company_name),
      roles: rolesOf(row, ''),
      officerTitle: text(row.officer_title),
      lastFiledAt: iso(row.filed_at),
    })),
    transactions: await insiderScreener(db, { insiderCik: String(insider.cik) }),
  };
}

// ---------------------------------------------------------------------------------------------
// Cluster buys and the company search.

/** The cluster buys list looks back this far from the newest flagged day. */
const CLUSTER_BUYS_DAYS = 365;

/**
 * The latest cluster buy of each company (its newest analytics row flagged isClusterBuy, in the
 * year up to the newest flagged day of any company), newest first, with the insiders who bought
 * on the open market (P) in that row's 30-day window.
 */
export async function latestInsiderClusterBuys(db: Db, limit = INSIDER_CLUSTER_BUYS_DEFAULT_LIMIT): Promise<InsiderClusterBuy[]> {
  const rows: Row[] = await db.query(
    `SELECT latest.*, c.cik, c.ticker, c.company_name FROM (
       SELECT DISTINCT ON (a.company_id) a.company_id, to_char(a.analysis_date, 'YYYY-MM-DD') AS analysis_date, a.cluster_insiders,
              a.discretionary_buy_value::text AS discretionary_buy_value, a.sentiment_score::text AS sentiment_score, a.alert_reason
       FROM insider_trading_analytics a
       WHERE a.is_cluster_buy AND a.analysis_date > (SELECT max(analysis_date) FROM insider_trading_analytics WHERE is_cluster_buy) - ${CLUSTER_BUYS_DAYS}
       ORDER BY a.company_id, a.analysis_date DESC
     ) latest JOIN insider_trading_companies c ON c.id = latest.company_id
     ORDER BY latest.analysis_date DESC, c.company_name
     LIMIT $1`,
    [Math.min(Math.max(limit, 1), INSIDER_CLUSTER_BUYS_MAX_LIMIT)],
  );
  if (!rows.length) return [];
  const buyers: Row[] = await db.query(
    `SELECT t.company_id, i.cik, i.name, bool_or(COALESCE(o.is_officer, i.is_officer)) AS is_officer, bool_or(COALESCE(o.is_director, i.is_director)) AS is_director,
            bool_or(COALESCE(o.is_ten_percent_owner, i.is_ten_percent_owner)) AS is_ten_percent_owner, bool_or(COALESCE(o.is_other, i.is_other)) AS is_other,
            COALESCE(sum(abs(t.total_value)), 0)::numeric(24, 2)::text AS value, to_char(max(t.transaction_date), 'YYYY-MM-DD') AS last_buy_date,
            bool_or(t.data_source <> 'sec') AS replay
     FROM unnest($1::int[], $2::date[]) AS w(company_id, analysis_date)
     JOIN insider_trading_transactions t ON t.company_id = w.company_id AND t.transaction_date BETWEEN w.analysis_date - ${WINDOW_BACK} AND w.analysis_date
     JOIN insider_trading_insiders i ON i.id = t.insider_id
     LEFT JOIN insider_trading_filing_owners o ON o.filing_id = t.filing_id AND o.insider_id = t.insider_id
     WHERE t.transaction_type = $3
     GROUP BY t.company_id, i.id
     ORDER BY t.company_id, sum(abs(t.total_value)) DESC NULLS LAST, i.name`,
    [rows.map((row) => Number(row.company_id)), rows.map((row) => row.analysis_date), BUY_CODE],
  );
  return rows.map((row) => {
    const own = buyers.filter((buyer) => Number(buyer.company_id) === Number(row.company_id));
    return {
      company: { cik: String(row.cik), ticker: text(row.ticker), name: String(row.company_name) },
      analysisDate: String(row.analysis_date),
      clusterInsiders: Number(row.cluster_insiders),
      discretionaryBuyValue: String(row.discretionary_buy_value),
      sentimentScore: text(row.sentiment_score),
      alertReason: text(row.alert_reason),
      buyers: own.map((buyer) => ({ cik: String(buyer.cik), name: String(buyer.name), roles: rolesOf(buyer, ''), value: String(buyer.value), lastBuyDate: String(buyer.last_buy_date) })),
      replay: own.some((buyer) => buyer.replay === true),
    };
  });
}

const likeEscape = (value: string) => value.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Companies by ticker prefix, name or CIK: the exact ticker first, then tickers starting with q, then names containing it. */
export async function searchInsiderCompanies(db: Db, q: string, limit = INSIDER_COMPANY_SEARCH_LIMIT): Promise<InsiderCompanyRef[]> {
  const term = q.trim();
  if (!term) return [];
  const upper = term.toUpperCase();
  const cik = /^\d{1,10}$/.test(term) ? paddedCik(term) : null;
  const rows: Row[] = await db.query(
    `SELECT cik, ticker, company_name FROM insider_trading_companies
     WHERE ticker LIKE $1 ESCAPE '\\' OR company_name ILIKE $2 ESCAPE '\\' OR cik = $3
     ORDER BY (ticker = $4) DESC NULLS LAST, (ticker LIKE $1 ESCAPE '\\') DESC NULLS LAST, length(ticker) NULLS LAST, company_name, cik
     LIMIT $5`,
    [`${likeEscape(upper)}%`, `%${likeEscape(term)}%`, cik, upper, Math.min(Math.max(limit, 1), INSIDER_COMPANY_SEARCH_LIMIT)],
  );
  return rows.map((row) => ({ cik: String(row.cik), ticker: text(row.ticker), name: String(row.company_name) }));
}
