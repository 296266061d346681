// The predictions api as the web tests see it: answers typed by jobs/src/predictions/predictions.shapes.ts
// (so a change of the shapes fails the typecheck here), with questions and prices in the manner of
// the recorded Gamma answers (../shared/fixtures/polymarket). A request with no answer fails the
// test loudly instead of being answered with made-up data.
import type {
  MispricingAlertView,
  MispricingPage,
  PredictionFollowView,
  PredictionForecastView,
  PredictionForecastsPage,
  PredictionMarketPage,
  PredictionMarketView,
  PredictionMarketsPage,
  PredictionPerformanceView,
  PredictionResearchView,
} from '@tickerbell/jobs/predictions/shapes';
import type { FakeHandler, FakeReply } from './fake-fetch';

const market = (fields: Partial<PredictionMarketView> & Pick<PredictionMarketView, 'id' | 'question'>): PredictionMarketView => ({
  polymarketId: String(500_000 + fields.id),
  slug: fields.question.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
  description: null,
  category: 'Economy',
  tags: ['Economy', 'Fed'],
  endDate: '2031-06-18T00:00:00.000Z',
  closedTime: null,
  outcomes: ['Yes', 'No'],
  currentPrices: { Yes: '0.615', No: '0.385' },
  yesPrice: '0.6150',
  bestBid: '0.6100',
  bestAsk: '0.6200',
  spread: '0.0100',
  volume24h: '1250000.00',
  volume: '48200000.00',
  liquidity: '340000.00',
  isActive: true,
  closed: false,
  eventId: '16085',
  eventTitle: 'Fed decision in June',
  negRisk: false,
  negRiskAugmented: false,
  resolution: null,
  resolvedAt: null,
  dataSource: 'replay',
  polymarketUrl: 'https://polymarket.com/event/fed-decision-in-june',
  syncedAt: '2026-03-11T12:00:00.000Z',
  ...fields,
});

export const FED: PredictionMarketView = market({
  id: 101,
  question: 'Will the Fed cut rates in June?',
  description: 'This market resolves to "Yes" if the FOMC announces a cut of the target range at its June meeting.',
});
export const BTC: PredictionMarketView = market({
  id: 102,
  question: 'Will Bitcoin close above $100,000 on December 31?',
  category: 'Crypto',
  tags: ['Crypto', 'Bitcoin'],
  eventTitle: 'Bitcoin above ___ on December 31?',
  yesPrice: '0.3400',
  bestBid: '0.3300',
  bestAsk: '0.3500',
  volume24h: '830000.00',
  liquidity: '95000.00',
});
export const KATANA: PredictionMarketView = market({
  id: 103,
  question: 'Katana FDV above $1B one day after launch?',
  category: 'Crypto',
  eventTitle: 'Katana FDV one day after launch?',
  yesPrice: '0.9995',
  bestBid: null,
  bestAsk: null,
  isActive: false,
  closed: true,
  closedTime: '2026-03-02T16:00:00.000Z',
  endDate: '2026-03-01T00:00:00.000Z',
  resolution: 'yes',
  resolvedAt: '2026-03-03T10:00:00.000Z',
});

export const MARKETS: PredictionMarketsPage = {
  rows: [FED, BTC],
  nextCursor: 'c-2',
  categories: [
    { category: 'Crypto', markets: 8 },
    { category: 'Economy', markets: 12 },
  ],
  source: { kind: 'replay', lastSyncAt: '2026-03-11T12:00:00.000Z' },
};
export const MARKETS_OLDER: PredictionMarketsPage = { ...MARKETS, rows: [KATANA], nextCursor: null };
export const MARKETS_CRYPTO: PredictionMarketsPage = { ...MARKETS, rows: [BTC], nextCursor: null };

const ALERT: MispricingAlertView = {
  id: 7,
  marketId: 101,
  question: FED.question,
  category: 'Economy',
  fairValueSource: 'consensus',
  currentPrice: '0.6200',
  fairValue: '0.7000',
  deviation: '0.0600',
  confidence: '0.7200',
  reasoning: 'Eight forecasters with a good track record put YES at 70 %, 8 points above the best ask after fees.',
  details: { forecasters: 8 },
  isActive: true,
  detectedAt: '2026-03-11T11:30:00.000Z',
  resolvedAt: null,
};
const EVENT_ALERT: MispricingAlertView = {
  ...ALERT,
  id: 8,
  marketId: 102,
  question: BTC.question,
  category: 'Crypto',
  fairValueSource: 'event_consistency',
  currentPrice: '0.3500',
  fairValue: '0.2800',
  deviation: '-0.0500',
  confidence: '0.6000',
  reasoning: 'The outcomes of this event sum to 107 % beyond their spreads: YES is dear.',
};
export const MISPRICING: MispricingPage = { rows: [ALERT, EVENT_ALERT], nextCursor: null };

