// The predictions api (/api/predictions/...): the markets browser, a market's page, the viewer's
// forecasts, their performance, the mispricing feed and follows. Shaped as
// @tickerbell/jobs/predictions/shapes (types only: nothing of the jobs package is bundled);
// probabilities stay 4-decimal strings until drawn.
import type {
  MispricingAlertView,
  MispricingPage,
  MispricingSource,
  PredictionCalibrationBin,
  PredictionCategoryScore,
  PredictionDataSource,
  PredictionFollowView,
  PredictionForecastRow,
  PredictionForecastView,
  PredictionForecastsPage,
  PredictionInputForm,
  PredictionMarketPage,
  PredictionMarketSort,
  PredictionMarketView,
  PredictionMarketsPage,
  PredictionPerformanceView,
  PredictionResearchView,
  PredictionResolution,
  PredictionScores,
  PredictionSnapshotPoint,
  PredictionSourceView,
  PredictionTrendPoint,
} from '@tickerbell/jobs/predictions/shapes';
import { sendWithCsrf } from '../accounts/auth-client';
import { apiRequest } from '../api/client';
import { bool, count, decimal, decimalOrNull, list, num, numOrNull, oneOf, record, text, textOrNull } from '../api/answer';
import { MINUS } from '../format/usd';

// The shapes' constants, repeated here as values: the client imports the shapes for their types
// only. `every` fails the typecheck when a list misses (or adds) a value of the shapes' union.
const every =
  <T extends string>() =>
  <const A extends readonly T[]>(values: A & ([T] extends [A[number]] ? unknown : 'lists every value of the union')): A =>
    values;
export const RESOLUTIONS = every<PredictionResolution>()(['yes', 'no', 'void']);
export const DATA_SOURCES = every<PredictionDataSource>()(['polymarket', 'replay', 'import']);
export const INPUT_FORMS = every<PredictionInputForm>()(['probability', 'percent', 'odds']);
export const MISPRICING_SOURCES = every<MispricingSource>()(['consensus', 'event_consistency']);
export const MARKET_SORTS = every<PredictionMarketSort>()(['volume', 'liquidity', 'closing_soon', 'newest']);
/** The forecast bounds the api accepts (PREDICTION_MIN / PREDICTION_MAX / PREDICTION_NOTES_MAX of the shapes). */
export const FORECAST_MIN = 0.0001;
export const FORECAST_MAX = 0.9999;
export const NOTES_MAX = 1000;

// ---- Parsing ----

function texts(value: unknown, where: string): string[] {
  return list(value, where, (entry, at) => text(entry, at));
}

export function parseMarketView(value: unknown, where = 'market'): PredictionMarketView {
  const s = record(value, where);
  const at = (key: string) => `${where}.${key}`;
  const prices = record(s.currentPrices ?? {}, at('currentPrices'));
  const resolution = s.resolution ?? null;
  return {
    id: count(s.id, at('id')),
    polymarketId: text(s.polymarketId, at('polymarketId')),
    slug: text(s.slug, at('slug')),
    question: text(s.question, at('question')),
    description: textOrNull(s.description, at('description')),
    category: textOrNull(s.category, at('category')),
    tags: texts(s.tags ?? [], at('tags')),
    endDate: textOrNull(s.endDate, at('endDate')),
    closedTime: textOrNull(s.closedTime, at('closedTime')),
    outcomes: texts(s.outcomes ?? [], at('outcomes')),
    currentPrices: Object.fromEntries(Object.entries(prices).map(([key, price]) => [key, decimal(price, `${at('currentPrices')}.${key}`)])),
    yesPrice: decimalOrNull(s.yesPrice, at('yesPrice')),
    bestBid: decimalOrNull(s.bestBid, at('bestBid')),
    bestAsk: decimalOrNull(s.bestAsk, at('bestAsk')),
    spread: decimalOrNull(s.spread, at('spread')),
    volume24h: decimalOrNull(s.volume24h, at('volume24h')),
    volume: decimalOrNull(s.volume, at('volume')),
    liquidity: decimalOrNull(s.liquidity, at('liquidity')),
    isActive: bool(s.isActive, at('isActive')),
    closed: bool(s.closed, at('closed')),
    eventId: textOrNull(s.eventId, at('eventId')),
    eventTitle: textOrNull(s.eventTitle, at('eventTitle')),
    negRisk: bool(s.negRisk ?? false, at('negRisk')),
    negRiskAugmented: bool(s.negRiskAugmented ?? false, at('negRiskAugmented')),
    resolution: resolution === null ? null : oneOf(resolution, RESOLUTIONS, at('resolution')),
    resolvedAt: textOrNull(s.resolvedAt, at('resolvedAt')),
    dataSource: oneOf(s.dataSource, DATA_SOURCES, at('dataSource')),
    polymarketUrl: text(s.polymarketUrl, at('polymarketUrl')),
    syncedAt: text(s.syncedAt, at('syncedAt')),
  };
}

