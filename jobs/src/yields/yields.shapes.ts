// HTTP shapes of the yields domain (liquidity-pool yields from DefiLlama and the Uniswap v3
// subgraph, explainable analytics, yield alerts): plain types and constants with no runtime
// imports; the web client imports this file as `@tickerbell/jobs/yields/shapes`. Meanings and
// formulas in docs/yields.md.
//
// Numbers: money and percentages are decimal strings (as PostgreSQL numeric reads), null when the
// source did not give them or they could not be computed; times are ISO 8601 UTC.

// ---------------------------------------------------------------------------------------------
// Sources

/** Where a yield_data row's TVL, volume and fees came from. */
export const YIELD_DATA_SOURCES = ['uniswap-subgraph', 'defillama', 'defillama-chart'] as const;
export type YieldDataSource = (typeof YIELD_DATA_SOURCES)[number];

/**
 * Whose number `apr` is: 'computed' = our fee APR 24 h (from the subgraph's daily fees, or DefiLlama's
 * 1-day volume x the pool's fee tier) plus DefiLlama's reward APY; 'defillama' = DefiLlama's `apy`
 * (we had no fees to compute from).
 */
export const YIELD_APR_SOURCES = ['computed', 'defillama'] as const;
export type YieldAprSource = (typeof YIELD_APR_SOURCES)[number];

/** 'live': the real APIs; 'replay': the offline twins (the DefiLlama /pools answer is simulated, see docs/yields.md). */
export type YieldsSourceKind = 'live' | 'replay';

/** DefiLlama's "Down" vs "Stable/Up" forecast of a pool's APY, as it publishes it (not ours). */
export interface YieldPrediction {
  /** 'Down' | 'Stable/Up' (DefiLlama's words). */
  predictedClass: string | null;
  /** Percent, 0..100. */
  predictedProbability: number | null;
  /** 1 (low) .. 3 (high). */
  binnedConfidence: number | null;
}

// ---------------------------------------------------------------------------------------------
// Score

/** The named parts of yieldScore, in display order (docs/yields.md, "Score"). */
export const YIELD_SCORE_COMPONENTS = ['feeApr', 'vtr', 'tvlStability', 'muSigma', 'outlier', 'rewardShare', 'mean30d'] as const;
export type YieldScoreComponentName = (typeof YIELD_SCORE_COMPONENTS)[number];

export interface YieldScoreComponent {
  name: YieldScoreComponentName;
  /** Human label, e.g. "Fee APR (7 d)". */
  label: string;
  /** Weight out of 100 before renormalisation over the available components. */
  weight: number;
  /** The input the part was scored from (e.g. the APR in percent, the coefficient of variation), null when unavailable. */
  input: number | null;
  /** 0..1; null when the input is unavailable (the component is left out and the others renormalised). */
  score: number | null;
  /** What this part added to the 0..100 total (0 when unavailable). */
  points: number;
  /** One sentence: what the input was and how it was scored. */
  explanation: string;
}

export interface YieldScoreBreakdown {
  /** 0..100, null when fewer than 3 components were available. */
  total: number | null;
  components: YieldScoreComponent[];
}

// ---------------------------------------------------------------------------------------------
// Pools

export const YIELD_POOL_SORTS = ['apr', 'tvl', 'score'] as const;
export type YieldPoolSort = (typeof YIELD_POOL_SORTS)[number];

// GET /api/yields/pools?chain=&dex=&token=&stablecoin=true&minTvl=&sort=apr|tvl|score&cursor=&limit= (signed in)
export interface YieldPoolsQuery {
  /** DefiLlama's chain name, case-insensitive (Ethereum, Arbitrum, ...). */
  chain?: string;
  /** DefiLlama's project slug (uniswap-v3, curve-dex, lido, ...), stored as `dex`. */
  dex?: string;
  /** A symbol (case-insensitive, matched against the pool symbol and its token symbols) or a 0x token address. */
  token?: string;
  stablecoin?: boolean;
  /** USD. */
  minTvl?: number;
  /** Default 'tvl'; always descending, pools without the value last. */
  sort?: YieldPoolSort;
  /** Opaque, from `nextCursor`. */
  cursor?: string;
  /** Default 50, at most YIELD_POOLS_MAX_LIMIT. */
  limit?: number;
}
export const YIELD_POOLS_DEFAULT_LIMIT = 50;
export const YIELD_POOLS_MAX_LIMIT = 200;