export const FED_PAGE: PredictionMarketPage = {
  market: FED,
  history: [
    { at: '2026-03-11T11:30:00.000Z', price: '0.6000', bestBid: '0.5950', bestAsk: '0.6050' },
    { at: '2026-03-11T11:45:00.000Z', price: '0.6100', bestBid: '0.6050', bestAsk: '0.6150' },
    { at: '2026-03-11T12:00:00.000Z', price: '0.6150', bestBid: '0.6100', bestAsk: '0.6200' },
  ],
  forecasts: [],
  consensus: { probability: '0.7000', forecasters: 8 },
  mispricing: [ALERT],
  following: false,
  canForecast: true,
};

export const SAVED_FORECAST: PredictionForecastView = {
  id: 900,
  marketId: 101,
  userPrediction: '0.6000',
  marketPrice: '0.6150',
  confidence: null,
  notes: null,
  inputForm: 'odds',
  inputText: '3:2',
  dateMade: '2026-03-11T12:05:00.000Z',
  supersededAt: null,
  resolution: null,
  dateResolved: null,
  points: null,
};

export const KATANA_PAGE: PredictionMarketPage = {
  market: KATANA,
  history: [],
  forecasts: [
    { ...SAVED_FORECAST, id: 31, marketId: 103, userPrediction: '0.8000', marketPrice: '0.7000', inputForm: 'percent', inputText: '80%', dateMade: '2026-02-20T09:00:00.000Z', resolution: 'yes', dateResolved: '2026-03-03T10:00:00.000Z', points: '6.5' },
    { ...SAVED_FORECAST, id: 30, marketId: 103, userPrediction: '0.6000', marketPrice: '0.6500', inputForm: 'probability', inputText: '0.6', dateMade: '2026-02-10T09:00:00.000Z', supersededAt: '2026-02-20T09:00:00.000Z', resolution: 'yes', dateResolved: '2026-03-03T10:00:00.000Z', points: '-1.5' },
  ],
  consensus: null,
  mispricing: [],
  following: true,
  canForecast: false,
};

const bins = Array.from({ length: 10 }, (_, i) => ({ from: i / 10, to: (i + 1) / 10, count: 0, meanForecast: null, observedRate: null, low: null, high: null }));

export const PERFORMANCE: PredictionPerformanceView = {
  totalPredictions: 12,
  correctPredictions: 8,
  accuracy: 8 / 12,
  brierScore: 0.182,
  logScore: -0.541,
  decomposition: { reliability: 0.021, resolution: 0.064, uncertainty: 0.225 },
  calibration: bins.map((bin, i) =>
    i === 2 ? { ...bin, count: 3, meanForecast: 0.24, observedRate: 0.3333, low: 0.0615, high: 0.7923 }
    : i === 6 ? { ...bin, count: 5, meanForecast: 0.66, observedRate: 0.6, low: 0.2307, high: 0.8824 }
    : i === 8 ? { ...bin, count: 4, meanForecast: 0.85, observedRate: 1, low: 0.5101, high: 1 }
    : bin,
  ),
  market: { brier: 0.201, log: -0.588 },
  skill: { brier: 0.019, log: 0.047 },
  totalPoints: 14.5,
  bestCategories: [{ category: 'Crypto', count: 7, brier: 0.15, marketBrier: 0.19, skill: 0.04 }],
  improvementAreas: [{ category: 'Economy', count: 5, brier: 0.23, marketBrier: 0.215, skill: -0.015 }],
  trend: [
    { month: '2026-01', count: 4, brier: 0.21, marketBrier: 0.2, log: -0.61, marketLog: -0.6, accuracy: 0.5 },
    { month: '2026-02', count: 5, brier: 0.17, marketBrier: 0.2, log: -0.52, marketLog: -0.59, accuracy: 0.8 },
    { month: '2026-03', count: 3, brier: 0.16, marketBrier: 0.2, log: -0.49, marketLog: -0.57, accuracy: 0.6667 },
  ],
  lastCalculated: '2026-03-03T10:01:00.000Z',
};

export const PERFORMANCE_EMPTY: PredictionPerformanceView = {
  totalPredictions: 0,
  correctPredictions: 0,
  accuracy: null,
  brierScore: null,
  logScore: null,
  decomposition: null,
  calibration: bins,
  market: { brier: null, log: null },
  skill: { brier: null, log: null },
  totalPoints: 0,
  bestCategories: [],
  improvementAreas: [],
  trend: [],
  lastCalculated: null,
};

export const FORECASTS: PredictionForecastsPage = {
  rows: [
    { ...KATANA_PAGE.forecasts[0]!, market: { id: 103, question: KATANA.question, category: 'Crypto', yesPrice: KATANA.yesPrice, closed: true, resolution: 'yes', endDate: KATANA.endDate } },
    { ...SAVED_FORECAST, market: { id: 101, question: FED.question, category: 'Economy', yesPrice: FED.yesPrice, closed: false, resolution: null, endDate: FED.endDate } },
  ],
  nextCursor: null,
};

