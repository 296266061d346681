export { CotParseError, type CotRow, TFF_COLUMNS } from './cftc.parse';
export { CftcReplaySource, openCotFile } from './cftc.client';
export { computeCotAnalytics, COT_LOOKBACKS, DEFAULT_COT_LOOKBACK } from './cot-analytics';
export { cotDataStatus, cotInstrumentHistory, defaultCotOrder, findCotInstrument, latestCotAnalytics, listCotFollows, listCotInstruments, loadCotSeries, setCotFollow } from './cot.store';
export { importCotRows, type CotImportCounts, type CotImportOptions, type CotImportProgress, type CotImportResult } from './cot-import.store';
export { recomputeCotAnalyticsFor } from './cot-recompute';
export { createCotHandlers, type CotHandlerDeps } from './cot.processor';
