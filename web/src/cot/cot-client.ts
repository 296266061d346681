// The COT (futures positioning) api: GET /api/cot/latest (screener) and
// GET /api/cot/instruments/:code/history. Shapes follow api/src/cot/cot.routes.ts; every value that
// the api leaves null before the analytics have run stays null here.
import { apiRequest, isRecord } from '../api/client';
import { sendWithCsrf } from '../session/auth-client';

export const COT_CATEGORIES = ['equity-index', 'currency', 'rates', 'crypto', 'volatility'] as const;
export type CotCategory = (typeof COT_CATEGORIES)[number];

export const COT_CATEGORY_LABELS: Readonly<Record<CotCategory, string>> = {
  'equity-index': 'Equity index',
  currency: 'Currency',
  rates: 'Rates',
  crypto: 'Crypto',
  volatility: 'Volatility',
};

/** The screener's sort keys, exactly the api's whitelist (anything else is a 400). */
export const COT_SORT_KEYS = [
  'name',
  'symbol',
  'cftcCode',
  'category',
  'reportDate',
  'openInterest',
  'leveragedNetPercent',
  'commercialNetPercent',
  'assetManagerNetPercent',
  'leveragedPercentileRank',
  'commercialPercentileRank',
  'assetManagerPercentileRank',
  'leveragedCotIndex',
  'commercialCotIndex',
  'assetManagerCotIndex',
  'divergenceScore',
] as const;
export type CotSortKey = (typeof COT_SORT_KEYS)[number];
export type SortOrder = 'asc' | 'desc';

/** The api's default order: ascending for text columns, descending for numbers. */
export function defaultOrder(sort: CotSortKey): SortOrder {
  return sort === 'name' || sort === 'symbol' || sort === 'cftcCode' || sort === 'category' ? 'asc' : 'desc';
}

/** Groups with a percentile rank, COT index and extreme flag. */
export const RANKED_GROUPS = ['leveraged', 'assetManager', 'commercial'] as const;
export type RankedGroup = (typeof RANKED_GROUPS)[number];
/** Groups with a net percent. */
export const NET_GROUPS = ['leveraged', 'assetManager', 'dealer', 'commercial', 'other', 'nonReportable'] as const;
export type NetGroup = (typeof NET_GROUPS)[number];
/** Groups as reported (commercial is derived). */
export const REPORTED_GROUPS = ['dealer', 'assetManager', 'leveraged', 'other', 'nonReportable'] as const;
export type ReportedGroup = (typeof REPORTED_GROUPS)[number];

export const GROUP_LABELS: Readonly<Record<NetGroup, string>> = {
  leveraged: 'Leveraged funds',
  assetManager: 'Asset managers',
  dealer: 'Dealers',
  commercial: 'Commercial',
  other: 'Other reportables',
  nonReportable: 'Non-reportables',
};

export const GROUP_SHORT_LABELS: Readonly<Record<NetGroup, string>> = {
  leveraged: 'Lev.',
  assetManager: 'AM',
  dealer: 'Dealer',
  commercial: 'Comm.',
  other: 'Other',
  nonReportable: 'Non-rep.',
};

export type ExtremeSide = 'long' | 'short';
export const ALERT_LEVELS = ['none', 'low', 'medium', 'high'] as const;
export type AlertLevel = (typeof ALERT_LEVELS)[number];

/** docs/cot.md, divergenceType. */
export const DIVERGENCE_LABELS: Readonly<Record<string, string>> = {
  leveraged_crowded_long_asset_managers_short: 'Leveraged crowded long, asset managers short',
  leveraged_crowded_short_asset_managers_long: 'Leveraged crowded short, asset managers long',
  both_crowded_long: 'Both crowded long',
  both_crowded_short: 'Both crowded short',
  leveraged_longer: 'Leveraged longer than asset managers',
  leveraged_shorter: 'Leveraged shorter than asset managers',
  aligned: 'Aligned',
};