export function parseSource(value: unknown, where = 'source'): PredictionSourceView {
  const s = record(value, where);
  return { kind: oneOf(s.kind, ['live', 'replay'] as const, `${where}.kind`), lastSyncAt: textOrNull(s.lastSyncAt, `${where}.lastSyncAt`) };
}

export function parseMarketsPage(body: unknown): PredictionMarketsPage {
  const s = record(body, 'markets');
  return {
    rows: list(s.rows, 'markets.rows', parseMarketView),
    nextCursor: textOrNull(s.nextCursor, 'markets.nextCursor'),
    categories: list(s.categories, 'markets.categories', (entry, at) => {
      const c = record(entry, at);
      return { category: text(c.category, `${at}.category`), markets: count(c.markets, `${at}.markets`) };
    }),
    source: parseSource(s.source, 'markets.source'),
  };
}

export function parseSnapshotPoint(value: unknown, where: string): PredictionSnapshotPoint {
  const s = record(value, where);
  return {
    at: text(s.at, `${where}.at`),
    price: decimal(s.price, `${where}.price`),
    bestBid: decimalOrNull(s.bestBid, `${where}.bestBid`),
    bestAsk: decimalOrNull(s.bestAsk, `${where}.bestAsk`),
  };
}

export function parseForecastView(value: unknown, where = 'forecast'): PredictionForecastView {
  const s = record(value, where);
  const at = (key: string) => `${where}.${key}`;
  const resolution = s.resolution ?? null;
  return {
    id: count(s.id, at('id')),
    marketId: count(s.marketId, at('marketId')),
    userPrediction: decimal(s.userPrediction, at('userPrediction')),
    marketPrice: decimal(s.marketPrice, at('marketPrice')),
    confidence: s.confidence === null || s.confidence === undefined ? null : count(s.confidence, at('confidence')),
    notes: textOrNull(s.notes, at('notes')),
    inputForm: oneOf(s.inputForm, INPUT_FORMS, at('inputForm')),
    inputText: text(s.inputText, at('inputText')),
    dateMade: text(s.dateMade, at('dateMade')),
    supersededAt: textOrNull(s.supersededAt, at('supersededAt')),
    resolution: resolution === null ? null : oneOf(resolution, RESOLUTIONS, at('resolution')),
    dateResolved: textOrNull(s.dateResolved, at('dateResolved')),
    points: decimalOrNull(s.points, at('points')),
  };
}

export function parseMispricing(value: unknown, where = 'alert'): MispricingAlertView {
  const s = record(value, where);
  const at = (key: string) => `${where}.${key}`;
  return {
    id: count(s.id, at('id')),
    marketId: count(s.marketId, at('marketId')),
    question: text(s.question, at('question')),
    category: textOrNull(s.category, at('category')),
    fairValueSource: oneOf(s.fairValueSource, MISPRICING_SOURCES, at('fairValueSource')),
    currentPrice: decimal(s.currentPrice, at('currentPrice')),
    fairValue: decimal(s.fairValue, at('fairValue')),
    deviation: decimal(s.deviation, at('deviation')),
    confidence: decimal(s.confidence, at('confidence')),
    reasoning: text(s.reasoning, at('reasoning')),
    details: record(s.details ?? {}, at('details')),
    isActive: bool(s.isActive, at('isActive')),
    detectedAt: text(s.detectedAt, at('detectedAt')),
    resolvedAt: textOrNull(s.resolvedAt, at('resolvedAt')),
  };
}

