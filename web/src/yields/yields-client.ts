// The yields api (/api/yields/...): the pools table, a pool's page and series, the public top
// pools, the signed-in user's yield alerts and their history. Shaped as
// @tickerbell/jobs/yields/shapes; money and percentages stay decimal strings until drawn.
import {
  YIELD_ALERT_CONDITIONS,
  YIELD_ALERT_KINDS,
  YIELD_ALERT_TYPES,
  YIELD_APR_SOURCES,
  YIELD_DATA_SOURCES,
  YIELD_POOL_SORTS,
  YIELD_SCORE_COMPONENTS,
  YIELD_SPIKE_UNITS,
  type YieldAlertCondition,
  type YieldAlertHistoryPage,
  type YieldAlertHistoryQuery,
  type YieldAlertInput,
  type YieldAlertKind,
  type YieldAlertLogView,
  type YieldAlertPatch,
  type YieldAlertType,
  type YieldAlertView,
  type YieldAlertsPage,
  type YieldPoolDetail,
  type YieldPoolPage,
  type YieldPoolRow,
  type YieldPoolSort,
  type YieldPoolsPage,
  type YieldPoolsQuery,
  type YieldPrediction,
  type YieldScoreBreakdown,
  type YieldScoreComponent,
  type YieldSeriesPage,
  type YieldSeriesPoint,
  type YieldSnapshotView,
  type YieldSourceHealthView,
  type YieldTopPage,
  type YieldTopPool,
  type YieldsSourceView,
} from '@tickerbell/jobs/yields/shapes';
import { apiRequest } from '../api/client';
import { at, bool, boolOrNull, count, decimal, decimalOrNull, list, num, numOrNull, oneOf, record, text, textOrNull } from '../api/answer';
import { sendWithCsrf } from '../accounts/auth-client';
import { MINUS, formatUsd, formatUsdCompact } from '../format/usd';

export { formatUsd, formatUsdCompact };

// ---- Where the screens live ----

export const YIELDS_POOLS_PATH = '/dashboard/yields';
export const YIELDS_ALERTS_PATH = '/dashboard/yields/alerts';
export const YIELDS_RESEARCH_PATH = '/research/yields';
/** The settings screen's Telegram panel (where a chat is linked). */
export const TELEGRAM_SETTINGS_PATH = '/dashboard/settings#telegram';

export function yieldPoolPath(id: number): string {
  return `${YIELDS_POOLS_PATH}/pools/${id}`;
}

// ---- Parsing ----

function parseHealth(value: unknown, where: string): YieldSourceHealthView {
  const s = record(value, where);
  const k = at(where);
  return {
    source: text(s.source, k('source')),
    lastSuccessAt: textOrNull(s.lastSuccessAt, k('lastSuccessAt')),
    lastErrorAt: textOrNull(s.lastErrorAt, k('lastErrorAt')),
    lastError: textOrNull(s.lastError, k('lastError')),
    consecutiveFailures: count(s.consecutiveFailures, k('consecutiveFailures')),
  };
}

export function parseSource(value: unknown, where = 'source'): YieldsSourceView {
  const s = record(value, where);
  const k = at(where);
  return {
    kind: oneOf(s.kind, ['live', 'replay'] as const, k('kind')),
    lastSnapshotAt: textOrNull(s.lastSnapshotAt, k('lastSnapshotAt')),
    poolsKnown: count(s.poolsKnown, k('poolsKnown')),
    poolsTracked: count(s.poolsTracked, k('poolsTracked')),
    sources: list(s.sources, k('sources'), parseHealth),
    note: text(s.note, k('note')),
  };
}

