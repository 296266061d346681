// @tickerbell/jobs/whales: what the api, the workers, the CLI, bench and e2e use of the whales domain.
export { EthParseError, parseBlock, parseReceipt, parseTransferLogs, unwrapJsonRpc, TRANSFER_TOPIC, type ParsedBlock, type ParsedTransfer } from './eth.parse';
export { EthRpcClient, EthRpcError, ETH_RPC_SOURCE, type EthSource, type EthSourceKind } from './eth-rpc.client';
export { ReplayChain, startReplayRpcServer, WHALES_RECORDINGS_DIR, WHALES_REPLAY_FILES, REPLAY_TOKENS, REPLAY_BLOCK_SECONDS, type ReplayRpcServer } from './eth-replay';
export { TokenDirectory, ETH_TOKEN, type TokenInfo, type TokenCache } from './tokens';
export {
  WHALES_CHAIN,
  recordBlock,
  recordTransfers,
  rollbackFrom,
  readCheckpoint,
  transfersOfTx,
  storedBlockTime,
  WhaleTokenStore,
  type WhaleBlockHeader,
  type WhaleTransferRecord,
} from './whales.store';
export { scanStep, prepareTransfers, prepareBlockTransfers, WhalesScanError, type ScanOptions, type ScanOutcome, type TokenResolver, type WhalesScanContext } from './whales-scan';
export { classifyTransfer, isWhaleTransfer } from './whales-detect';
export { importWhaleFiles, WhalesImportError, type WhalesImportResult } from './whales-import';
export { whalesEnvSchema, loadWhalesConfig, whalesScanOptions, type WhalesConfig } from './whales.config';
export { whalesJobIds } from './whales.jobs';
export { createWhalesHandlers, withScanLock, type WhalesHandlerDeps } from './whales.processor';
export { whalesDomain, startWhalesReplay, whalesReplayChain, whalesReplayHead, simulatedWhaleTransfers, SIMULATED_WHALE_EVERY, WHALES_REPLAY_EPOCH } from './whales.domain';
// watchlists, alerts, read API, live feed (A)
export {
  WHALE_CUSTOM_LABEL_MAX,
  WHALE_THRESHOLD_MAX,
  isWhaleAddress,
  isIanaTimeZone,
  WhaleWatchError,
  listWhaleWatches,
  getWhaleWatch,
  whaleWatchOfAddress,
  createWhaleWatch,
  updateWhaleWatch,
  deleteWhaleWatch,
  type WhaleWatchErrorCode,
  type WhaleWatchFields,
} from './whales-watchlists.store';
export {
  WHALE_FEED_MAX_LIMIT,
  WHALE_LARGEST_ROWS,
  WHALE_CURSOR_PATTERN,
  explorerTxUrl,
  whaleFeed,
  whaleLargest,
  whaleFeedSource,
  whaleAddressPage,
  liveTransfersOfBlock,
  type WhaleFeedQuery,
} from './whales-read.store';
// P's netflow read functions, for the api (A adds them, as the contract says).
export { netflowSeries, exchangeNetflows, NetflowRangeError, NETFLOW_MAX_POINTS, netflowTokenKey } from './whales-netflow.store';
export { retractWhaleAlerts, whaleAlertsOfUser, WHALE_ACTIVITY_TYPE } from './whales-alerts.store';
export {
  alertWhaleBlock,
  sendWhaleDigests,
  dispatchWhaleRetractions,
  publishWhaleTransfers,
  publishBlockTransfers,
  whaleTransfersChannel,
  whaleAlertMessage,
  compactUsd,
  formatAmount,
  digestOf,
  type WhaleBlockAlertsOutcome,
  type WhaleDigestsOutcome,
} from './whales-alerts';
// values (P)
export {
  DefiLlamaCoinsClient,
  CoinsApiError,
  DEFILLAMA_COINS_SOURCE,
  startCoinsReplayServer,
  coinId,
  type CoinsPriceSource,
  type CoinPrice,
  type CoinsReplayServer,
} from './defillama-coins.client';
export { createWhalesPricer, ethPriceAt, usdValueOf, tokenKey, ETH_PRICE_SYMBOL, LOW_PRICE_CONFIDENCE, type WhalesPricer, type TokenPrice } from './whales-pricing';
// (netflowSeries, exchangeNetflows, NetflowRangeError, NETFLOW_MAX_POINTS, netflowTokenKey: exported above by A.)
export { recomputeNetflows, recomputeNetflowRange, bucketStart, NETFLOW_BUCKETS, type NetflowBucket } from './whales-netflow.store';
export {
  parseLabelFile,
  upsertWhaleLabels,
  importWhaleLabels,
  reclassifyTransfersOf,
  seedWhaleLabels,
  seedWhaleLabelSets,
  normalizeAddress,
  WhaleLabelsError,
  WHALE_ADDRESS_TYPES,
  type WhaleLabelRow,
  type WhaleLabelsImported,
  type WhaleLabelSet,
} from './whales-labels';
export { type RecordedBlock } from './whales-scan';
export { type WhaleTransferRow } from './whales.store';
// the in-memory filter of watched addresses, and the alert candidates of a block (bench)
export { WatchedAddressIndex, watchedAddressIndex } from './whales-watched-index';
export { lockBlockAlertCandidates } from './whales-alerts.store';
export { addressLabels } from './whales.store';