export function parseMarketPage(body: unknown): PredictionMarketPage {
  const s = record(body, 'page');
  const consensus = s.consensus ?? null;
  return {
    market: parseMarketView(s.market, 'page.market'),
    history: list(s.history, 'page.history', parseSnapshotPoint),
    forecasts: list(s.forecasts, 'page.forecasts', parseForecastView),
    consensus:
      consensus === null
        ? null
        : (() => {
            const c = record(consensus, 'page.consensus');
            return { probability: decimal(c.probability, 'page.consensus.probability'), forecasters: count(c.forecasters, 'page.consensus.forecasters') };
          })(),
    mispricing: list(s.mispricing, 'page.mispricing', parseMispricing),
    following: bool(s.following, 'page.following'),
    canForecast: bool(s.canForecast, 'page.canForecast'),
  };
}

export function parseForecastsPage(body: unknown): PredictionForecastsPage {
  const s = record(body, 'forecasts');
  return {
    rows: list(s.rows, 'forecasts.rows', (entry, at): PredictionForecastRow => {
      const row = record(entry, at);
      const m = record(row.market, `${at}.market`);
      const resolution = m.resolution ?? null;
      return {
        ...parseForecastView(entry, at),
        market: {
          id: count(m.id, `${at}.market.id`),
          question: text(m.question, `${at}.market.question`),
          category: textOrNull(m.category, `${at}.market.category`),
          yesPrice: decimalOrNull(m.yesPrice, `${at}.market.yesPrice`),
          closed: bool(m.closed, `${at}.market.closed`),
          resolution: resolution === null ? null : oneOf(resolution, RESOLUTIONS, `${at}.market.resolution`),
          endDate: textOrNull(m.endDate, `${at}.market.endDate`),
        },
      };
    }),
    nextCursor: textOrNull(s.nextCursor, 'forecasts.nextCursor'),
  };
}

function parseBin(value: unknown, where: string): PredictionCalibrationBin {
  const s = record(value, where);
  return {
    from: num(s.from, `${where}.from`),
    to: num(s.to, `${where}.to`),
    count: count(s.count, `${where}.count`),
    meanForecast: numOrNull(s.meanForecast, `${where}.meanForecast`),
    observedRate: numOrNull(s.observedRate, `${where}.observedRate`),
    low: numOrNull(s.low, `${where}.low`),
    high: numOrNull(s.high, `${where}.high`),
  };
}

function parseScores(value: unknown, where: string): PredictionScores {
  const s = record(value, where);
  return { brier: numOrNull(s.brier, `${where}.brier`), log: numOrNull(s.log, `${where}.log`) };
}

function parseCategoryScore(value: unknown, where: string): PredictionCategoryScore {
  const s = record(value, where);
  return {
    category: text(s.category, `${where}.category`),
    count: count(s.count, `${where}.count`),
    brier: num(s.brier, `${where}.brier`),
    marketBrier: num(s.marketBrier, `${where}.marketBrier`),
    skill: num(s.skill, `${where}.skill`),
  };
}

function parseTrendPoint(value: unknown, where: string): PredictionTrendPoint {
  const s = record(value, where);
  return {
    month: text(s.month, `${where}.month`),
    count: count(s.count, `${where}.count`),
    brier: num(s.brier, `${where}.brier`),
    marketBrier: num(s.marketBrier, `${where}.marketBrier`),
    log: num(s.log, `${where}.log`),
    marketLog: num(s.marketLog, `${where}.marketLog`),
    accuracy: num(s.accuracy, `${where}.accuracy`),
  };
}