export function parsePoolRow(value: unknown, where = 'pool'): YieldPoolRow {
  const s = record(value, where);
  const k = at(where);
  const aprSource = s.aprSource ?? null;
  return {
    id: count(s.id, k('id')),
    poolId: text(s.poolId, k('poolId')),
    chain: text(s.chain, k('chain')),
    dex: text(s.dex, k('dex')),
    symbol: text(s.symbol, k('symbol')),
    feeTier: s.feeTier === null || s.feeTier === undefined ? null : count(s.feeTier, k('feeTier')),
    stablecoin: bool(s.stablecoin, k('stablecoin')),
    ilRisk: textOrNull(s.ilRisk, k('ilRisk')),
    exposure: textOrNull(s.exposure, k('exposure')),
    tracked: bool(s.tracked, k('tracked')),
    tvlUsd: decimalOrNull(s.tvlUsd, k('tvlUsd')),
    apr: decimalOrNull(s.apr, k('apr')),
    aprSource: aprSource === null ? null : oneOf(aprSource, YIELD_APR_SOURCES, k('aprSource')),
    defillamaApy: decimalOrNull(s.defillamaApy, k('defillamaApy')),
    aprDisagrees: boolOrNull(s.aprDisagrees, k('aprDisagrees')),
    vtr: decimalOrNull(s.vtr, k('vtr')),
    yieldScore: decimalOrNull(s.yieldScore, k('yieldScore')),
    asOf: textOrNull(s.asOf, k('asOf')),
  };
}

export function parsePoolsPage(body: unknown): YieldPoolsPage {
  const s = record(body, 'pools');
  return { rows: list(s.rows, 'pools.rows', parsePoolRow), nextCursor: textOrNull(s.nextCursor, 'pools.nextCursor'), source: parseSource(s.source, 'pools.source') };
}

function parseComponent(value: unknown, where: string): YieldScoreComponent {
  const s = record(value, where);
  const k = at(where);
  return {
    name: oneOf(s.name, YIELD_SCORE_COMPONENTS, k('name')),
    label: text(s.label, k('label')),
    weight: num(s.weight, k('weight')),
    input: numOrNull(s.input, k('input')),
    score: numOrNull(s.score, k('score')),
    points: num(s.points, k('points')),
    explanation: text(s.explanation, k('explanation')),
  };
}

export function parseScore(value: unknown, where = 'score'): YieldScoreBreakdown | null {
  if (value === null || value === undefined) return null;
  const s = record(value, where);
  return { total: numOrNull(s.total, `${where}.total`), components: list(s.components, `${where}.components`, parseComponent) };
}

function parsePrediction(value: unknown, where: string): YieldPrediction | null {
  if (value === null || value === undefined) return null;
  const s = record(value, where);
  const k = at(where);
  return {
    predictedClass: textOrNull(s.predictedClass, k('predictedClass')),
    predictedProbability: numOrNull(s.predictedProbability, k('predictedProbability')),
    binnedConfidence: numOrNull(s.binnedConfidence, k('binnedConfidence')),
  };
}

function parseSnapshot(value: unknown, where: string): YieldSnapshotView {
  const s = record(value, where);
  const k = at(where);
  const d = (key: keyof YieldSnapshotView) => decimalOrNull(s[key], k(key));
  const aprSource = s.aprSource ?? null;
  return {
    id: text(s.id, k('id')),
    timestamp: text(s.timestamp, k('timestamp')),
    dataSource: oneOf(s.dataSource, YIELD_DATA_SOURCES, k('dataSource')),
    tvlUsd: d('tvlUsd'),
    volumeUsd: d('volumeUsd'),
    volumeUsd7d: d('volumeUsd7d'),
    feesUsd: d('feesUsd'),
    apr: d('apr'),
    aprSource: aprSource === null ? null : oneOf(aprSource, YIELD_APR_SOURCES, k('aprSource')),
    feeApr24h: d('feeApr24h'),
    feeApr7d: d('feeApr7d'),
    feeApr30d: d('feeApr30d'),
    vtr: d('vtr'),
    yieldScore: d('yieldScore'),
    defillamaApy: d('defillamaApy'),
    apyBase: d('apyBase'),
    apyReward: d('apyReward'),
    apyMean30d: d('apyMean30d'),
    aprMean30d: d('aprMean30d'),
    aprSigma30d: d('aprSigma30d'),
    mu: d('mu'),
    sigma: d('sigma'),
    outlier: boolOrNull(s.outlier, k('outlier')),
    il7d: d('il7d'),
    aprDisagrees: boolOrNull(s.aprDisagrees, k('aprDisagrees')),
    prediction: parsePrediction(s.prediction, k('prediction')),
    score: parseScore(s.score, k('score')),
  };
}

