// @tickerbell/jobs/yields: what the api, the workers, the CLI, bench and e2e use of the yields domain.
// Stores for the api (signatures and errors in their JSDoc; shapes in yields.shapes.ts)
export {
  YieldsError,
  YIELD_ALERT_DEFAULT_COOLDOWN_MINUTES,
  YIELD_HISTORY_DEFAULT_LIMIT,
  YIELD_HISTORY_MAX_LIMIT,
  listYieldAlerts,
  getYieldAlert,
  yieldAlertsOfPool,
  createYieldAlert,
  updateYieldAlert,
  deleteYieldAlert,
  yieldAlertHistory,
  type YieldAlertAccess,
  type YieldAlertOptions,
} from './yields-alerts.store';
export {
  listPools,
  poolPage,
  poolSeries,
  topPools,
  yieldsSourceView,
  YIELD_TOP_MIN_TVL_USD,
  YIELD_POOL_PAGE_DAYS,
  DEFILLAMA_YIELDS_SOURCE,
  UNISWAP_SUBGRAPH_SOURCE,
} from './yields-read.store';
// pure analytics
export {
  feeApr,
  windowFees,
  volumeToTvl,
  aprDisagrees,
  meanSigma,
  aprBaseline,
  spikeOf,
  tvlVariation,
  tvlDropPct,
  yieldScore,
  yieldAlertKind,
  hysteresisMargin,
  alertValue,
  stepAlert,
  describeYieldAlert,
  yieldAlertMessage,
  SCORE_WEIGHTS,
  HYSTERESIS_FRACTION,
  HYSTERESIS_FLOOR,
  type YieldDay,
  type AlertState,
  type AlertInputs,
  type ScoreInputs,
} from './yields-analytics';
// sources
export {
  YieldsSourceError,
  parseDefiLlamaPool,
  streamDefiLlamaPools,
  parseDefiLlamaChart,
  parseSubgraphPools,
  parseSubgraphDays,
  feeTierOfPoolMeta,
  chunksOf,
  MAX_TVL_USD,
  MAX_APY,
  MAX_SKIPPED_SHARE,
  type DefiLlamaPool,
  type PoolsStreamResult,
  type PoolSkipReason,
  type ChartPoint,
  type SubgraphPool,
  type SubgraphDay,
} from './yields.parse';
export { DefiLlamaYieldsClient, DEFILLAMA_YIELDS_DEFAULT_URL, type YieldPoolsSource } from './defillama-yields.client';
export { UniswapSubgraphClient, POOLS_QUERY, POOL_DAYS_QUERY, type UniswapSubgraphSource } from './uniswap-subgraph.client';
export {
  startYieldsReplayServer,
  startSubgraphReplayServer,
  openApiExamplePool,
  openApiExampleChartPoint,
  replayPoolRecord,
  replayPoolUuid,
  REPLAY_USDC_WETH_POOL,
  RECORDED_USDC_WETH_POOL,
  RECORDED_USDC_WETH_DAY,
  YIELDS_DATA_DIR,
  type YieldsReplayServer,
  type SubgraphReplayServer,
} from './yields-replay';
// ingest, evaluation, retention
export { ingestSnapshot, snapshotHour, snapshotValues, trackedSet, poolUpsertOf, SUBGRAPH_TVL_TRUST_FACTOR, type IngestOutcome, type IngestOptions, type IngestSources } from './yields-ingest';
export { YieldAlertIndex, INDEX_REFRESH_OVERLAP_MS, type IndexedYieldAlert } from './yields-alert-index';
export { evaluateYieldAlerts, planEvaluation, planFromIndex, loadCandidates, snapshotPoolValues, candidatesOf, peakTvls, notificationRequest, YIELD_ACTIVITY_TYPE, type YieldAlertCandidate, type EvaluateOutcome } from './yields-evaluate';
export { pruneYieldData, latestSnapshotAt, snapshotStored, POOL_INACTIVE_AFTER_DAYS, type PruneOutcome } from './yields.store';
// wiring
export { yieldsEnvSchema, loadYieldsConfig, type YieldsConfig } from './yields.config';
export { yieldsJobIds } from './yields.jobs';
export { createYieldsHandlers, yieldsIngestOptions, type YieldsHandlerDeps, type YieldsSources } from './yields.processor';
export { yieldsDomain, startYieldsReplay } from './yields.domain';
