// The insiders api (GET /api/insiders/...): the screener, the company and insider pages, the
// latest cluster buys, the company search and the signed-in user's follows, shaped as
// @tickerbell/jobs/insiders/shapes. Money and share counts stay decimal strings until drawn.
import {
  INSIDER_ALERT_LEVELS,
  INSIDER_DATA_SOURCES,
  INSIDER_ROLES,
  INSIDER_SENTIMENTS,
  INSIDER_SORT_KEYS,
  TRANSACTION_CODES,
  TRANSACTION_CODE_LIST,
  type InsiderAlertLevel,
  type InsiderAnalyticsView,
  type InsiderClusterBuy,
  type InsiderCompanyPage,
  type InsiderCompanyRef,
  type InsiderDataSource,
  type InsiderFollowSettings,
  type InsiderFollowView,
  type InsiderOwnerRef,
  type InsiderPage,
  type InsiderRole,
  type InsiderScreenerPage,
  type InsiderScreenerQuery,
  type InsiderSentiment,
  type InsiderSortKey,
  type InsiderTradeRow,
  type TransactionCode,
} from '@tickerbell/jobs/insiders/shapes';
import { apiRequest } from '../api/client';
import { bool, boolOrNull, count, decimal, decimalOrNull, fail, list, oneOf, record, text, textOrNull } from '../api/answer';
import { sendWithCsrf } from '../accounts/auth-client';
import { MINUS, formatUsd, formatUsdCompact, signed } from '../format/usd';

export { formatUsd, formatUsdCompact };

// ---- Parsing ----

function roles(value: unknown, where: string): InsiderRole[] {
  return list(value, where, (entry, at) => oneOf(entry, INSIDER_ROLES, at));
}

function owner(value: unknown, where: string): InsiderOwnerRef {
  const source = record(value, where);
  return { cik: text(source.cik, `${where}.cik`), name: text(source.name, `${where}.name`) };
}

export function parseCompanyRef(value: unknown, where: string): InsiderCompanyRef {
  const source = record(value, where);
  return { cik: text(source.cik, `${where}.cik`), ticker: textOrNull(source.ticker, `${where}.ticker`), name: text(source.name, `${where}.name`) };
}

export function parseTradeRow(value: unknown, where: string): InsiderTradeRow {
  const s = record(value, where);
  const at = (key: string) => `${where}.${key}`;
  const ad = s.acquiredDisposed ?? null;
  const di = s.directOrIndirect ?? null;
  const countsAs = s.countsAs ?? null;
  const pattern = s.traderPattern ?? null;
  if (ad !== null && ad !== 'A' && ad !== 'D') fail(at('acquiredDisposed'), 'A, D or null');
  if (di !== null && di !== 'D' && di !== 'I') fail(at('directOrIndirect'), 'D, I or null');
  if (countsAs !== null && countsAs !== 'buy' && countsAs !== 'sell') fail(at('countsAs'), 'buy, sell or null');
  if (pattern !== null && pattern !== 'routine' && pattern !== 'opportunistic') fail(at('traderPattern'), 'routine, opportunistic or null');
  return {
    id: text(s.id, at('id')),
    accessionNumber: text(s.accessionNumber, at('accessionNumber')),
    formType: text(s.formType, at('formType')),
    filedAt: textOrNull(s.filedAt, at('filedAt')),
    filingDate: textOrNull(s.filingDate, at('filingDate')),
    secUrl: textOrNull(s.secUrl, at('secUrl')),
    companyCik: text(s.companyCik, at('companyCik')),
    ticker: textOrNull(s.ticker, at('ticker')),
    companyName: text(s.companyName, at('companyName')),
    insiderCik: text(s.insiderCik, at('insiderCik')),
    insiderName: text(s.insiderName, at('insiderName')),
    roles: roles(s.roles, at('roles')),
    officerTitle: textOrNull(s.officerTitle, at('officerTitle')),
    coOwners: list(s.coOwners ?? [], at('coOwners'), owner),
    table: oneOf(s.table, ['non-derivative', 'derivative'] as const, at('table')),
    lineNumber: count(s.lineNumber, at('lineNumber')),
    securityTitle: textOrNull(s.securityTitle, at('securityTitle')),
    transactionDate: text(s.transactionDate, at('transactionDate')),
    transactionCode: text(s.transactionCode, at('transactionCode')),
    acquiredDisposed: ad,
    sharesTraded: decimal(s.sharesTraded, at('sharesTraded')),
    pricePerShare: decimalOrNull(s.pricePerShare, at('pricePerShare')),
    totalValue: decimalOrNull(s.totalValue, at('totalValue')),
    sharesOwnedAfter: decimalOrNull(s.sharesOwnedAfter, at('sharesOwnedAfter')),
    isWeightedPrice: bool(s.isWeightedPrice, at('isWeightedPrice')),
    priceFootnote: textOrNull(s.priceFootnote, at('priceFootnote')),
    directOrIndirect: di,
    natureOfOwnership: textOrNull(s.natureOfOwnership, at('natureOfOwnership')),
    rule10b5One: boolOrNull(s.rule10b5One, at('rule10b5One')),
    traderPattern: pattern,
    countsAs,
    dataSource: oneOf(s.dataSource, INSIDER_DATA_SOURCES, at('dataSource')),
  };
}