function parsePoolDetail(value: unknown, where: string): YieldPoolDetail {
  const s = record(value, where);
  const k = at(where);
  return {
    ...parsePoolRow(value, where),
    token0: text(s.token0, k('token0')),
    token1: text(s.token1, k('token1')),
    token0Symbol: text(s.token0Symbol, k('token0Symbol')),
    token1Symbol: text(s.token1Symbol, k('token1Symbol')),
    underlyingTokens: list(s.underlyingTokens, k('underlyingTokens'), text),
    poolAddress: textOrNull(s.poolAddress, k('poolAddress')),
    poolMeta: textOrNull(s.poolMeta, k('poolMeta')),
    isActive: bool(s.isActive, k('isActive')),
  };
}

export function parseSeriesPoint(value: unknown, where: string): YieldSeriesPoint {
  const s = record(value, where);
  const k = at(where);
  return {
    timestamp: text(s.timestamp, k('timestamp')),
    tvlUsd: decimalOrNull(s.tvlUsd, k('tvlUsd')),
    volumeUsd: decimalOrNull(s.volumeUsd, k('volumeUsd')),
    feesUsd: decimalOrNull(s.feesUsd, k('feesUsd')),
    apr: decimalOrNull(s.apr, k('apr')),
    feeApr24h: decimalOrNull(s.feeApr24h, k('feeApr24h')),
    defillamaApy: decimalOrNull(s.defillamaApy, k('defillamaApy')),
    yieldScore: decimalOrNull(s.yieldScore, k('yieldScore')),
    dataSource: oneOf(s.dataSource, YIELD_DATA_SOURCES, k('dataSource')),
  };
}

export function parseAlertView(value: unknown, where = 'alert'): YieldAlertView {
  const s = record(value, where);
  const k = at(where);
  const pool = record(s.pool, k('pool'));
  const spikeUnit = s.spikeUnit ?? null;
  return {
    id: count(s.id, k('id')),
    poolId: count(s.poolId, k('poolId')),
    pool: {
      id: count(pool.id, k('pool.id')),
      poolId: text(pool.poolId, k('pool.poolId')),
      symbol: text(pool.symbol, k('pool.symbol')),
      chain: text(pool.chain, k('pool.chain')),
      dex: text(pool.dex, k('pool.dex')),
    },
    alertType: oneOf(s.alertType, YIELD_ALERT_TYPES, k('alertType')),
    condition: oneOf(s.condition, YIELD_ALERT_CONDITIONS, k('condition')),
    kind: oneOf(s.kind, YIELD_ALERT_KINDS, k('kind')),
    threshold: decimal(s.threshold, k('threshold')),
    spikeUnit: spikeUnit === null ? null : oneOf(spikeUnit, YIELD_SPIKE_UNITS, k('spikeUnit')),
    windowHours: s.windowHours === null || s.windowHours === undefined ? null : count(s.windowHours, k('windowHours')),
    cooldownMinutes: count(s.cooldownMinutes, k('cooldownMinutes')),
    isActive: bool(s.isActive, k('isActive')),
    emailEnabled: bool(s.emailEnabled, k('emailEnabled')),
    telegramEnabled: bool(s.telegramEnabled, k('telegramEnabled')),
    armed: bool(s.armed, k('armed')),
    hysteresisMargin: decimal(s.hysteresisMargin, k('hysteresisMargin')),
    lastTriggered: textOrNull(s.lastTriggered, k('lastTriggered')),
    description: text(s.description, k('description')),
    createdAt: text(s.createdAt, k('createdAt')),
    updatedAt: text(s.updatedAt, k('updatedAt')),
  };
}

export function parsePoolPage(body: unknown): YieldPoolPage {
  const s = record(body, 'page');
  return {
    pool: parsePoolDetail(s.pool, 'page.pool'),
    latest: s.latest === null || s.latest === undefined ? null : parseSnapshot(s.latest, 'page.latest'),
    series: list(s.series, 'page.series', parseSeriesPoint),
    alerts: list(s.alerts, 'page.alerts', parseAlertView),
    source: parseSource(s.source, 'page.source'),
  };
}