export function divergenceLabel(type: string | null): string {
  if (type === null) return 'Not computed';
  return DIVERGENCE_LABELS[type] ?? type.replaceAll('_', ' ');
}

export interface CotInstrumentRef {
  cftcCode: string;
  name: string;
  symbol: string | null;
  category: string | null;
  exchange: string | null;
}

export interface CotAnalytics {
  reportDate: string;
  openInterest: number | null;
  netPercent: Record<NetGroup, number | null>;
  percentileRank: Record<RankedGroup, number | null>;
  cotIndex: Record<RankedGroup, number | null>;
  extremes: Record<RankedGroup, ExtremeSide | null>;
  divergence: { score: number | null; type: string | null; alertLevel: AlertLevel | null };
  /** Reports in the percentile window the analytics were computed with (the install's COT_LOOKBACK). */
  lookback: number | null;
  /** Fewer than 26 reports of history; null before the analytics have run. */
  provisional: boolean | null;
}

export interface CotLatestItem extends CotAnalytics {
  instrument: CotInstrumentRef;
}

export interface CotLatest {
  sort: CotSortKey;
  order: SortOrder;
  category: CotCategory | null;
  items: CotLatestItem[];
}

export interface GroupPositions {
  long: number | null;
  short: number | null;
  spreading: number | null;
}

export interface CotHistoryEntry extends CotAnalytics {
  positions: Record<ReportedGroup, GroupPositions>;
}

export interface CotHistory {
  instrument: CotInstrumentRef;
  weeks: number;
  history: CotHistoryEntry[];
}

// ---- Parsing ----

function fail(where: string, expected: string): never {
  throw new TypeError(`${where}: expected ${expected}`);
}

/** A number, or a numeric string (PostgreSQL bigint/numeric), or null. */
function numberOrNull(value: unknown, where: string): number | null {
  if (value === null || value === undefined) return null;
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number)) fail(where, 'a number or null');
  return number;
}

function textOrNull(value: unknown, where: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') fail(where, 'text or null');
  return value;
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string') fail(where, 'text');
  return value;
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (!isRecord(value)) fail(where, 'an object');
  return value;
}

function numbersOf<K extends string>(value: unknown, keys: readonly K[], where: string): Record<K, number | null> {
  const source = record(value, where);
  const out = {} as Record<K, number | null>;
  for (const key of keys) out[key] = numberOrNull(source[key], `${where}.${key}`);
  return out;
}

function parseInstrument(value: unknown, where: string): CotInstrumentRef {
  const source = record(value, where);
  return {
    cftcCode: text(source.cftcCode, `${where}.cftcCode`),
    name: text(source.name, `${where}.name`),
    symbol: textOrNull(source.symbol, `${where}.symbol`),
    category: textOrNull(source.category, `${where}.category`),
    exchange: textOrNull(source.exchange, `${where}.exchange`),
  };
}

function parseSide(value: unknown, where: string): ExtremeSide | null {
  if (value === null || value === undefined) return null;
  if (value !== 'long' && value !== 'short') fail(where, '"long", "short" or null');
  return value;
}

function parseAnalytics(value: unknown, where: string): CotAnalytics {
  const source = record(value, where);
  const extremes = record(source.extremes, `${where}.extremes`);
  const divergence = record(source.divergence, `${where}.divergence`);
  const alertLevel = divergence.alertLevel ?? null;
  if (alertLevel !== null && !ALERT_LEVELS.includes(alertLevel as AlertLevel)) fail(`${where}.divergence.alertLevel`, 'none/low/medium/high');
  const provisional = source.provisional ?? null;
  if (provisional !== null && typeof provisional !== 'boolean') fail(`${where}.provisional`, 'a boolean or null');
  const netPercent = numbersOf(source.netPercent, NET_GROUPS, `${where}.netPercent`);
  return {
    reportDate: text(source.reportDate, `${where}.reportDate`),
    openInterest: numberOrNull(source.openInterest, `${where}.openInterest`),
    netPercent,
    percentileRank: numbersOf(source.percentileRank, RANKED_GROUPS, `${where}.percentileRank`),
    cotIndex: numbersOf(source.cotIndex, RANKED_GROUPS, `${where}.cotIndex`),
    extremes: {
      leveraged: parseSide(extremes.leveraged, `${where}.extremes.leveraged`),
      assetManager: parseSide(extremes.assetManager, `${where}.extremes.assetManager`),
      commercial: parseSide(extremes.commercial, `${where}.extremes.commercial`),
    },
    divergence: {
      score: numberOrNull(divergence.score, `${where}.divergence.score`),
      type: textOrNull(divergence.type, `${where}.divergence.type`),
      alertLevel: alertLevel as AlertLevel | null,
    },
    lookback: numberOrNull(source.lookback, `${where}.lookback`),
    provisional: provisional as boolean | null,
  };
}