export function parseScreenerPage(body: unknown, where = 'screener'): InsiderScreenerPage {
  const source = record(body, where);
  return {
    rows: list(source.rows, `${where}.rows`, parseTradeRow),
    nextCursor: textOrNull(source.nextCursor, `${where}.nextCursor`),
    replay: source.replay === true,
  };
}

function parseAnalytics(value: unknown, where: string): InsiderAnalyticsView {
  const s = record(value, where);
  const at = (key: string) => `${where}.${key}`;
  const sentiment = s.insiderSentiment ?? null;
  return {
    analysisDate: text(s.analysisDate, at('analysisDate')),
    totalTransactions30d: count(s.totalTransactions30d, at('totalTransactions30d')),
    buyTransactions30d: count(s.buyTransactions30d, at('buyTransactions30d')),
    sellTransactions30d: count(s.sellTransactions30d, at('sellTransactions30d')),
    netShares30d: decimal(s.netShares30d, at('netShares30d')),
    netValue30d: decimal(s.netValue30d, at('netValue30d')),
    totalVolume30d: decimal(s.totalVolume30d, at('totalVolume30d')),
    avgTransactionSize: decimalOrNull(s.avgTransactionSize, at('avgTransactionSize')),
    discretionaryBuyValue: decimal(s.discretionaryBuyValue, at('discretionaryBuyValue')),
    discretionarySellValue: decimal(s.discretionarySellValue, at('discretionarySellValue')),
    distinctInsiders: count(s.distinctInsiders, at('distinctInsiders')),
    insiderSentiment: sentiment === null ? null : oneOf<InsiderSentiment>(sentiment, INSIDER_SENTIMENTS, at('insiderSentiment')),
    sentimentScore: decimalOrNull(s.sentimentScore, at('sentimentScore')),
    confidenceLevel: decimalOrNull(s.confidenceLevel, at('confidenceLevel')),
    percentileRank: decimalOrNull(s.percentileRank, at('percentileRank')),
    historyPercentile: decimalOrNull(s.historyPercentile, at('historyPercentile')),
    isClusterBuy: bool(s.isClusterBuy, at('isClusterBuy')),
    clusterInsiders: count(s.clusterInsiders, at('clusterInsiders')),
    isUnusualActivity: bool(s.isUnusualActivity, at('isUnusualActivity')),
    alertLevel: oneOf<InsiderAlertLevel>(s.alertLevel, INSIDER_ALERT_LEVELS, at('alertLevel')),
    alertReason: textOrNull(s.alertReason, at('alertReason')),
    reasonTransactionIds: list(s.reasonTransactionIds ?? [], at('reasonTransactionIds'), text),
  };
}

export function parseFollowSettings(value: unknown, where: string): InsiderFollowSettings {
  const s = record(value, where);
  const min = s.officerBuyMinValue ?? null;
  if (min !== null && (typeof min !== 'number' || !Number.isFinite(min))) fail(`${where}.officerBuyMinValue`, 'a number or null');
  return {
    notifyClusterBuy: bool(s.notifyClusterBuy, `${where}.notifyClusterBuy`),
    officerBuyMinValue: min,
    notifyUnusualActivity: bool(s.notifyUnusualActivity, `${where}.notifyUnusualActivity`),
  };
}

export function parseFollowView(value: unknown, where = 'follow'): InsiderFollowView {
  const s = record(value, where);
  return { company: parseCompanyRef(s.company, `${where}.company`), ...parseFollowSettings(s, where), createdAt: text(s.createdAt, `${where}.createdAt`) };
}

