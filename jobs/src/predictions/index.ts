// @tickerbell/jobs/predictions: what the api, the workers, the CLI, bench and e2e use of the predictions domain.
export { predictionsEnvSchema, loadPredictionsConfig, type PredictionsConfig } from './predictions.config';
export { predictionsJobIds } from './predictions.jobs';
export { createPredictionsHandlers, type PredictionsHandlerDeps } from './predictions.processor';
export { predictionsDomain } from './predictions.domain';
export { PredictionsError, PREDICTIONS_ERROR_CODES, type PredictionsErrorCode } from './predictions.errors';
// Source: sync and snapshots
export {
  marketView,
  findMarket,
  findMarketByPolymarketId,
  listMarkets,
  activeCategories,
  categoryExists,
  marketHistory,
  priceAt,
  predictionsSourceView,
  polymarketUrl,
  applyMarkets,
  trackedMarkets,
  marketsToRecheck,
  recordSnapshots,
  thinSnapshots,
  POLYMARKET_GAMMA_SOURCE,
  POLYMARKET_CLOB_SOURCE,
  SNAPSHOT_FULL_DETAIL_DAYS,
  type ListMarketsQuery,
  type ApplyMarketsResult,
  type SnapshotRow,
} from './predictions-markets.store';
export {
  PredictionsSourceError,
  parseGammaMarkets,
  parseGammaMarket,
  parseGammaEvents,
  parseClobBook,
  parseClobMidpoint,
  marketContent,
  categoryOf,
  resolutionOf,
  roundDecimal,
  type PredictionsSourceFailure,
  type GammaMarket,
  type GammaEvent,
  type MarketContent,
  type ClobBook,
} from './predictions.parse';
export { PolymarketClient, polymarketRateLimit, POLYMARKET_GAMMA_DEFAULT_URL, POLYMARKET_CLOB_DEFAULT_URL, type PolymarketSource, type PolymarketClientOptions } from './polymarket.client';
export {
  PolymarketReplayWorld,
  startPolymarketReplayServer,
  generateGammaMarkets,
  POLYMARKET_RECORDINGS_DIR,
  POLYMARKET_REPLAY_FILES,
  POLYMARKET_REPLAY_EPOCH,
  SIMULATED_MARKET_BASE,
  SIMULATED_GROUP_EVENT_ID,
  type PolymarketReplayServer,
} from './polymarket-replay';
export { syncMarkets, snapshotMarkets, snapshotSlot, dataSourceOf, type SyncOutcome, type SnapshotOutcome, type SyncOptions } from './predictions-sync';
export { importPredictionMarkets, parsePredictionsFile, type PredictionsImportResult } from './predictions-import';
export { startPredictionsReplay } from './predictions.domain';
// Forecasts and performance
export {
  parseForecastInput,
  computePerformance,
  computeScorecard,
  questionScore,
  scoreQuestion,
  wilsonInterval,
  forecastPoints,
  emptyScorecard,
  PREDICTION_INPUT_MAX,
  type ResolvedQuestion,
  type QuestionForecast,
  type QuestionScore,
  type PredictionScorecard,
} from './predictions-scoring';
export {
  makeForecast,
  withdrawForecast,
  listForecasts,
  forecastsOnMarket,
  canForecastOn,
  performanceOf,
  recomputePerformance,
  performanceForEmail,
  resolveMarketForecasts,
  resolvedQuestionsOf,
  PREDICTION_FORECASTS_MAX_LIMIT,
  PREDICTION_FORECAST_CURSOR_PATTERN,
} from './predictions-forecasts.store';
export { resolvePredictionMarket } from './predictions-resolve';
// Mispricing
export {
  listMispricing,
  mispricingOfMarket,
  consensusOf,
  listFollows,
  follow,
  unfollow,
  isFollowing,
  DEFAULT_CONSENSUS_WINDOW,
  DEFAULT_MAX_FOLLOWS,
  MISPRICING_PAGE_MAX,
} from './predictions-mispricing.store';
export { runMispricing, mispricingSettingsOf, predictionMarketPath, MISPRICING_ACTIVITY_TYPE, type MispricingRunOutcome } from './predictions-mispricing-run';
export { predictionsResearch, communityRecord } from './predictions-research.store';