/** One row of the pools table (latest values). */
export interface YieldPoolRow {
  /** Our id (yield_pools.id): the one the API's paths and alerts use. */
  id: number;
  /** The source's id (DefiLlama's pool UUID). */
  poolId: string;
  chain: string;
  /** DefiLlama project slug. */
  dex: string;
  symbol: string;
  /** Fee tier in hundredths of a basis point (3000 = 0.3 %); null when not a fee-tier pool. */
  feeTier: number | null;
  stablecoin: boolean;
  /** DefiLlama's impermanent-loss risk: 'yes' | 'no'. */
  ilRisk: string | null;
  /** 'single' | 'multi'. */
  exposure: string | null;
  /** Whether we ingest a snapshot of it every hour (top N by TVL of its chain, or someone's alert). */
  tracked: boolean;
  tvlUsd: string | null;
  /** The headline yield, percent per year (see aprSource). */
  apr: string | null;
  aprSource: YieldAprSource | null;
  /** DefiLlama's apy as published. */
  defillamaApy: string | null;
  /** True when our APR and DefiLlama's differ by more than YIELD_APR_TOLERANCE. */
  aprDisagrees: boolean | null;
  /** Daily volume / TVL. */
  vtr: string | null;
  yieldScore: string | null;
  /** Time of the snapshot these values are from. */
  asOf: string | null;
}

export interface YieldPoolsPage {
  rows: YieldPoolRow[];
  nextCursor: string | null;
  source: YieldsSourceView;
}

/**
 * Our APR and DefiLlama's are said to disagree when they differ by more than both of these:
 * an absolute gap in percentage points and a relative gap (fraction of the larger).
 */
export const YIELD_APR_TOLERANCE = { absolutePoints: 1, relative: 0.25 } as const;

/** The latest snapshot of a pool with everything it was computed from. */
export interface YieldSnapshotView {
  id: string;
  timestamp: string;
  dataSource: YieldDataSource;
  tvlUsd: string | null;
  /** 24 h volume, USD. */
  volumeUsd: string | null;
  volumeUsd7d: string | null;
  /** 24 h fees, USD. */
  feesUsd: string | null;
  apr: string | null;
  aprSource: YieldAprSource | null;
  /** Fee APR = fees over the window x 365 / average TVL over the window x 100 (percent); null without fee data. */
  feeApr24h: string | null;
  feeApr7d: string | null;
  feeApr30d: string | null;
  vtr: string | null;
  yieldScore: string | null;
  defillamaApy: string | null;
  apyBase: string | null;
  apyReward: string | null;
  apyMean30d: string | null;
  /** The 30-day baseline of the spike detection (mean and standard deviation of the APR). */
  aprMean30d: string | null;
  aprSigma30d: string | null;
  /** DefiLlama's mu and sigma and its outlier flag (mu or sigma outside the median +- 1.5 IQR of all pools). */
  mu: string | null;
  sigma: string | null;
  outlier: boolean | null;
  /** DefiLlama's 7-day impermanent loss, percent. */
  il7d: string | null;
  aprDisagrees: boolean | null;
  prediction: YieldPrediction | null;
  score: YieldScoreBreakdown | null;
}

export interface YieldPoolDetail extends YieldPoolRow {
  token0: string;
  token1: string;
  token0Symbol: string;
  token1Symbol: string;
  /** Every underlying token address, as DefiLlama lists them. */
  underlyingTokens: string[];
  /** The on-chain pool contract (Uniswap v3), when matched in the subgraph. */
  poolAddress: string | null;
  /** DefiLlama's poolMeta (e.g. "0.3%"), shown as is. */
  poolMeta: string | null;
  isActive: boolean;
}

// GET /api/yields/pools/:id (signed in)
export interface YieldPoolPage {
  pool: YieldPoolDetail;
  latest: YieldSnapshotView | null;
  /** Last 30 days, one point per day (the day's last snapshot). */
  series: YieldSeriesPoint[];
  /** The viewer's alerts on this pool. */
  alerts: YieldAlertView[];
  source: YieldsSourceView;
}

