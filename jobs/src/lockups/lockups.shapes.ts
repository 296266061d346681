// HTTP shapes of the lockups domain (IPO lock-up expirations): the calendar, one event with its
// risk factors and clause, the public next-30-days list, and the follows. Plain types and constants
// with no runtime imports: the web client imports this file as `@tickerbell/jobs/lockups/shapes`;
// the api's zod schemas and the store's row mapping come from it. Definitions in docs/lockups.md.

/** Where an event came from: EDGAR live, a recorded prospectus (offline), a simulated variant of a recorded prospectus (offline demo), or an operator's CSV. */
export const LOCKUP_DATA_SOURCES = ['sec', 'sec-replay', 'simulated', 'csv'] as const;
export type LockupDataSource = (typeof LOCKUP_DATA_SOURCES)[number];

/**
 * scheduled: the expiration date was read from the filing (or given by the CSV);
 * needs_review: the wording was not parsed, so no date is shown (never a guessed date);
 * released_early: an early-release trigger was met before the date; expired: the date has passed.
 */
export const LOCKUP_STATUSES = ['scheduled', 'needs_review', 'released_early', 'expired'] as const;
export type LockupStatus = (typeof LOCKUP_STATUSES)[number];

/** The named factors of the risk score (docs/lockups.md gives each one's study and default weight). */
export const LOCKUP_RISK_FACTORS = ['vcBacked', 'floatUnlock', 'runUp', 'volume', 'sector', 'underwriterTier'] as const;
export type LockupRiskFactorName = (typeof LOCKUP_RISK_FACTORS)[number];

/** Days before the expiry a follower may be told (plus the day itself, always). */
export const LOCKUP_NOTICE_DAYS = [14, 7, 1] as const;
export type LockupNoticeDays = (typeof LOCKUP_NOTICE_DAYS)[number];

export const LOCKUP_CALENDAR_MAX_DAYS = 366;
export const LOCKUP_CALENDAR_MAX_LIMIT = 500;
/** The public research page: the next N days. */
export const LOCKUP_RESEARCH_DAYS = 30;

/** One factor of an event's score: points = weight × value (value 0..1), rounded to 0.1. */
export interface LockupRiskFactorView {
  name: LockupRiskFactorName;
  label: string;
  /** Points this factor adds (0..weight). */
  points: number;
  weight: number;
  /** 0..1, how much of the weight applies to this event. */
  value: number;
  /** The measured input in words, e.g. "79.5 % of the float unlocks", or null when unknown. */
  input: string | null;
  /** The study the factor comes from, e.g. "Field & Hanka (2001)". */
  source: string;
  /** False when the input is unknown (counted as 0 and said). */
  known: boolean;
}

/** An early-release trigger read from the clause. */
export interface LockupEarlyReleaseView {
  /** The clause's words for it, e.g. "if the closing price is at least 33% above the IPO price for 10 of 15 trading days". */
  description: string;
  /** The price multiple of the IPO price (1.33), or null when the trigger is an event (an earnings release). */
  priceMultiple: number | null;
  /** N of M trading days. */
  days: number | null;
  windowDays: number | null;
  /** Share of the locked shares released (0..1), or null when not stated. */
  sharePct: number | null;
  /** When the trigger was met (YYYY-MM-DD), or null. */
  metOn: string | null;
}

/** A row of the calendar (one tranche of one offering). */
export interface LockupEventView {
  id: number;
  ticker: string;
  companyName: string;
  /** YYYY-MM-DD. */
  ipoDate: string;
  /** YYYY-MM-DD, or null when the event needs review. */
  lockupExpirationDate: string | null;
  /** 1-based tranche of the offering, and how many tranches it has. */
  tranche: number;
  tranches: number;
  trancheLabel: string | null;
  sharesLockedUp: string | null;
  totalSharesOutstanding: string | null;
  /** sharesLockedUp / totalSharesOutstanding, 0..1, or null. */
  floatShare: number | null;
  ipoPrice: string | null;
  currentPrice: string | null;
  marketCap: string | null;
  vcBacked: boolean;
  industry: string | null;
  riskScore: number;
  status: LockupStatus;
  dataSource: LockupDataSource;
  /** The two biggest factors, for the list and notifications. */
  topFactors: LockupRiskFactorView[];
}

/** GET /api/lockups/events/:id */
export interface LockupEventDetail extends LockupEventView {
  cik: string | null;
  lockupDays: number | null;
  sharesOffered: string | null;
  underwriters: string[];
  /** Who is bound, as the clause says ("our directors, executive officers and holders of substantially all ..."). */
  boundParties: string | null;
  /** The quoted clause (plain text). */
  clause: string | null;
  sourceAccession: string | null;
  sourceUrl: string | null;
  reviewReason: string | null;
  earlyRelease: LockupEarlyReleaseView[];
  factors: LockupRiskFactorView[];
  /** Daily closes since the IPO for the chart (from the prices feature), and where they came from. */
  prices: { date: string; close: string; volume: string }[];
  pricesSource: string | null;
  /** The other tranches of the same offering (id, date, shares). */
  siblings: { id: number; lockupExpirationDate: string | null; sharesLockedUp: string | null; tranche: number }[];
}

/** GET /api/lockups/calendar query. */
export interface LockupCalendarQuery {
  /** YYYY-MM-DD inclusive; default today .. today + 30. At most LOCKUP_CALENDAR_MAX_DAYS apart. */
  from?: string;
  to?: string;
  minRisk?: number;
  /** 0..1. */
  minFloatShare?: number;
  industry?: string;
  vcBacked?: boolean;
  /** Include needs_review events (no date: listed apart). Default true. */
  includeReview?: boolean;
  limit?: number;
}

export interface LockupCalendarResponse {
  from: string;
  to: string;
  events: LockupEventView[];
  /** Events whose date is unknown (needs_review), newest filing first, at most 50. */
  review: LockupEventView[];
  /** Industries present, for the filter. */
  industries: string[];
  source: LockupSourceStatus;
}

export interface LockupSourceStatus {
  /** live: EDGAR; replay: recorded and simulated prospectuses (offline demo). */
  mode: 'live' | 'replay';
  lastDiscoveryAt: string | null;
}

export const LOCKUP_FOLLOW_KINDS = ['ticker', 'risk'] as const;
export type LockupFollowKind = (typeof LOCKUP_FOLLOW_KINDS)[number];

/** A follow: a ticker, or every event at or above a risk score. */
export interface LockupFollowView {
  id: number;
  kind: LockupFollowKind;
  ticker: string | null;
  minRiskScore: number | null;
  /** Subset of LOCKUP_NOTICE_DAYS; the day itself is always notified. */
  noticeDays: LockupNoticeDays[];
  createdAt: string;
}

/** POST /api/lockups/follows body. */
export interface LockupFollowInput {
  kind: LockupFollowKind;
  ticker?: string;
  minRiskScore?: number;
  noticeDays?: LockupNoticeDays[];
}