export function parseCotLatest(body: unknown): CotLatest {
  const source = record(body, 'latest');
  if (!COT_SORT_KEYS.includes(source.sort as CotSortKey)) fail('latest.sort', 'a sort key');
  if (source.order !== 'asc' && source.order !== 'desc') fail('latest.order', '"asc" or "desc"');
  const category = source.category ?? null;
  if (category !== null && !COT_CATEGORIES.includes(category as CotCategory)) fail('latest.category', 'a category or null');
  if (!Array.isArray(source.items)) fail('latest.items', 'a list');
  return {
    sort: source.sort as CotSortKey,
    order: source.order,
    category: category as CotCategory | null,
    items: source.items.map((item: unknown, index) => {
      const where = `latest.items[${index}]`;
      return { instrument: parseInstrument(record(item, where).instrument, `${where}.instrument`), ...parseAnalytics(item, where) };
    }),
  };
}

function parsePositions(value: unknown, where: string): Record<ReportedGroup, GroupPositions> {
  const source = record(value, where);
  const out = {} as Record<ReportedGroup, GroupPositions>;
  for (const group of REPORTED_GROUPS) {
    const numbers = numbersOf(source[group], ['long', 'short', 'spreading'] as const, `${where}.${group}`);
    out[group] = numbers;
  }
  return out;
}

export function parseCotHistory(body: unknown): CotHistory {
  const source = record(body, 'history');
  const weeks = numberOrNull(source.weeks, 'history.weeks');
  if (weeks === null) fail('history.weeks', 'a number');
  if (!Array.isArray(source.history)) fail('history.history', 'a list');
  return {
    instrument: parseInstrument(source.instrument, 'history.instrument'),
    weeks,
    history: source.history.map((entry: unknown, index) => {
      const where = `history.history[${index}]`;
      return { ...parseAnalytics(entry, where), positions: parsePositions(record(entry, where).positions, `${where}.positions`) };
    }),
  };
}

// ---- Requests ----

export interface CotLatestQuery {
  sort: CotSortKey;
  /** Omitted: the api's default for the column. */
  order?: SortOrder;
  /** Omitted: every category. */
  category?: CotCategory;
}

/** The screener query string, only with the parameters the api accepts. */
export function cotLatestPath(query: CotLatestQuery): string {
  const params = new URLSearchParams({ sort: query.sort });
  if (query.order) params.set('order', query.order);
  if (query.category) params.set('category', query.category);
  return `/api/cot/latest?${params.toString()}`;
}

export function getCotLatest(query: CotLatestQuery, signal?: AbortSignal): Promise<CotLatest> {
  return apiRequest(cotLatestPath(query), { signal, parse: parseCotLatest });
}

/** Chart ranges of the instrument page; "all" asks for the api's maximum (20 years of weekly reports). */
export const COT_RANGES = ['26', '52', '156', 'all'] as const;
export type CotRange = (typeof COT_RANGES)[number];
export const COT_MAX_WEEKS = 1040;
export const COT_RANGE_LABELS: Readonly<Record<CotRange, string>> = { '26': '26 weeks', '52': '52 weeks', '156': '156 weeks', all: 'All history' };