export function parseCompanyPage(body: unknown): InsiderCompanyPage {
  const s = record(body, 'company');
  const company = record(s.company, 'company.company');
  return {
    company: { ...parseCompanyRef(company, 'company.company'), industry: textOrNull(company.industry, 'company.industry'), sector: textOrNull(company.sector, 'company.sector') },
    latest: s.latest === null || s.latest === undefined ? null : parseAnalytics(s.latest, 'company.latest'),
    history: list(s.history, 'company.history', parseAnalytics),
    transactions: parseScreenerPage(s.transactions, 'company.transactions'),
    follow: s.follow === null || s.follow === undefined ? null : parseFollowSettings(s.follow, 'company.follow'),
    marketSymbol: textOrNull(s.marketSymbol, 'company.marketSymbol'),
  };
}

export function parseInsiderPage(body: unknown): InsiderPage {
  const s = record(body, 'insider');
  const insider = record(s.insider, 'insider.insider');
  return {
    insider: { cik: text(insider.cik, 'insider.cik'), name: text(insider.name, 'insider.name'), roles: roles(insider.roles, 'insider.roles') },
    companies: list(s.companies, 'insider.companies', (entry, at) => {
      const c = record(entry, at);
      return {
        ...parseCompanyRef(c, at),
        roles: roles(c.roles, `${at}.roles`),
        officerTitle: textOrNull(c.officerTitle, `${at}.officerTitle`),
        lastFiledAt: textOrNull(c.lastFiledAt, `${at}.lastFiledAt`),
      };
    }),
    transactions: parseScreenerPage(s.transactions, 'insider.transactions'),
  };
}

export function parseClusterBuys(body: unknown): InsiderClusterBuy[] {
  return list(body, 'clusterBuys', (entry, at) => {
    const s = record(entry, at);
    return {
      company: parseCompanyRef(s.company, `${at}.company`),
      analysisDate: text(s.analysisDate, `${at}.analysisDate`),
      clusterInsiders: count(s.clusterInsiders, `${at}.clusterInsiders`),
      discretionaryBuyValue: decimal(s.discretionaryBuyValue, `${at}.discretionaryBuyValue`),
      sentimentScore: decimalOrNull(s.sentimentScore, `${at}.sentimentScore`),
      alertReason: textOrNull(s.alertReason, `${at}.alertReason`),
      buyers: list(s.buyers, `${at}.buyers`, (buyer, where) => {
        const b = record(buyer, where);
        return { ...owner(b, where), roles: roles(b.roles, `${where}.roles`), value: decimal(b.value, `${where}.value`), lastBuyDate: text(b.lastBuyDate, `${where}.lastBuyDate`) };
      }),
      replay: s.replay === true,
    };
  });
}

// ---- Requests ----