export interface YieldSeriesPoint {
  /** ISO 8601 UTC of the snapshot. */
  timestamp: string;
  tvlUsd: string | null;
  volumeUsd: string | null;
  feesUsd: string | null;
  apr: string | null;
  feeApr24h: string | null;
  defillamaApy: string | null;
  yieldScore: string | null;
  dataSource: YieldDataSource;
}

// GET /api/yields/pools/:id/series?days=30 (signed in): at most YIELD_SERIES_MAX_DAYS
export interface YieldSeriesPage {
  poolId: number;
  days: number;
  points: YieldSeriesPoint[];
}
export const YIELD_SERIES_MAX_DAYS = 90;

// GET /api/yields/top?limit=20 (public, /research/yields): top tracked pools by score, with their breakdown
export interface YieldTopPool extends YieldPoolRow {
  score: YieldScoreBreakdown | null;
}
export interface YieldTopPage {
  rows: YieldTopPool[];
  source: YieldsSourceView;
}
export const YIELD_TOP_MAX_LIMIT = 50;

// ---------------------------------------------------------------------------------------------
// Alerts

/** What an alert watches (yield_alerts.alert_type). */
export const YIELD_ALERT_TYPES = ['apr', 'apy_spike', 'tvl_drop', 'vtr'] as const;
export type YieldAlertType = (typeof YIELD_ALERT_TYPES)[number];

/** yield_alerts.condition (default greater_than, as the spec says). */
export const YIELD_ALERT_CONDITIONS = ['greater_than', 'less_than'] as const;
export type YieldAlertCondition = (typeof YIELD_ALERT_CONDITIONS)[number];

/** Conditions each type accepts (the first is its default). */
export const YIELD_ALERT_TYPE_CONDITIONS: Readonly<Record<YieldAlertType, readonly YieldAlertCondition[]>> = {
  apr: ['greater_than', 'less_than'],
  apy_spike: ['greater_than'],
  tvl_drop: ['greater_than'],
  vtr: ['greater_than'],
};

/**
 * The five kinds the issue names, as (type, condition): apr_above, apr_below, apy_spike (APR above
 * its 30-day mean by `threshold` sigmas or percent), tvl_drop (TVL down by `threshold` % from its
 * highest within `windowHours`), vtr_above.
 */
export const YIELD_ALERT_KINDS = ['apr_above', 'apr_below', 'apy_spike', 'tvl_drop', 'vtr_above'] as const;
export type YieldAlertKind = (typeof YIELD_ALERT_KINDS)[number];

/** The unit of an apy_spike threshold: standard deviations of the 30-day APR, or percent above the 30-day mean. */
export const YIELD_SPIKE_UNITS = ['sigma', 'percent'] as const;
export type YieldSpikeUnit = (typeof YIELD_SPIKE_UNITS)[number];

/** tvl_drop windows, hours (default 24). */
export const YIELD_TVL_DROP_WINDOW_MIN_HOURS = 1;
export const YIELD_TVL_DROP_WINDOW_MAX_HOURS = 720;
export const YIELD_TVL_DROP_WINDOW_DEFAULT_HOURS = 24;

/** Cooldown bounds, minutes (default YIELDS_ALERT_COOLDOWN_MINUTES, 360). */
export const YIELD_ALERT_COOLDOWN_MIN_MINUTES = 0;
export const YIELD_ALERT_COOLDOWN_MAX_MINUTES = 10_080;

/** Threshold bounds per type (inclusive); the API answers 400 naming `threshold` outside them. */
export const YIELD_ALERT_THRESHOLD_BOUNDS: Readonly<Record<YieldAlertType, { min: number; max: number }>> = {
  /** Percent per year. */
  apr: { min: 0, max: 100_000 },
  /** Sigmas (unit sigma) or percent above the mean (unit percent). */
  apy_spike: { min: 0.1, max: 10_000 },
  /** Percent drop, exclusive of 0 and at most 100. */
  tvl_drop: { min: 0.1, max: 100 },
  /** Daily volume / TVL. */
  vtr: { min: 0.0001, max: 1_000 },
};

