// HTTP shapes of the predictions domain (Polymarket markets, user forecasts, scoring, mispricing):
// plain types and constants with no runtime imports; the web client imports this file as
// `@tickerbell/jobs/predictions/shapes`. Formulas and meanings in docs/predictions.md.

/** How a market resolved: the YES (first) outcome won, the NO (second) won, or no outcome at exactly 1 (not scored). */
export const PREDICTION_RESOLUTIONS = ['yes', 'no', 'void'] as const;
export type PredictionResolution = (typeof PREDICTION_RESOLUTIONS)[number];

/** Where a market row came from: the live Gamma API, the offline replay twin, or `import predictions <file>`. */
export const PREDICTION_DATA_SOURCES = ['polymarket', 'replay', 'import'] as const;
export type PredictionDataSource = (typeof PREDICTION_DATA_SOURCES)[number];

/** How the user typed a forecast: 0.62, 62 %, or odds "3:2" / "3/2" (for:against, YES). */
export const PREDICTION_INPUT_FORMS = ['probability', 'percent', 'odds'] as const;
export type PredictionInputForm = (typeof PREDICTION_INPUT_FORMS)[number];

/** Where a mispricing alert's fair value comes from. */
export const MISPRICING_SOURCES = ['consensus', 'event_consistency'] as const;
export type MispricingSource = (typeof MISPRICING_SOURCES)[number];

/** Browser sort orders. */
export const PREDICTION_MARKET_SORTS = ['volume', 'liquidity', 'closing_soon', 'newest'] as const;
export type PredictionMarketSort = (typeof PREDICTION_MARKET_SORTS)[number];

/** Forecast bounds the API accepts (the column is numeric(5,4): 0.0001 .. 0.9999). */
export const PREDICTION_MIN = 0.0001;
export const PREDICTION_MAX = 0.9999;
export const PREDICTION_NOTES_MAX = 1000;

/** A market as the browser and the market page show it. Prices are YES prices, decimal strings 0..1 with 4 decimals. */
export interface PredictionMarketView {
  id: number;
  polymarketId: string;
  slug: string;
  question: string;
  description: string | null;
  category: string | null;
  tags: string[];
  /** ISO 8601 UTC; null when Gamma gave none. */
  endDate: string | null;
  closedTime: string | null;
  outcomes: string[];
  currentPrices: Record<string, string>;
  yesPrice: string | null;
  bestBid: string | null;
  bestAsk: string | null;
  spread: string | null;
  volume24h: string | null;
  volume: string | null;
  liquidity: string | null;
  isActive: boolean;
  closed: boolean;
  eventId: string | null;
  eventTitle: string | null;
  negRisk: boolean;
  negRiskAugmented: boolean;
  resolution: PredictionResolution | null;
  resolvedAt: string | null;
  dataSource: PredictionDataSource;
  /** https://polymarket.com/event/<eventSlug or slug> */
  polymarketUrl: string;
  /** ISO 8601 UTC of our last sync of this market. */
  syncedAt: string;
}

// GET /api/predictions/markets?q=&category=&status=active|closed|all&sort=&minVolume=&minLiquidity=&closingWithinDays=&cursor=&limit= (signed in)
export interface PredictionMarketsPage {
  rows: PredictionMarketView[];
  /** Opaque; null at the end. */
  nextCursor: string | null;
  /** Categories with their active market counts, for the filter. */
  categories: { category: string; markets: number }[];
  source: PredictionSourceView;
}

/** Which source feeds the markets and when it last succeeded (from source_health). */
export interface PredictionSourceView {
  kind: 'live' | 'replay';
  lastSyncAt: string | null;
}

export interface PredictionSnapshotPoint {
  /** ISO 8601 UTC. */
  at: string;
  price: string;
  bestBid: string | null;
  bestAsk: string | null;
}

/** One forecast of the history (an edit is a new row; the replaced one has supersededAt). */
export interface PredictionForecastView {
  id: number;
  marketId: number;
  /** The user's probability of YES, 4 decimals. */
  userPrediction: string;
  /** The market's YES price at that moment, from our snapshot. */
  marketPrice: string;
  confidence: number | null;
  notes: string | null;
  inputForm: PredictionInputForm;
  inputText: string;
  dateMade: string;
  supersededAt: string | null;
  resolution: PredictionResolution | null;
  dateResolved: string | null;
  /** Skill points against the market at this forecast's moment; null until resolved. */
  points: string | null;
}

// GET /api/predictions/markets/:id (signed in)
export interface PredictionMarketPage {
  market: PredictionMarketView;
  /** Our snapshots, oldest first (at most the last 90 days). */
  history: PredictionSnapshotPoint[];
  /** The viewer's forecasts on this market, newest first (the current one has supersededAt null). */
  forecasts: PredictionForecastView[];
  /** Track-record-weighted consensus of users' recent forecasts; null with fewer than the minimum forecasters. */
  consensus: { probability: string; forecasters: number } | null;
  /** Active mispricing alerts of this market. */
  mispricing: MispricingAlertView[];
  following: boolean;
  /** False once the market closed: forecasts are refused (409). */
  canForecast: boolean;
}