/** The screener's query as the address bar and the api carry it (lists comma-separated). */
export function screenerParams(query: InsiderScreenerQuery): URLSearchParams {
  const params = new URLSearchParams();
  const set = (key: string, value: string | number | boolean | undefined) => {
    if (value !== undefined && value !== '' && value !== false) params.set(key, String(value));
  };
  set('filedFrom', query.filedFrom);
  set('filedTo', query.filedTo);
  set('tradedFrom', query.tradedFrom);
  set('tradedTo', query.tradedTo);
  if (query.codes?.length) params.set('codes', query.codes.join(','));
  set('minValue', query.minValue);
  if (query.roles?.length) params.set('roles', query.roles.join(','));
  set('ticker', query.ticker);
  set('insiderCik', query.insiderCik);
  set('clusterOnly', query.clusterOnly);
  set('exclude10b5One', query.exclude10b5One);
  set('table', query.table);
  set('sort', query.sort);
  set('order', query.order);
  set('limit', query.limit);
  set('cursor', query.cursor);
  set('format', query.format);
  return params;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The screener's query from the address bar: values the api would refuse are dropped, not sent. */
export function screenerQueryOf(params: URLSearchParams): InsiderScreenerQuery {
  const query: InsiderScreenerQuery = {};
  for (const key of ['filedFrom', 'filedTo', 'tradedFrom', 'tradedTo'] as const) {
    const value = params.get(key);
    if (value && DATE.test(value)) query[key] = value;
  }
  const codes = (params.get('codes') ?? '').split(',').filter((code): code is TransactionCode => (TRANSACTION_CODE_LIST as readonly string[]).includes(code));
  if (codes.length) query.codes = [...new Set(codes)];
  const min = Number(params.get('minValue') ?? '');
  if (params.get('minValue') && Number.isFinite(min) && min > 0) query.minValue = min;
  const roleList = (params.get('roles') ?? '').split(',').filter((role): role is InsiderRole => (INSIDER_ROLES as readonly string[]).includes(role));
  if (roleList.length) query.roles = [...new Set(roleList)];
  const ticker = (params.get('ticker') ?? '').trim().toUpperCase();
  if (/^[A-Z0-9][A-Z0-9.-]{0,19}$/.test(ticker)) query.ticker = ticker;
  if (params.get('clusterOnly') === 'true') query.clusterOnly = true;
  if (params.get('exclude10b5One') === 'true') query.exclude10b5One = true;
  const table = params.get('table');
  if (table === 'non-derivative' || table === 'derivative') query.table = table;
  const sort = params.get('sort');
  if ((INSIDER_SORT_KEYS as readonly string[]).includes(sort ?? '')) query.sort = sort as InsiderSortKey;
  const order = params.get('order');
  if (order === 'asc' || order === 'desc') query.order = order;
  return query;
}

export function screenerPath(query: InsiderScreenerQuery): string {
  const params = screenerParams(query).toString();
  return `/api/insiders/screener${params ? `?${params}` : ''}`;
}

/** The CSV export of the same filters and sort (every page, up to the api's cap). */
export function screenerCsvPath(query: InsiderScreenerQuery): string {
  const { cursor: _cursor, limit: _limit, ...rest } = query;
  return screenerPath({ ...rest, format: 'csv' });
}

export function getScreener(query: InsiderScreenerQuery, signal?: AbortSignal): Promise<InsiderScreenerPage> {
  return apiRequest(screenerPath(query), { signal, parse: (body) => parseScreenerPage(body) });
}

export function companyPagePath(ticker: string): string {
  return `/api/insiders/companies/${encodeURIComponent(ticker)}`;
}

export function getCompanyPage(ticker: string, signal?: AbortSignal): Promise<InsiderCompanyPage> {
  return apiRequest(companyPagePath(ticker), { signal, parse: parseCompanyPage });
}

export function getInsiderPage(cik: string, signal?: AbortSignal): Promise<InsiderPage> {
  return apiRequest(`/api/insiders/insiders/${encodeURIComponent(cik)}`, { signal, parse: parseInsiderPage });
}

export function getClusterBuys(signal?: AbortSignal): Promise<InsiderClusterBuy[]> {
  return apiRequest('/api/insiders/cluster-buys', { signal, parse: parseClusterBuys });
}

export function searchCompanies(q: string, signal?: AbortSignal): Promise<InsiderCompanyRef[]> {
  return apiRequest(`/api/insiders/companies?q=${encodeURIComponent(q.trim())}`, {
    signal,
    parse: (body) => list(body, 'companies', parseCompanyRef),
  });
}

export function getFollows(signal?: AbortSignal): Promise<InsiderFollowView[]> {
  return apiRequest('/api/insiders/follows', { signal, parse: (body) => list(body, 'follows', (entry, at) => parseFollowView(entry, at)) });
}

export function saveFollow(ticker: string, settings: InsiderFollowSettings): Promise<InsiderFollowView> {
  return sendWithCsrf(`/api/insiders/follows/${encodeURIComponent(ticker)}`, { method: 'PUT', body: settings, parse: (body) => parseFollowView(body) });
}

export function removeFollow(ticker: string): Promise<void> {
  return sendWithCsrf(`/api/insiders/follows/${encodeURIComponent(ticker)}`, { method: 'DELETE', parse: () => undefined });
}

// ---- Presets (OpenInsider's) ----

export interface ScreenerPreset {
  id: string;
  label: string;
  description: string;
  query: InsiderScreenerQuery;
}

export const SCREENER_PRESETS: readonly ScreenerPreset[] = [
  {
    id: 'latest-purchases',
    label: 'Latest purchases',
    description: 'Open-market purchases (code P), newest filings first.',
    query: { codes: ['P'], sort: 'filedAt', order: 'desc' },
  },
  {
    id: 'cluster-buys',
    label: 'Cluster buys',
    description: 'Purchases at companies where 3 or more insiders bought within 30 days.',
    query: { codes: ['P'], clusterOnly: true, sort: 'filedAt', order: 'desc' },
  },
  {
    id: 'officer-buys',
    label: 'Officer buys ≥ $25k',
    description: 'Purchases of $25,000 or more by officers and directors.',
    query: { codes: ['P'], roles: ['officer', 'director'], minValue: 25_000, sort: 'filedAt', order: 'desc' },
  },
];

/** The preset this query is exactly (filters and sort), if any. */
export function presetOf(query: InsiderScreenerQuery): ScreenerPreset | undefined {
  const key = (q: InsiderScreenerQuery) => screenerParams({ ...q, sort: q.sort ?? 'filedAt', order: q.order ?? 'desc', cursor: undefined, limit: undefined }).toString();
  return SCREENER_PRESETS.find((preset) => key(preset.query) === key(query));
}

// ---- Formatting ----

const USD_CENTS = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 4 });
const SHARES = new Intl.NumberFormat('en-US', { maximumFractionDigits: 4 });