export function parsePerformance(body: unknown): PredictionPerformanceView {
  const s = record(body, 'performance');
  const d = s.decomposition ?? null;
  return {
    totalPredictions: count(s.totalPredictions, 'performance.totalPredictions'),
    correctPredictions: count(s.correctPredictions, 'performance.correctPredictions'),
    accuracy: numOrNull(s.accuracy, 'performance.accuracy'),
    brierScore: numOrNull(s.brierScore, 'performance.brierScore'),
    logScore: numOrNull(s.logScore, 'performance.logScore'),
    decomposition:
      d === null
        ? null
        : (() => {
            const r = record(d, 'performance.decomposition');
            return {
              reliability: num(r.reliability, 'performance.decomposition.reliability'),
              resolution: num(r.resolution, 'performance.decomposition.resolution'),
              uncertainty: num(r.uncertainty, 'performance.decomposition.uncertainty'),
            };
          })(),
    calibration: list(s.calibration, 'performance.calibration', parseBin),
    market: parseScores(s.market, 'performance.market'),
    skill: parseScores(s.skill, 'performance.skill'),
    totalPoints: num(s.totalPoints, 'performance.totalPoints'),
    bestCategories: list(s.bestCategories, 'performance.bestCategories', parseCategoryScore),
    improvementAreas: list(s.improvementAreas, 'performance.improvementAreas', parseCategoryScore),
    trend: list(s.trend, 'performance.trend', parseTrendPoint),
    lastCalculated: textOrNull(s.lastCalculated, 'performance.lastCalculated'),
  };
}

export function parseMispricingPage(body: unknown): MispricingPage {
  const s = record(body, 'mispricing');
  return { rows: list(s.rows, 'mispricing.rows', parseMispricing), nextCursor: textOrNull(s.nextCursor, 'mispricing.nextCursor') };
}

export function parseFollowView(value: unknown, where = 'follow'): PredictionFollowView {
  const s = record(value, where);
  return {
    id: count(s.id, `${where}.id`),
    marketId: s.marketId === null || s.marketId === undefined ? null : count(s.marketId, `${where}.marketId`),
    question: textOrNull(s.question, `${where}.question`),
    category: textOrNull(s.category, `${where}.category`),
    createdAt: text(s.createdAt, `${where}.createdAt`),
  };
}

// ---- The browser's query (kept in the address bar) ----

export type MarketStatus = 'active' | 'closed' | 'all';

export interface MarketsQuery {
  q?: string;
  category?: string;
  /** Default 'active'. */
  status?: MarketStatus;
  /** Default 'volume'. */
  sort?: PredictionMarketSort;
  closingWithinDays?: number;
  cursor?: string;
  limit?: number;
}

export const SORT_LABELS: Readonly<Record<PredictionMarketSort, string>> = {
  volume: '24 h volume',
  liquidity: 'Liquidity',
  closing_soon: 'Closing soon',
  newest: 'Newest',
};

export const STATUS_LABELS: Readonly<Record<MarketStatus, string>> = { active: 'Open', closed: 'Closed', all: 'Open and closed' };

export function marketsParams(query: MarketsQuery): URLSearchParams {
  const params = new URLSearchParams();
  const set = (key: string, value: string | number | undefined) => {
    if (value !== undefined && value !== '') params.set(key, String(value));
  };
  set('q', query.q);
  set('category', query.category);
  if (query.status && query.status !== 'active') set('status', query.status);
  if (query.sort && query.sort !== 'volume') set('sort', query.sort);
  set('closingWithinDays', query.closingWithinDays);
  set('cursor', query.cursor);
  set('limit', query.limit);
  return params;
}

/** The browser's filters from the address bar: values the api would refuse are dropped, not sent. */
export function marketsQueryOf(params: URLSearchParams): MarketsQuery {
  const query: MarketsQuery = {};
  const q = (params.get('q') ?? '').trim();
  if (q && q.length <= 200) query.q = q;
  const category = (params.get('category') ?? '').trim();
  if (category && category.length <= 50) query.category = category;
  const status = params.get('status');
  if (status === 'closed' || status === 'all') query.status = status;
  const sort = params.get('sort');
  if ((MARKET_SORTS as readonly string[]).includes(sort ?? '') && sort !== 'volume') query.sort = sort as PredictionMarketSort;
  const days = Number(params.get('closingWithinDays') ?? '');
  if (params.get('closingWithinDays') && Number.isInteger(days) && days >= 1 && days <= 3650) query.closingWithinDays = days;
  return query;
}

