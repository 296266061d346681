// The COT (futures positioning) api: GET /api/cot/latest (screener) and
// GET /api/cot/instruments/:code/history, shaped as @tickerbell/jobs/cot/shapes; every value that
// the api leaves null before the analytics have run stays null here.
import {
  ALERT_LEVELS,
  COT_CATEGORIES,
  COT_HISTORY_WEEKS,
  COT_SORT_KEYS,
  COT_TEXT_SORT_KEYS,
  NET_GROUPS,
  RANKED_GROUPS,
  REPORTED_GROUPS,
  type AlertLevel,
  type CotAnalyticsView,
  type CotCategory,
  type CotGroupPositions,
  type CotHistory as ClientCotHistory,
  type CotHistoryEntry as ClientCotHistoryEntry,
  type CotInstrumentRef,
  type CotLatestQuery as ClientCotLatestQuery,
  type CotDataStatus,
  type CotLatestResponse,
  type CotSortKey,
  type CotSortOrder,
  type DivergenceType,
  type ExtremeSide,
  type NetGroup,
  type RankedGroup,
  type ReportedGroup,
} from '@tickerbell/jobs/cot/shapes';
import { apiRequest, isRecord } from '../api/client';
import { sendWithCsrf } from '../accounts/auth-client';

export const COT_CATEGORY_LABELS: Readonly<Record<CotCategory, string>> = {
  'equity-index': 'Equity index',
  currency: 'Currency',
  rates: 'Rates',
  crypto: 'Crypto',
  volatility: 'Volatility',
};

/** The api's default order: ascending for text columns, descending for numbers. */
export function defaultOrder(sort: CotSortKey): CotSortOrder {
  return (COT_TEXT_SORT_KEYS as readonly string[]).includes(sort) ? 'asc' : 'desc';
}

/** The order the screens list the ranked groups in. */
export const RANKED_GROUPS_SHOWN = ['leveraged', 'assetManager', 'commercial'] as const satisfies readonly RankedGroup[];

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

/** docs/cot.md, divergenceType. */
export const DIVERGENCE_LABELS: Readonly<Record<DivergenceType, string>> = {
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
  return (DIVERGENCE_LABELS as Readonly<Record<string, string>>)[type] ?? type.replaceAll('_', ' ');
}

/** A group's contracts, spreading null where the report has none. */
export type GroupPositions = Required<CotGroupPositions>;

export type CotHistoryEntry = Omit<ClientCotHistoryEntry, 'positions'> & { positions: Record<ReportedGroup, GroupPositions> };

export type CotHistory = Omit<ClientCotHistory, 'history'> & { history: CotHistoryEntry[] };

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

function parseAnalytics(value: unknown, where: string): CotAnalyticsView {
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
      type: textOrNull(divergence.type, `${where}.divergence.type`) as DivergenceType | null,
      alertLevel: alertLevel as AlertLevel | null,
    },
    lookback: numberOrNull(source.lookback, `${where}.lookback`),
    provisional: provisional as boolean | null,
  };
}

export function parseCotLatest(body: unknown): CotLatestResponse {
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
    data: parseDataStatus(source.data),
  };
}

/** The data's status; an older api without it answers as live, current data of unknown date. */
function parseDataStatus(value: unknown): CotDataStatus {
  if (value === undefined) return { latestReportDate: null, sample: false, stale: false };
  const source = record(value, 'latest.data');
  const date = source.latestReportDate ?? null;
  if (date !== null && (typeof date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(date))) fail('latest.data.latestReportDate', 'a date or null');
  return { latestReportDate: date as string | null, sample: source.sample === true, stale: source.stale === true };
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

/** The screener's query: a sort always, the order and category when chosen. */
export type CotLatestQuery = ClientCotLatestQuery & { sort: CotSortKey };

/** The screener query string, only with the parameters the api accepts. */
export function cotLatestPath(query: CotLatestQuery): string {
  const params = new URLSearchParams({ sort: query.sort });
  if (query.order) params.set('order', query.order);
  if (query.category) params.set('category', query.category);
  return `/api/cot/latest?${params.toString()}`;
}

export function getCotLatest(query: CotLatestQuery, signal?: AbortSignal): Promise<CotLatestResponse> {
  return apiRequest(cotLatestPath(query), { signal, parse: parseCotLatest });
}

/** Chart ranges of the instrument page; "all" asks for the api's maximum (20 years of weekly reports). */
export const COT_RANGES = ['26', '52', '156', 'all'] as const;
export type CotRange = (typeof COT_RANGES)[number];
export const COT_MAX_WEEKS = COT_HISTORY_WEEKS.max;
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