export function parseSeriesPage(body: unknown): YieldSeriesPage {
  const s = record(body, 'series');
  return { poolId: count(s.poolId, 'series.poolId'), days: count(s.days, 'series.days'), points: list(s.points, 'series.points', parseSeriesPoint) };
}

export function parseTopPage(body: unknown): YieldTopPage {
  const s = record(body, 'top');
  return {
    rows: list(s.rows, 'top.rows', (entry, where): YieldTopPool => ({ ...parsePoolRow(entry, where), score: parseScore(record(entry, where).score, `${where}.score`) })),
    source: parseSource(s.source, 'top.source'),
  };
}

export function parseAlertsPage(body: unknown): YieldAlertsPage {
  const s = record(body, 'alerts');
  const channels = record(s.channels, 'alerts.channels');
  return {
    rows: list(s.rows, 'alerts.rows', parseAlertView),
    channels: { email: bool(channels.email, 'alerts.channels.email'), telegram: bool(channels.telegram, 'alerts.channels.telegram') },
  };
}

function parseLog(value: unknown, where: string): YieldAlertLogView {
  const s = record(value, where);
  const k = at(where);
  return {
    id: count(s.id, k('id')),
    alertId: count(s.alertId, k('alertId')),
    poolId: count(s.poolId, k('poolId')),
    poolSymbol: text(s.poolSymbol, k('poolSymbol')),
    kind: oneOf(s.kind, YIELD_ALERT_KINDS, k('kind')),
    triggeredAt: text(s.triggeredAt, k('triggeredAt')),
    triggeredValue: decimal(s.triggeredValue, k('triggeredValue')),
    threshold: decimal(s.threshold, k('threshold')),
    yieldDataId: textOrNull(s.yieldDataId, k('yieldDataId')),
    message: text(s.message, k('message')),
    emailSent: bool(s.emailSent, k('emailSent')),
    telegramSent: bool(s.telegramSent, k('telegramSent')),
  };
}

export function parseHistoryPage(body: unknown): YieldAlertHistoryPage {
  const s = record(body, 'history');
  return { rows: list(s.rows, 'history.rows', parseLog), nextCursor: textOrNull(s.nextCursor, 'history.nextCursor') };
}

// ---- The pools table's query (in the address bar) ----

const SORTS: readonly string[] = YIELD_POOL_SORTS;

/** The table's filters from the address bar: values the api would refuse are dropped, not sent. */
export function poolsQueryOf(params: URLSearchParams): YieldPoolsQuery {
  const query: YieldPoolsQuery = {};
  const name = (key: string, max: number) => {
    const value = (params.get(key) ?? '').trim();
    return value && value.length <= max && /^[\p{L}\p{N} ._()+-]+$/u.test(value) ? value : undefined;
  };
  query.chain = name('chain', 40);
  query.dex = name('dex', 60);
  const token = (params.get('token') ?? '').trim();
  if (/^(0x[0-9a-fA-F]{40}|[\p{L}\p{N}._+-]{1,30})$/u.test(token)) query.token = token;
  if (params.get('stablecoin') === 'true') query.stablecoin = true;
  const minTvl = params.get('minTvl') ?? '';
  if (/^\d{1,20}(\.\d{1,2})?$/.test(minTvl) && Number(minTvl) > 0) query.minTvl = Number(minTvl);
  const sort = params.get('sort') ?? '';
  if (SORTS.includes(sort) && sort !== 'tvl') query.sort = sort as YieldPoolSort;
  for (const key of Object.keys(query) as (keyof YieldPoolsQuery)[]) if (query[key] === undefined) delete query[key];
  return query;
}

export function poolsParams(query: YieldPoolsQuery): URLSearchParams {
  const params = new URLSearchParams();
  const set = (key: string, value: string | number | boolean | undefined) => {
    if (value !== undefined && value !== '' && value !== false) params.set(key, String(value));
  };
  set('chain', query.chain);
  set('dex', query.dex);
  set('token', query.token);
  set('stablecoin', query.stablecoin);
  set('minTvl', query.minTvl);
  set('sort', query.sort);
  set('cursor', query.cursor);
  set('limit', query.limit);
  return params;
}

