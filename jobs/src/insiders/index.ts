// @tickerbell/jobs/insiders: what the api, the workers, the CLI, bench and e2e use of the insiders domain.
export { parseForm4, Form4ParseError, FORM4_SAMPLE_FILES, INSIDERS_RECORDINGS_DIR, type ParsedForm4, type ParsedReportingOwner, type ParsedTransaction, type Form4ParseErrorKind, type Form4Wrapper } from './form4.parse';
export { parseCurrentFilingsFeed, dedupeByAccession, parseFormIndex, parseCompanyTickers, parseSubmissions, filingIndexUrl, filingTextUrl, dailyFormIndexUrl, type CurrentFilingEntry, type FormIndexRow } from './edgar-index.parse';
export {
  importParsedFiling,
  storedFiling,
  upsertCompanies,
  recordFilingFailure,
  type ImportFilingMeta,
  type ImportFilingResult,
  type InsiderSourceTag,
} from './insiders.store';
export { importInsiderFile, accessionForFile, seedRecordedInsiderFilings } from './insiders.seed';
export { InsidersLiveSource, type InsidersSource } from './insiders-sec.client';
export { InsidersReplaySource, SIMULATED_PURCHASES } from './insiders-replay';
export {
  pollCurrentFilings,
  catchUpDailyIndexes,
  readDailyIndex,
  fetchAndStoreFiling,
  syncCompanyTickers,
  backfillCompany,
  INSIDERS_SOURCE_NAMES,
  type InsidersDiscoveryDeps,
} from './insiders-discovery';
export { insidersEnvSchema, loadInsidersConfig, insidersSourceFromConfig, type InsidersConfig } from './insiders.config';
export { insidersJobIds, type InsiderAlertKind } from './insiders.jobs';
export { createInsidersHandlers, type InsidersHandlerDeps } from './insiders.processor';
export { insidersDomain } from './insiders.domain';
// A: analytics and alerts.
export { computeInsiderAnalytics } from './insiders-analytics';
export { recomputeInsiderAnalytics } from './insiders-recompute';
export { notifyInsiderEvent } from './insiders-alerts';
// W: reads (screener, filings feed, pages, cluster buys, search) and follows.
export {
  InsiderQueryError,
  insiderScreener,
  insiderScreenerCsv,
  latestInsiderFilings,
  insiderCompanyPage,
  insiderPage,
  latestInsiderClusterBuys,
  searchInsiderCompanies,
  findInsiderCompany,
} from './insiders-read.store';
export { listInsiderFollows, upsertInsiderFollow, deleteInsiderFollow } from './insiders-follows.store';