// POST /api/yields/alerts
export interface YieldAlertInput {
  /** Our pool id (YieldPoolRow.id). */
  poolId: number;
  alertType: YieldAlertType;
  /** Default greater_than; must be one of YIELD_ALERT_TYPE_CONDITIONS[alertType]. */
  condition?: YieldAlertCondition;
  /** A number or decimal string, in the unit of the type (YIELD_ALERT_THRESHOLD_BOUNDS). */
  threshold: number | string;
  /** apy_spike only (required there, default 'sigma'). */
  spikeUnit?: YieldSpikeUnit;
  /** tvl_drop only (default 24). */
  windowHours?: number;
  /** Default YIELDS_ALERT_COOLDOWN_MINUTES. */
  cooldownMinutes?: number;
  isActive?: boolean;
  /** Default false: an email copy (only when mail is configured). */
  emailEnabled?: boolean;
  /** Default false: a Telegram message (only when Telegram is configured and the user linked a chat). */
  telegramEnabled?: boolean;
}

// PATCH /api/yields/alerts/:id: any of these (poolId cannot change)
export type YieldAlertPatch = Partial<Omit<YieldAlertInput, 'poolId'>>;

export interface YieldAlertView {
  id: number;
  poolId: number;
  pool: { id: number; poolId: string; symbol: string; chain: string; dex: string };
  alertType: YieldAlertType;
  condition: YieldAlertCondition;
  kind: YieldAlertKind;
  threshold: string;
  spikeUnit: YieldSpikeUnit | null;
  windowHours: number | null;
  cooldownMinutes: number;
  isActive: boolean;
  emailEnabled: boolean;
  telegramEnabled: boolean;
  /** false after firing until the value crosses back past the threshold by the hysteresis margin. */
  armed: boolean;
  /** The re-arm margin in the threshold's unit (docs/yields.md, "Hysteresis"). */
  hysteresisMargin: string;
  lastTriggered: string | null;
  /** One sentence, e.g. "APR above 12 %". */
  description: string;
  createdAt: string;
  updatedAt: string;
}

// GET /api/yields/alerts
export interface YieldAlertsPage {
  rows: YieldAlertView[];
  /** Which delivery channels the deployment has (email: mail configured; telegram: bot token set). */
  channels: { email: boolean; telegram: boolean };
}

// GET /api/yields/alerts/history?alertId=&cursor=&limit= (signed in): newest first
export interface YieldAlertHistoryQuery {
  alertId?: number;
  cursor?: string;
  /** Default 50, at most 200. */
  limit?: number;
}

export interface YieldAlertLogView {
  id: number;
  alertId: number;
  poolId: number;
  poolSymbol: string;
  kind: YieldAlertKind;
  triggeredAt: string;
  /** In the threshold's unit. */
  triggeredValue: string;
  threshold: string;
  /** The snapshot it fired on (null once pruned). */
  yieldDataId: string | null;
  message: string;
  emailSent: boolean;
  telegramSent: boolean;
}

export interface YieldAlertHistoryPage {
  rows: YieldAlertLogView[];
  nextCursor: string | null;
}

// ---------------------------------------------------------------------------------------------
// Source view (shown beside every table: where the numbers come from and how fresh they are)

export interface YieldSourceHealthView {
  /** source_health.source: 'defillama-yields' | 'uniswap-subgraph'. */
  source: string;
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  lastError: string | null;
  consecutiveFailures: number;
}

export interface YieldsSourceView {
  kind: YieldsSourceKind;
  /** Time of the latest stored snapshot; null before the first ingest. */
  lastSnapshotAt: string | null;
  /** Pools seen in the last /pools answer, and of those tracked (stored hourly). */
  poolsKnown: number;
  poolsTracked: number;
  sources: YieldSourceHealthView[];
  /** One sentence for the page footer, e.g. "DefiLlama (simulated replay) and the Uniswap v3 subgraph (recorded replay)". */
  note: string;
}

/** The error codes of YieldsError (the api maps them: not_found 404, invalid 400, conflict 409; plan limits are billing's EntitlementError). */
export const YIELDS_ERROR_CODES = ['not_found', 'invalid', 'conflict'] as const;
export type YieldsErrorCode = (typeof YIELDS_ERROR_CODES)[number];