function withQuery(path: string, params: URLSearchParams): string {
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

// ---- Requests ----

export function getPools(query: YieldPoolsQuery, signal?: AbortSignal): Promise<YieldPoolsPage> {
  return apiRequest(withQuery('/api/yields/pools', poolsParams(query)), { signal, parse: parsePoolsPage });
}

export function getPool(id: number, signal?: AbortSignal): Promise<YieldPoolPage> {
  return apiRequest(`/api/yields/pools/${id}`, { signal, parse: parsePoolPage });
}

export function getPoolSeries(id: number, days: number, signal?: AbortSignal): Promise<YieldSeriesPage> {
  return apiRequest(`/api/yields/pools/${id}/series?days=${days}`, { signal, parse: parseSeriesPage });
}

export function getTopPools(limit = 20, signal?: AbortSignal): Promise<YieldTopPage> {
  return apiRequest(`/api/yields/top?limit=${limit}`, { signal, parse: parseTopPage });
}

export function getYieldAlerts(signal?: AbortSignal): Promise<YieldAlertsPage> {
  return apiRequest('/api/yields/alerts', { signal, parse: parseAlertsPage });
}

export function getAlertHistory(query: YieldAlertHistoryQuery, signal?: AbortSignal): Promise<YieldAlertHistoryPage> {
  const params = new URLSearchParams();
  if (query.alertId !== undefined) params.set('alertId', String(query.alertId));
  if (query.cursor) params.set('cursor', query.cursor);
  if (query.limit !== undefined) params.set('limit', String(query.limit));
  return apiRequest(withQuery('/api/yields/alerts/history', params), { signal, parse: parseHistoryPage });
}

export function createYieldAlert(input: YieldAlertInput): Promise<YieldAlertView> {
  return sendWithCsrf('/api/yields/alerts', { method: 'POST', body: input, parse: (body) => parseAlertView(body) });
}

export function updateYieldAlert(id: number, patch: YieldAlertPatch): Promise<YieldAlertView> {
  return sendWithCsrf(`/api/yields/alerts/${id}`, { method: 'PATCH', body: patch, parse: (body) => parseAlertView(body) });
}

export function deleteYieldAlert(id: number): Promise<void> {
  return sendWithCsrf(`/api/yields/alerts/${id}`, { method: 'DELETE', parse: () => undefined });
}

// ---- Alert kinds ----

/** The five kinds, as (type, condition). */
export const KIND_DEFINITIONS: Readonly<Record<YieldAlertKind, { alertType: YieldAlertType; condition: YieldAlertCondition }>> = {
  apr_above: { alertType: 'apr', condition: 'greater_than' },
  apr_below: { alertType: 'apr', condition: 'less_than' },
  apy_spike: { alertType: 'apy_spike', condition: 'greater_than' },
  tvl_drop: { alertType: 'tvl_drop', condition: 'greater_than' },
  vtr_above: { alertType: 'vtr', condition: 'greater_than' },
};

export const KIND_LABELS: Readonly<Record<YieldAlertKind, string>> = {
  apr_above: 'APR rises above',
  apr_below: 'APR falls below',
  apy_spike: 'APR spikes over its 30-day mean',
  tvl_drop: 'TVL drops by',
  vtr_above: 'Volume / TVL rises above',
};

/** Short names, for tables. */
export const KIND_SHORT: Readonly<Record<YieldAlertKind, string>> = {
  apr_above: 'APR above',
  apr_below: 'APR below',
  apy_spike: 'APR spike',
  tvl_drop: 'TVL drop',
  vtr_above: 'Volume/TVL',
};

// ---- Formatting ----

const NBSP = '\u00a0';

function finite(value: string | number | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

const PCT_SMALL = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const PCT_LARGE = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** "12.35 %", "1,250 %", "−3.10 %"; "—" when unknown. */
export function formatPercent(value: string | number | null | undefined): string {
  const n = finite(value);
  if (n === null) return '—';
  const magnitude = Math.abs(n);
  const shown = magnitude >= 1000 ? PCT_LARGE.format(magnitude) : PCT_SMALL.format(magnitude);
  return `${n < 0 ? MINUS : ''}${shown}${NBSP}%`;
}

/** Daily volume / TVL: "0.25×". */
export function formatVtr(value: string | number | null | undefined): string {
  const n = finite(value);
  if (n === null) return '—';
  return `${n.toLocaleString('en-US', { maximumFractionDigits: n >= 10 ? 1 : n >= 0.01 ? 3 : 4 })}×`;
}

/** A score out of 100: "80" (one decimal when it has one). */
export function formatScore(value: string | number | null | undefined): string {
  const n = finite(value);
  return n === null ? '—' : n.toLocaleString('en-US', { maximumFractionDigits: 1 });
}

/** Uniswap's fee tier in hundredths of a basis point: 3000 -> "0.3 %". */
export function formatFeeTier(feeTier: number | null): string | null {
  if (feeTier === null || feeTier <= 0) return null;
  return `${(feeTier / 10_000).toLocaleString('en-US', { maximumFractionDigits: 4 })}${NBSP}%`;
}

/** A threshold in its kind's unit: "12.5 %", "2 sigma", "0.25×", "20 %". */
export function formatThreshold(alert: Pick<YieldAlertView, 'kind' | 'threshold' | 'spikeUnit'>): string {
  if (alert.kind === 'vtr_above') return formatVtr(alert.threshold);
  if (alert.kind === 'apy_spike' && alert.spikeUnit !== 'percent') return `${formatPlain(alert.threshold)}${NBSP}σ`;
  return `${formatPlain(alert.threshold)}${NBSP}%`;
}

/** A triggered value or threshold of a kind (history): the same units as formatThreshold. */
export function formatKindValue(kind: YieldAlertKind, value: string, spikeUnit: YieldAlertView['spikeUnit'] = null): string {
  return formatThreshold({ kind, threshold: value, spikeUnit });
}

function formatPlain(value: string): string {
  const n = finite(value);
  return n === null ? value : n.toLocaleString('en-US', { maximumFractionDigits: 2 });
}

/** "every 6 h", "every 30 min", "no cooldown". */
export function formatCooldown(minutes: number): string {
  if (minutes === 0) return 'no cooldown';
  if (minutes % 1440 === 0) return `at most once every ${minutes / 1440}${NBSP}d`;
  if (minutes % 60 === 0) return `at most once every ${minutes / 60}${NBSP}h`;
  return `at most once every ${minutes}${NBSP}min`;
}

/** Where the headline APR comes from, in a few words. */
export function aprSourceLabel(source: YieldPoolRow['aprSource']): string {
  return source === 'computed' ? 'ours: fees + rewards' : source === 'defillama' ? 'DefiLlama’s APY' : 'no data';
}

const UTC_DATE_TIME = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const UTC_DATE = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'short', day: 'numeric' });