export const FOLLOWS: { follows: PredictionFollowView[] } = {
  follows: [{ id: 41, marketId: 103, question: KATANA.question, category: null, createdAt: '2026-02-10T09:00:00.000Z' }],
};
export const CATEGORY_FOLLOW: PredictionFollowView = { id: 42, marketId: null, question: null, category: 'Crypto', createdAt: '2026-03-11T12:10:00.000Z' };

export interface PredictionsAnswer {
  status: number;
  body?: unknown;
}

/** `METHOD /path?sorted=query`. */
export function predictionsRequestKey(method: string, path: string): string {
  const url = new URL(path, 'http://localhost');
  const params = [...url.searchParams.entries()].sort(([a], [b]) => a.localeCompare(b));
  const query = new URLSearchParams(params).toString();
  return `${method} ${decodeURIComponent(url.pathname)}${query ? `?${query}` : ''}`;
}

export const RESEARCH: PredictionResearchView = {
  source: MARKETS.source,
  trending: [FED, BTC],
  closingSoon: [],
  mispricing: MISPRICING.rows,
  community: { forecasters: 12, questions: 340, brier: 0.1812, marketBrier: 0.1934 },
};

const FIELD_ERROR = (field: string, message: string) => ({ status: 400, body: { error: { code: 'validation_failed', message: `Invalid input: ${field}`, details: [{ field, message }], requestId: 'r1' } } });

/** The default answers; a test puts the ones it wants first (`overrides`). */
export const PREDICTIONS_ANSWERS: Readonly<Record<string, PredictionsAnswer | ((body: unknown) => PredictionsAnswer)>> = {
  'GET /api/predictions/markets': { status: 200, body: MARKETS },
  'GET /api/predictions/markets?cursor=c-2': { status: 200, body: MARKETS_OLDER },
  'GET /api/predictions/markets?category=Crypto&sort=liquidity': { status: 200, body: MARKETS_CRYPTO },
  'GET /api/predictions/markets?limit=1': { status: 200, body: { ...MARKETS, rows: [FED] } },
  'GET /api/predictions/markets/101': { status: 200, body: FED_PAGE },
  'GET /api/predictions/markets/103': { status: 200, body: KATANA_PAGE },
  'GET /api/predictions/markets/999': { status: 404, body: { error: { code: 'unknown_market', message: 'No such market', requestId: 'r1' } } },
  'POST /api/predictions/markets/101/forecasts': (body) => {
    const { prediction, notes } = body as { prediction: string; notes?: string | null };
    if ((notes ?? '').length > 1000) return FIELD_ERROR('notes', 'at most 1000 characters');
    if (prediction === '3:2') return { status: 201, body: SAVED_FORECAST };
    return FIELD_ERROR('prediction', 'a probability strictly between 0 and 1 (0.0001 to 0.9999)');
  },
  'GET /api/predictions/performance': { status: 200, body: PERFORMANCE },
  'GET /api/predictions/forecasts?limit=25&status=all': { status: 200, body: FORECASTS },
  'GET /api/predictions/mispricing': { status: 200, body: MISPRICING },
  'GET /api/predictions/follows': { status: 200, body: FOLLOWS },
  'POST /api/predictions/follows': (body) => {
    const target = body as { marketId?: number; category?: string };
    if (target.category === 'Crypto') return { status: 201, body: CATEGORY_FOLLOW };
    return { status: 201, body: { id: 43, marketId: target.marketId ?? null, question: FED.question, category: null, createdAt: '2026-03-11T12:10:00.000Z' } satisfies PredictionFollowView };
  },
  'DELETE /api/predictions/follows/41': { status: 204 },
  'GET /api/predictions/research': { status: 200, body: RESEARCH },
};

/** Answers the predictions requests; other /api/predictions requests throw, anything else is a 404. */
export function predictionsApi(overrides: Record<string, PredictionsAnswer | ((body: unknown) => PredictionsAnswer)> = {}): FakeHandler & { calls: string[]; bodies: unknown[] } {
  const answers = { ...PREDICTIONS_ANSWERS, ...overrides };
  const calls: string[] = [];
  const bodies: unknown[] = [];
  const handler = (path: string, init?: RequestInit): FakeReply => {
    const method = init?.method ?? 'GET';
    if (!path.startsWith('/api/predictions/')) return { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } };
    const key = predictionsRequestKey(method, path);
    calls.push(key);
    const body = init?.body === undefined ? undefined : JSON.parse(String(init.body));
    if (method !== 'GET') bodies.push(body);
    const answer = answers[key];
    if (!answer) throw new Error(`No predictions answer for ${key}`);
    const reply = typeof answer === 'function' ? answer(body) : answer;
    return { status: reply.status, body: reply.status === 204 ? undefined : reply.body };
  };
  return Object.assign(handler, { calls, bodies });
}