export function weeksOfRange(range: CotRange): number {
  return range === 'all' ? COT_MAX_WEEKS : Number(range);
}

export function cotHistoryPath(code: string, range: CotRange): string {
  return `/api/cot/instruments/${encodeURIComponent(code)}/history?weeks=${weeksOfRange(range)}`;
}

export function getCotHistory(code: string, range: CotRange, signal?: AbortSignal): Promise<CotHistory> {
  return apiRequest(cotHistoryPath(code, range), { signal, parse: parseCotHistory });
}

// ---- Formatting ----

const MINUS = '−';

/** "−3.17%", "+29.56%", "—" for null. */
export function formatSignedPercent(value: number | null): string {
  if (value === null) return '—';
  const fixed = Math.abs(value).toFixed(2);
  return `${value < 0 ? MINUS : value > 0 ? '+' : ''}${fixed}%`;
}

/** Percentile ranks and indexes: "90.91", "100", "—". */
export function formatRank(value: number | null): string {
  if (value === null) return '—';
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** Contracts with thousands separators and a real minus sign. */
export function formatContracts(value: number | null): string {
  if (value === null) return '—';
  const formatted = GROUPED.format(Math.abs(value));
  return value < 0 ? `${MINUS}${formatted}` : formatted;
}

/** Net contracts (long − short), null when either side is missing. */
export function netContracts(positions: GroupPositions): number | null {
  return positions.long === null || positions.short === null ? null : positions.long - positions.short;
}

export function categoryLabel(category: string | null): string {
  if (category === null) return '—';
  return COT_CATEGORY_LABELS[category as CotCategory] ?? category;
}

const COMPACT = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });

/** Axis ticks: "2.4M", "−150K". */
export function formatCompact(value: number): string {
  const formatted = COMPACT.format(Math.abs(value));
  return value < 0 ? `${MINUS}${formatted}` : formatted;
}

/** Divergence scores: "−93.94", "+27.27", "0". */
export function formatSigned(value: number | null): string {
  if (value === null) return '—';
  const text = formatRank(Math.abs(value));
  return value < 0 ? `${MINUS}${text}` : value > 0 ? `+${text}` : text;
}

/**
 * The market part of a CFTC name: "E-MINI S&P 500 - CHICAGO MERCANTILE EXCHANGE" is
 * "E-MINI S&P 500" when the exchange is shown beside it. Names without that suffix stay whole.
 */
export function marketName(instrument: Pick<CotInstrumentRef, 'name' | 'exchange'>): string {
  const suffix = instrument.exchange ? ` - ${instrument.exchange}` : null;
  return suffix && instrument.name.endsWith(suffix) && instrument.name.length > suffix.length ? instrument.name.slice(0, -suffix.length) : instrument.name;
}

const ALERT_LABELS: Readonly<Record<AlertLevel, string>> = { none: 'No alert', low: 'Low alert', medium: 'Medium alert', high: 'High alert' };

export function alertLabel(level: AlertLevel): string {
  return ALERT_LABELS[level];
}

/** The signed-in user's followed instruments (GET /api/cot/follows): their CFTC codes. */
export async function getCotFollowCodes(signal?: AbortSignal): Promise<string[]> {
  return apiRequest('/api/cot/follows', {
    signal,
    parse: (body) => {
      if (!isRecord(body) || !Array.isArray(body.items)) throw new Error('unexpected follows response');
      return body.items.flatMap((item) => (isRecord(item) && typeof item.cftcCode === 'string' ? [item.cftcCode] : []));
    },
  });
}

/** Follows or unfollows an instrument (idempotent on the api); answers the new state. */
export async function setCotFollow(code: string, follow: boolean): Promise<boolean> {
  return sendWithCsrf(`/api/cot/instruments/${encodeURIComponent(code)}/follow`, {
    method: follow ? 'PUT' : 'DELETE',
    parse: (body) => {
      if (!isRecord(body) || typeof body.following !== 'boolean') throw new Error('unexpected follow response');
      return body.following;
    },
  });
}