/** A price per share: "$12.34", "$0.1234". */
export function formatPricePerShare(value: string | null): string {
  if (value === null) return '—';
  const n = Number(value);
  return Number.isFinite(n) ? signed(n, (v) => USD_CENTS.format(v)) : '—';
}

export function formatShares(value: string | null): string {
  if (value === null) return '—';
  const n = Number(value);
  return Number.isFinite(n) ? signed(n, (v) => SHARES.format(v)) : '—';
}

/** A score −100..+100 with its sign. */
export function formatScore(value: string | null): string {
  if (value === null) return '—';
  const n = Number(value);
  if (!Number.isFinite(n)) return '—';
  const shown = Math.abs(n).toFixed(0);
  return n > 0 ? `+${shown}` : n < 0 ? `${MINUS}${shown}` : '0';
}

const NEW_YORK_PARTS = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'America/New_York',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** When EDGAR accepted a filing, in New York time as EDGAR shows it: { date: '2025-03-17', time: '16:05 ET' }; the filing date alone when the time is unknown. */
export function filedParts(row: Pick<InsiderTradeRow, 'filedAt' | 'filingDate'>): { date: string; time: string | null } {
  if (row.filedAt) {
    const parts = Object.fromEntries(NEW_YORK_PARTS.formatToParts(new Date(row.filedAt)).map((part) => [part.type, part.value]));
    return { date: `${parts.year}-${parts.month}-${parts.day}`, time: `${parts.hour}:${parts.minute} ET` };
  }
  return { date: row.filingDate ?? '—', time: null };
}

/** "2025-03-17 16:05 ET", or the filing date alone. */
export function formatFiled(row: Pick<InsiderTradeRow, 'filedAt' | 'filingDate'>): string {
  const { date, time } = filedParts(row);
  return time ? `${date} ${time}` : date;
}

export const ROLE_LABELS: Readonly<Record<InsiderRole, string>> = { officer: 'Officer', director: 'Director', tenPercentOwner: '10% owner', other: 'Other' };

/** "CEO", "Director, 10% owner": the title when filed, else the roles. */
export function rolesText(row: { roles: readonly InsiderRole[]; officerTitle?: string | null }): string {
  const parts = row.roles.filter((role) => !(role === 'officer' && row.officerTitle)).map((role) => ROLE_LABELS[role]);
  if (row.officerTitle) parts.unshift(row.officerTitle);
  return parts.join(', ') || '—';
}

/** A word or two for the code on a narrow row (the full meaning is its tooltip). */
export const CODE_SHORT_LABELS: Readonly<Record<TransactionCode, string>> = {
  P: 'Buy',
  S: 'Sell',
  A: 'Grant',
  D: 'To issuer',
  F: 'Tax withheld',
  I: 'Discretionary',
  M: 'Exercise',
  C: 'Conversion',
  E: 'Expired',
  H: 'Expired',
  O: 'Exercise',
  X: 'Exercise',
  G: 'Gift',
  L: 'Small buy',
  W: 'Inherited',
  Z: 'Voting trust',
  J: 'Other',
  K: 'Swap',
  U: 'Tender',
  V: 'Voluntary',
};

export function codeShortLabel(code: string): string {
  return (CODE_SHORT_LABELS as Readonly<Record<string, string>>)[code] ?? code;
}

export function codeMeaning(code: string): string {
  return (TRANSACTION_CODES as Readonly<Record<string, string>>)[code] ?? 'Unknown code';
}

export const DATA_SOURCE_LABELS: Readonly<Record<InsiderDataSource, string>> = {
  sec: 'SEC EDGAR',
  'sec-replay': 'Recorded SEC filing (replay)',
  simulated: 'Simulated (a varied copy of a recorded filing)',
};

export const SENTIMENT_LABELS: Readonly<Record<InsiderSentiment, string>> = { bullish: 'Bullish', bearish: 'Bearish', neutral: 'Neutral' };