export function marketsPath(query: MarketsQuery): string {
  const params = marketsParams(query).toString();
  return `/api/predictions/markets${params ? `?${params}` : ''}`;
}

// ---- Requests ----

export function getMarkets(query: MarketsQuery, signal?: AbortSignal): Promise<PredictionMarketsPage> {
  return apiRequest(marketsPath(query), { signal, parse: parseMarketsPage });
}

export function parseResearch(body: unknown): PredictionResearchView {
  const s = record(body, 'research');
  const c = record(s.community, 'research.community');
  return {
    source: parseSource(s.source, 'research.source'),
    trending: list(s.trending, 'research.trending', parseMarketView),
    closingSoon: list(s.closingSoon, 'research.closingSoon', parseMarketView),
    mispricing: list(s.mispricing, 'research.mispricing', parseMispricing),
    community: {
      forecasters: count(c.forecasters, 'research.community.forecasters'),
      questions: count(c.questions, 'research.community.questions'),
      brier: numOrNull(c.brier, 'research.community.brier'),
      marketBrier: numOrNull(c.marketBrier, 'research.community.marketBrier'),
    },
  };
}

/** The public research page's data (no session needed). */
export function getResearch(signal?: AbortSignal): Promise<PredictionResearchView> {
  return apiRequest('/api/predictions/research', { signal, parse: parseResearch });
}

export function getMarket(id: number, signal?: AbortSignal): Promise<PredictionMarketPage> {
  return apiRequest(`/api/predictions/markets/${id}`, { signal, parse: parseMarketPage });
}

export interface ForecastInput {
  /** As typed: "0.62", "62%", "3:2". The api parses it (the preview here mirrors its rules). */
  prediction: string;
  confidence?: number | null;
  notes?: string | null;
}

export function makeForecast(marketId: number, input: ForecastInput): Promise<PredictionForecastView> {
  return sendWithCsrf(`/api/predictions/markets/${marketId}/forecasts`, { method: 'POST', body: input, parse: (body) => parseForecastView(body) });
}

export function withdrawForecast(marketId: number): Promise<void> {
  return sendWithCsrf(`/api/predictions/markets/${marketId}/forecasts`, { method: 'DELETE', parse: () => undefined });
}

export type ForecastStatus = 'open' | 'resolved' | 'all';

export function getForecasts(query: { status?: ForecastStatus; cursor?: string; limit?: number }, signal?: AbortSignal): Promise<PredictionForecastsPage> {
  const params = new URLSearchParams();
  if (query.status) params.set('status', query.status);
  if (query.cursor) params.set('cursor', query.cursor);
  if (query.limit) params.set('limit', String(query.limit));
  const search = params.toString();
  return apiRequest(`/api/predictions/forecasts${search ? `?${search}` : ''}`, { signal, parse: parseForecastsPage });
}

export function getPerformance(signal?: AbortSignal): Promise<PredictionPerformanceView> {
  return apiRequest('/api/predictions/performance', { signal, parse: parsePerformance });
}

export interface MispricingQuery {
  /** Default true: the alerts still open. */
  active?: boolean;
  category?: string;
  cursor?: string;
}

export function mispricingPath(query: MispricingQuery): string {
  const params = new URLSearchParams();
  if (query.active === false) params.set('active', 'false');
  if (query.category) params.set('category', query.category);
  if (query.cursor) params.set('cursor', query.cursor);
  const search = params.toString();
  return `/api/predictions/mispricing${search ? `?${search}` : ''}`;
}

export function getMispricing(query: MispricingQuery, signal?: AbortSignal): Promise<MispricingPage> {
  return apiRequest(mispricingPath(query), { signal, parse: parseMispricingPage });
}

export function getFollows(signal?: AbortSignal): Promise<PredictionFollowView[]> {
  return apiRequest('/api/predictions/follows', { signal, parse: (body) => list(record(body, 'follows').follows, 'follows.follows', parseFollowView) });
}

export function addFollow(target: { marketId: number } | { category: string }): Promise<PredictionFollowView> {
  return sendWithCsrf('/api/predictions/follows', { method: 'POST', body: target, parse: (body) => parseFollowView(body) });
}