/** "11 Mar 2026, 12:00 UTC". */
export function formatUtc(iso: string | null): string {
  if (!iso) return '—';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : `${UTC_DATE_TIME.format(at)} UTC`;
}

/** "11 Mar". */
export function formatDay(iso: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : UTC_DATE.format(at);
}

/** "3 min ago", "2 h ago", "just now". */
export function ageOf(iso: string | null, now: number = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.max(1, Math.round(seconds / 60))} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86_400)} d ago`;
}

/** DefiLlama's chain names, as suggestions for the chain filter (any other can be typed). */
export const COMMON_CHAINS: readonly string[] = ['Ethereum', 'Arbitrum', 'Base', 'Optimism', 'Polygon', 'BSC', 'Avalanche', 'Solana'];
/** DefiLlama project slugs, as suggestions for the dex filter. */
export const COMMON_DEXES: readonly string[] = ['uniswap-v3', 'uniswap-v2', 'curve-dex', 'balancer-v2', 'aerodrome-v1', 'pancakeswap-amm-v3', 'aave-v3', 'lido'];
/** Quick minimum TVLs, in USD. */
export const MIN_TVL_CHOICES: readonly number[] = [1_000_000, 10_000_000, 100_000_000];

export const SORT_LABELS: Readonly<Record<YieldPoolSort, string>> = { tvl: 'TVL', apr: 'APR', score: 'Score' };
