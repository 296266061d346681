// HTTP shapes of the COT (futures positioning) domain: /api/cot/instruments, /api/cot/latest,
// /api/cot/instruments/:code/history and the follows. Plain types and constants with no runtime
// imports: the web client imports this file as `@tickerbell/jobs/cot/shapes`; the server's views,
// sort whitelist and query schemas come from it. Meanings in docs/cot.md.

export const COT_CATEGORIES = ['equity-index', 'currency', 'rates', 'crypto', 'volatility'] as const;
export type CotCategory = (typeof COT_CATEGORIES)[number];

/** Groups with a net percent. */
export const NET_GROUPS = ['dealer', 'assetManager', 'leveraged', 'other', 'nonReportable', 'commercial'] as const;
export type NetGroup = (typeof NET_GROUPS)[number];
/** Groups with a percentile rank, COT index and extreme flag. */
export const RANKED_GROUPS = ['leveraged', 'commercial', 'assetManager'] as const;
export type RankedGroup = (typeof RANKED_GROUPS)[number];
/** Groups as reported (commercial is derived). */
export const REPORTED_GROUPS = ['dealer', 'assetManager', 'leveraged', 'other', 'nonReportable'] as const;
export type ReportedGroup = (typeof REPORTED_GROUPS)[number];

/** With fewer reports of history than this, analytics are provisional. */
export const COT_PROVISIONAL_BELOW = 26;
/**
 * With fewer reports in the window than this, a group is not ranked at all (percentile, index and
 * extremes null): a rank among one or two reports is always 100 or 50, which says nothing.
 */
export const COT_MIN_REPORTS_TO_RANK = 8;
/** Percentile at or above which a group is at a long extreme, and at or below which at a short one. */
export const COT_EXTREME_LONG_AT = 90;
export const COT_EXTREME_SHORT_AT = 10;

export const EXTREME_SIDES = ['long', 'short'] as const;
export type ExtremeSide = (typeof EXTREME_SIDES)[number];
export const ALERT_LEVELS = ['none', 'low', 'medium', 'high'] as const;
export type AlertLevel = (typeof ALERT_LEVELS)[number];
export const DIVERGENCE_TYPES = [
  'leveraged_crowded_long_asset_managers_short',
  'leveraged_crowded_short_asset_managers_long',
  'both_crowded_long',
  'both_crowded_short',
  'leveraged_longer',
  'leveraged_shorter',
  'aligned',
] as const;
export type DivergenceType = (typeof DIVERGENCE_TYPES)[number];

/** The screener's sort keys (GET /api/cot/latest?sort=): anything else is a 400. */
export const COT_SORT_KEYS = [
  'name',
  'symbol',
  'cftcCode',
  'category',
  'reportDate',
  'openInterest',
  'leveragedNetPercent',
  'commercialNetPercent',
  'assetManagerNetPercent',
  'leveragedPercentileRank',
  'commercialPercentileRank',
  'assetManagerPercentileRank',
  'leveragedCotIndex',
  'commercialCotIndex',
  'assetManagerCotIndex',
  'divergenceScore',
] as const;
export type CotSortKey = (typeof COT_SORT_KEYS)[number];
/** The text columns: sorted ascending by default, the numbers descending. */
export const COT_TEXT_SORT_KEYS = ['name', 'symbol', 'cftcCode', 'category'] as const satisfies readonly CotSortKey[];
export const COT_SORT_ORDERS = ['asc', 'desc'] as const;
export type CotSortOrder = (typeof COT_SORT_ORDERS)[number];

/** GET /api/cot/instruments/:code/history?weeks=: 156 by default, 20 years of weekly reports at most. */
export const COT_HISTORY_WEEKS = { default: 156, max: 1040 } as const;

/** GET /api/cot/latest?sort=&order=&category= */
export interface CotLatestQuery {
  sort?: CotSortKey;
  /** Left out: ascending for text columns, descending for numbers. */
  order?: CotSortOrder;
  category?: CotCategory;
}

export interface CotInstrumentRef {
  cftcCode: string;
  name: string;
  symbol: string | null;
  category: string | null;
  exchange: string | null;
}

/** One item of GET /api/cot/instruments (`{ items }`). */
export interface CotInstrumentListItem extends CotInstrumentRef {
  contractSize: number | null;
  isActive: boolean;
  latestReportDate: string | null;
  reports: number;
}

/** One report's analytics (null fields before the analytics have run). */
export interface CotAnalyticsView {
  reportDate: string;
  openInterest: number | null;
  netPercent: Record<NetGroup, number | null>;
  percentileRank: Record<RankedGroup, number | null>;
  cotIndex: Record<RankedGroup, number | null>;
  extremes: Record<RankedGroup, ExtremeSide | null>;
  divergence: { score: number | null; type: DivergenceType | null; alertLevel: AlertLevel | null };
  /** Reports in the percentile window the analytics were computed with (the install's COT_LOOKBACK). */
  lookback: number | null;
  /** Fewer than 26 reports of history; null before the analytics have run. */
  provisional: boolean | null;
}

/** One row of the screener: an instrument's latest report. */
export interface CotLatestItem extends CotAnalyticsView {
  instrument: CotInstrumentRef;
}

/** A report older than this many days is stale (a new one is published every week). */
export const COT_STALE_AFTER_DAYS = 14;

/** Where the shown reports come from and how old they are: every COT screen labels sample or stale data. */
export interface CotDataStatus {
  /** The newest stored report (YYYY-MM-DD), null when none is stored. */
  latestReportDate: string | null;
  /** The newest report came from the bundled 2022 sample file, not the CFTC. */
  sample: boolean;
  /** The newest report is older than COT_STALE_AFTER_DAYS. */
  stale: boolean;
}

/** GET /api/cot/latest: the order applied, the rows and the data's status. */
export interface CotLatestResponse {
  sort: CotSortKey;
  order: CotSortOrder;
  category: CotCategory | null;
  items: CotLatestItem[];
  data: CotDataStatus;
}

/** Contracts of one group; non-reportables have no spreading. */
export interface CotGroupPositions {
  long: number | null;
  short: number | null;
  spreading?: number | null;
}

export interface CotHistoryEntry extends CotAnalyticsView {
  positions: Record<ReportedGroup, CotGroupPositions>;
}

/** GET /api/cot/instruments/:code/history: oldest first. */
export interface CotHistory {
  instrument: CotInstrumentRef;
  weeks: number;
  history: CotHistoryEntry[];
}

/** One followed instrument of GET /api/cot/follows (`{ items }`). */
export interface CotFollowView extends CotInstrumentRef {
  followedAt: string;
}

export interface CotFollowsResponse {
  items: CotFollowView[];
}

/** PUT / DELETE /api/cot/instruments/:code/follow */
export interface CotFollowResponse {
  cftcCode: string;
  following: boolean;
}