export function removeFollow(id: number): Promise<void> {
  return sendWithCsrf(`/api/predictions/follows/${id}`, { method: 'DELETE', parse: () => undefined });
}

// ---- The forecast input (a preview of the api's parse; the api decides) ----

export type ForecastPreview = { ok: true; p: number; form: PredictionInputForm } | { ok: false; message: string } | { ok: null };

const NUMBER = '(\\d+(?:\\.\\d*)?|\\.\\d+)';
const PERCENT = new RegExp(`^${NUMBER}\\s*%$`);
const PLAIN = new RegExp(`^${NUMBER}$`);
const ODDS = new RegExp(`^${NUMBER}\\s*(?::|/|\\s+to\\s+)\\s*${NUMBER}$`, 'i');

/**
 * What the typed forecast means, as the api reads it: "0.62" or ".62" (a probability), "62%" or
 * "62" (above 1 and below 100: a percentage), "3:2", "3/2" or "3 to 2" (odds for YES: 3 / (3 + 2)).
 * Rounded to 4 decimals, it must lie within 0.0001 .. 0.9999. Empty: nothing to preview.
 */
export function previewForecast(input: string): ForecastPreview {
  const value = input.trim();
  if (value === '') return { ok: null };
  let p: number;
  let form: PredictionInputForm;
  let match: RegExpExecArray | null;
  if ((match = PERCENT.exec(value))) {
    p = Number(match[1]) / 100;
    form = 'percent';
  } else if ((match = ODDS.exec(value))) {
    const forYes = Number(match[1]);
    const against = Number(match[2]);
    if (!(forYes > 0) || !(against > 0)) return { ok: false, message: 'Odds need two positive numbers, e.g. 3:2 (3 for YES against 2).' };
    p = forYes / (forYes + against);
    form = 'odds';
  } else if ((match = PLAIN.exec(value))) {
    const n = Number(match[1]);
    if (n > 1 && n < 100) {
      p = n / 100;
      form = 'percent';
    } else {
      p = n;
      form = 'probability';
    }
  } else {
    return { ok: false, message: 'Type a probability (0.62), a percentage (62%) or odds (3:2).' };
  }
  const rounded = Math.round(p * 10_000) / 10_000;
  if (!(rounded >= FORECAST_MIN && rounded <= FORECAST_MAX)) {
    return { ok: false, message: 'A forecast lies strictly between 0 and 1 (0.01 % to 99.99 %): nothing is certain.' };
  }
  return { ok: true, p: rounded, form };
}

/** "3:2" for 0.6: the odds for YES in whole numbers up to 10 when they are exact, else "1.63:1" / "1:2.45". */
export function oddsOf(p: number): string {
  for (let against = 1; against <= 10; against++) {
    const forYes = (p * against) / (1 - p);
    const whole = Math.round(forYes);
    if (whole >= 1 && whole <= 10 && Math.abs(forYes - whole) < 1e-6) return `${whole}:${against}`;
  }
  return p >= 0.5 ? `${(p / (1 - p)).toFixed(2)}:1` : `1:${((1 - p) / p).toFixed(2)}`;
}

// ---- Formatting ----

/** A probability as a percentage: "62%", "61.5%", "0.35%"; "—" when unknown. */
export function formatProbability(value: string | number | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const n = Number(value) * 100;
  if (!Number.isFinite(n)) return '—';
  const abs = Math.abs(n);
  // Below 1 %: two decimals; otherwise one, dropped when it is 0 ("62%", not "62.0%").
  const tenths = Math.round(abs * 10) / 10;
  const shown = abs !== 0 && abs < 1 ? abs.toFixed(2) : Number.isInteger(tenths) ? tenths.toFixed(0) : tenths.toFixed(1);
  return `${n < 0 ? MINUS : ''}${shown}%`;
}

/** A difference of probabilities in points: "+4.2 pts", "−1.5 pts". */
export function formatPoints(value: string | number | null): string {
  if (value === null) return '—';
  const n = Number(value) * 100;
  if (!Number.isFinite(n)) return '—';
  const shown = Math.abs(n).toFixed(1);
  return `${n > 0 ? '+' : n < 0 ? MINUS : ''}${shown} pts`;
}

