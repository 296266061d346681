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
export { scanStep, prepareTransfers, WhalesScanError, type ScanOptions, type ScanOutcome, type TokenResolver, type WhalesScanContext } from './whales-scan';
export { classifyTransfer, isWhaleTransfer } from './whales-detect';
export { importWhaleFiles, WhalesImportError, type WhalesImportResult } from './whales-import';
export { whalesEnvSchema, loadWhalesConfig, whalesScanOptions, type WhalesConfig } from './whales.config';
export { whalesJobIds } from './whales.jobs';
export { createWhalesHandlers, withScanLock, type WhalesHandlerDeps } from './whales.processor';
export { whalesDomain, startWhalesReplay, WHALES_REPLAY_EPOCH } from './whales.domain';