// POST /api/predictions/markets/:id/forecasts { prediction: "0.62" | "62%" | "3:2", confidence?: 0..100, notes? } -> 201 PredictionForecastView
// (a second POST on the same market is an edit: the previous forecast is superseded)
// DELETE /api/predictions/markets/:id/forecasts -> 204 (withdraws the current forecast; the history stays scored for the time it covered)
// GET /api/predictions/forecasts?status=open|resolved|all&cursor=&limit= -> PredictionForecastsPage
export interface PredictionForecastRow extends PredictionForecastView {
  market: Pick<PredictionMarketView, 'id' | 'question' | 'category' | 'yesPrice' | 'closed' | 'resolution' | 'endDate'>;
}
export interface PredictionForecastsPage {
  rows: PredictionForecastRow[];
  nextCursor: string | null;
}

/** One calibration bin: forecasts with p in [from, to). low/high: Wilson 95 % interval of the observed rate. */
export interface PredictionCalibrationBin {
  from: number;
  to: number;
  count: number;
  /** Mean forecast in the bin; null when empty. */
  meanForecast: number | null;
  /** Share that resolved YES; null when empty. */
  observedRate: number | null;
  low: number | null;
  high: number | null;
}

export interface PredictionScores {
  brier: number | null;
  log: number | null;
}

export interface PredictionTrendPoint {
  /** YYYY-MM (UTC month of resolution). */
  month: string;
  count: number;
  brier: number;
  marketBrier: number;
  log: number;
  marketLog: number;
  accuracy: number;
}

export interface PredictionCategoryScore {
  category: string;
  count: number;
  brier: number;
  marketBrier: number;
  /** marketBrier - brier: positive when the user beat the market in this category. */
  skill: number;
}

// GET /api/predictions/performance (signed in) and `npm run cli -- predictions performance --user <email>`
export interface PredictionPerformanceView {
  totalPredictions: number;
  correctPredictions: number;
  /** correct / total; null with no resolved forecast. */
  accuracy: number | null;
  brierScore: number | null;
  logScore: number | null;
  /** Murphy decomposition: brier ~= reliability - resolution + uncertainty (exact for binned probabilities). */
  decomposition: { reliability: number; resolution: number; uncertainty: number } | null;
  calibration: PredictionCalibrationBin[];
  /** The same scores of the market price at each forecast's moment, and the user's skill (market - user for Brier, user - market for log). */
  market: PredictionScores;
  skill: PredictionScores;
  totalPoints: number;
  bestCategories: PredictionCategoryScore[];
  improvementAreas: PredictionCategoryScore[];
  trend: PredictionTrendPoint[];
  /** ISO 8601 UTC; null before the first resolution. */
  lastCalculated: string | null;
}

/** A mispricing alert as the feed and the market page show it. */
export interface MispricingAlertView {
  id: number;
  marketId: number;
  question: string;
  category: string | null;
  fairValueSource: MispricingSource;
  /** The executable YES price the gap is measured against. */
  currentPrice: string;
  fairValue: string;
  /** fairValue - currentPrice after fees; positive: YES looks cheap. */
  deviation: string;
  confidence: string;
  reasoning: string;
  details: Record<string, unknown>;
  isActive: boolean;
  detectedAt: string;
  resolvedAt: string | null;
}

// GET /api/predictions/mispricing?active=true|false&category=&cursor=&limit= (signed in)
export interface MispricingPage {
  rows: MispricingAlertView[];
  nextCursor: string | null;
}

// GET /api/predictions/follows; POST /api/predictions/follows { marketId } | { category } -> 201; DELETE /api/predictions/follows/:id -> 204
export interface PredictionFollowView {
  id: number;
  marketId: number | null;
  question: string | null;
  category: string | null;
  createdAt: string;
}

/** How the forecasts of every Tickerbell user scored against the market at their moments (public). */
export interface PredictionCommunityRecord {
  forecasters: number;
  /** Resolved questions scored (one per user and market). */
  questions: number;
  /** Mean Brier score of the users' time-weighted forecasts, and of the market prices at the same moments; null before any. */
  brier: number | null;
  marketBrier: number | null;
}

/** GET /api/predictions/research: the public research page. */
export interface PredictionResearchView {
  source: PredictionSourceView;
  /** Active markets with the most 24 h volume. */
  trending: PredictionMarketView[];
  /** Active markets ending within 7 days, soonest first. */
  closingSoon: PredictionMarketView[];
  /** Open mispricing alerts (newest first). */
  mispricing: MispricingAlertView[];
  community: PredictionCommunityRecord;
}

/** Markets in each list of the research page. */
export const PREDICTION_RESEARCH_LIST_SIZE = 8;