/** A score with 3 decimals and a real minus sign: "0.182", "−0.512"; "—" when unknown. */
export function formatScore(value: number | null, options: { signed?: boolean } = {}): string {
  if (value === null || !Number.isFinite(value)) return '—';
  const shown = Math.abs(value).toFixed(3);
  if (Number(shown) === 0) return options.signed ? '±0.000' : '0.000';
  return `${value < 0 ? MINUS : options.signed ? '+' : ''}${shown}`;
}

/** Skill points of forecasts (their sum): "+12.4", "−3.0". */
export function formatSkillPoints(value: string | number | null): string {
  if (value === null) return '—';
  const n = Number(value);
  if (!Number.isFinite(n)) return '—';
  const shown = Math.abs(n).toFixed(1);
  if (Number(shown) === 0) return '0.0';
  return `${n > 0 ? '+' : MINUS}${shown}`;
}

const DATE = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric' });
const DATE_TIME = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const TIME = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const MONTH = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', month: 'short', year: 'numeric' });

/** "12 Mar 2026" (UTC). */
export function formatDate(iso: string | null): string {
  if (iso === null) return '—';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : DATE.format(at);
}

/** "12 Mar 2026, 14:05 UTC". */
export function formatDateTime(iso: string | null): string {
  if (iso === null) return '—';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : `${DATE_TIME.format(at)} UTC`;
}

/** "14:05 UTC". */
export function formatTime(iso: string | null): string {
  if (iso === null) return '—';
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : `${TIME.format(at)} UTC`;
}

/** "Mar 2026" from "2026-03". */
export function formatMonth(month: string): string {
  const at = new Date(`${month}-01T00:00:00Z`);
  return Number.isNaN(at.getTime()) ? month : MONTH.format(at);
}

/** "in 3 d", "in 5 h", "ended 2 d ago": how far a market's end date is. */
export function closesIn(iso: string | null, now: number = Date.now()): string {
  if (iso === null) return 'No end date';
  const ms = Date.parse(iso) - now;
  if (!Number.isFinite(ms)) return iso;
  const hours = Math.abs(ms) / 3_600_000;
  const span = hours < 1 ? `${Math.max(1, Math.round(hours * 60))} min` : hours < 48 ? `${Math.round(hours)} h` : `${Math.round(hours / 24)} d`;
  return ms >= 0 ? `in ${span}` : `ended ${span} ago`;
}

/** "3 min ago", "2 h ago", "just now". */
export function ageOf(iso: string, now: number = Date.now()): string {
  const seconds = Math.round((now - Date.parse(iso)) / 1000);
  if (!Number.isFinite(seconds)) return '';
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.max(1, Math.round(seconds / 60))} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86_400)} d ago`;
}

export const RESOLUTION_LABELS: Readonly<Record<PredictionResolution, string>> = { yes: 'Resolved YES', no: 'Resolved NO', void: 'Void (not scored)' };

export const INPUT_FORM_LABELS: Readonly<Record<PredictionInputForm, string>> = { probability: 'probability', percent: 'percentage', odds: 'odds' };

export const MISPRICING_SOURCE_LABELS: Readonly<Record<MispricingSource, string>> = {
  consensus: 'Forecaster consensus',
  event_consistency: 'Event consistency',
};

/** The market's state in a word: open, closed awaiting resolution, resolved. */
export function marketState(market: Pick<PredictionMarketView, 'closed' | 'resolution' | 'isActive'>): { label: string; tone: 'open' | 'closed' | 'yes' | 'no' | 'void' } {
  if (market.resolution) return { label: RESOLUTION_LABELS[market.resolution], tone: market.resolution };
  if (market.closed || !market.isActive) return { label: 'Closed, awaiting resolution', tone: 'closed' };
  return { label: 'Open', tone: 'open' };
}

/** The YES outcome's name ("Yes", "Long"): the first outcome. */
export function yesName(market: Pick<PredictionMarketView, 'outcomes'>): string {
  return market.outcomes[0] ?? 'Yes';
}
