// HTTP shapes of the insiders domain (SEC Form 4 insider trades): the screener, the latest
// filings, company and insider pages, cluster buys, one filing, and the follows. Plain types and
// constants with no runtime imports: the web client imports this file as
// `@tickerbell/jobs/insiders/shapes`; the api's zod schemas and the stores' row mapping come from
// it. Meanings and exact definitions in docs/insiders.md.

/** SEC transaction codes (Form 4 General Instructions 8), with what each means to a trader. */
export const TRANSACTION_CODES = {
  P: 'Open-market or private purchase',
  S: 'Open-market or private sale',
  A: 'Grant or award from the company',
  D: 'Disposition to the issuer',
  F: 'Tax withholding (shares withheld to pay taxes or the exercise price)',
  I: 'Discretionary transaction',
  M: 'Exercise or conversion of a derivative (exempt)',
  C: 'Conversion of a derivative',
  E: 'Expiration of a short derivative position',
  H: 'Expiration or cancellation of a long derivative position',
  O: 'Exercise of an out-of-the-money derivative',
  X: 'Exercise of an in-the-money or at-the-money derivative',
  G: 'Gift',
  L: 'Small acquisition',
  W: 'Acquisition or disposition by will or the laws of descent',
  Z: 'Deposit into or withdrawal from a voting trust',
  J: 'Other acquisition or disposition (see footnotes)',
  K: 'Equity swap or similar',
  U: 'Disposition in a change-of-control tender',
  V: 'Transaction voluntarily reported earlier than required',
} as const;
export type TransactionCode = keyof typeof TRANSACTION_CODES;
export const TRANSACTION_CODE_LIST = Object.keys(TRANSACTION_CODES) as TransactionCode[];

/** The only codes counted as buying and selling in sentiment, clusters and alerts (P and S). */
export const BUY_CODE = 'P';
export const SELL_CODE = 'S';

export const TRANSACTION_TABLES = ['non-derivative', 'derivative'] as const;
export type TransactionTable = (typeof TRANSACTION_TABLES)[number];

/** A reporting owner's relationships to the issuer (several may hold). */
export const INSIDER_ROLES = ['officer', 'director', 'tenPercentOwner', 'other'] as const;
export type InsiderRole = (typeof INSIDER_ROLES)[number];

/** Cohen-Malloy-Pomorski: routine when the insider traded in the same calendar month in each of the 3 previous years. */
export const TRADER_PATTERNS = ['routine', 'opportunistic'] as const;
export type TraderPattern = (typeof TRADER_PATTERNS)[number];

export const INSIDER_SENTIMENTS = ['bullish', 'bearish', 'neutral'] as const;
export type InsiderSentiment = (typeof INSIDER_SENTIMENTS)[number];

export const INSIDER_ALERT_LEVELS = ['none', 'low', 'medium', 'high'] as const;
export type InsiderAlertLevel = (typeof INSIDER_ALERT_LEVELS)[number];

/** Where a row's data came from: EDGAR live, the recorded filings (offline), or a simulated variant of a recorded filing (offline demo). */
export const INSIDER_DATA_SOURCES = ['sec', 'sec-replay', 'simulated'] as const;
export type InsiderDataSource = (typeof INSIDER_DATA_SOURCES)[number];

/** The screener's sort keys (GET /api/insiders/screener?sort=): anything else is a 400. */
export const INSIDER_SORT_KEYS = ['filedAt', 'transactionDate', 'totalValue', 'sharesTraded', 'ticker'] as const;
export type InsiderSortKey = (typeof INSIDER_SORT_KEYS)[number];

export const INSIDER_SCREENER_MAX_LIMIT = 200;
export const INSIDER_SCREENER_DEFAULT_LIMIT = 50;
/** Rows in one CSV export (format=csv). */
export const INSIDER_CSV_MAX_ROWS = 10_000;
/** The window of the analytics, in days. */
export const INSIDER_WINDOW_DAYS = 30;
/** Distinct insiders buying on the open market within the window that make a cluster buy. */
export const CLUSTER_BUY_MIN_INSIDERS = 3;
/** Default minimum of the officer-buy alert and preset, USD. */
export const OFFICER_BUY_DEFAULT_MIN_VALUE = 25_000;

/** GET /api/insiders/screener query (every field optional; dates YYYY-MM-DD, inclusive). */
export interface InsiderScreenerQuery {
  filedFrom?: string;
  filedTo?: string;
  tradedFrom?: string;
  tradedTo?: string;
  /** Comma-separated in the URL: codes=P,S. */
  codes?: TransactionCode[];
  /** Minimum |totalValue| in USD. */
  minValue?: number;
  /** Comma-separated: roles=officer,director. A row matches when its insider holds any of them. */
  roles?: InsiderRole[];
  ticker?: string;
  /** The reporting owner's CIK (the insider page). */
  insiderCik?: string;
  /** Only lines of companies that are in a cluster buy on the line's trade date window (analytics isClusterBuy). */
  clusterOnly?: boolean;
  /** Leave out lines made under a 10b5-1 plan (rule10b5One true). */
  exclude10b5One?: boolean;
  /** Default: transaction lines of both tables; 'non-derivative' for shares only. */
  table?: TransactionTable;
  sort?: InsiderSortKey;
  order?: 'asc' | 'desc';
  limit?: number;
  /** Opaque, from the previous page's nextCursor. */
  cursor?: string;
  /** csv: the whole result (up to INSIDER_CSV_MAX_ROWS) as text/csv instead of a JSON page. */
  format?: 'json' | 'csv';
}

/** A co-reporting owner of a joint filing. */
export interface InsiderOwnerRef {
  cik: string;
  name: string;
}

/** One transaction line, as the screener, the company page and the insider page show it. */
export interface InsiderTradeRow {
  id: string;
  accessionNumber: string;
  formType: string;
  /** EDGAR acceptance time, ISO; null when only the filing date is known. */
  filedAt: string | null;
  filingDate: string | null;
  /** The filing's index page on sec.gov. */
  secUrl: string | null;
  companyCik: string;
  ticker: string | null;
  companyName: string;
  insiderCik: string;
  insiderName: string;
  roles: InsiderRole[];
  officerTitle: string | null;
  /** The other reporting owners of a joint filing (the line is counted once, under insiderCik). */
  coOwners: InsiderOwnerRef[];
  table: TransactionTable;
  lineNumber: number;
  securityTitle: string | null;
  transactionDate: string;
  transactionCode: string;
  acquiredDisposed: 'A' | 'D' | null;
  /** Decimal strings, as stored. */
  sharesTraded: string;
  pricePerShare: string | null;
  totalValue: string | null;
  sharesOwnedAfter: string | null;
  isWeightedPrice: boolean;
  priceFootnote: string | null;
  directOrIndirect: 'D' | 'I' | null;
  natureOfOwnership: string | null;
  rule10b5One: boolean | null;
  traderPattern: TraderPattern | null;
  /** 'buy' for P, 'sell' for S, null for every other code (never counted as buying or selling). */
  countsAs: 'buy' | 'sell' | null;
  dataSource: InsiderDataSource;
}

export interface InsiderScreenerPage {
  rows: InsiderTradeRow[];
  nextCursor: string | null;
  /** True when any row is from the recorded or simulated source (the UI labels it). */
  replay: boolean;
}

/** The analytics of a company on one day (the 30 days up to analysisDate). Decimal strings. */
export interface InsiderAnalyticsView {
  analysisDate: string;
  totalTransactions30d: number;
  buyTransactions30d: number;
  sellTransactions30d: number;
  netShares30d: string;
  netValue30d: string;
  totalVolume30d: string;
  avgTransactionSize: string | null;
  discretionaryBuyValue: string;
  discretionarySellValue: string;
  distinctInsiders: number;
  insiderSentiment: InsiderSentiment | null;
  /** -100..+100. */
  sentimentScore: string | null;
  /** 0..1. */
  confidenceLevel: string | null;
  /** 0..100 against every company's score that day. */
  percentileRank: string | null;
  /** 0..100 against the company's own history. */
  historyPercentile: string | null;
  isClusterBuy: boolean;
  clusterInsiders: number;
  isUnusualActivity: boolean;
  alertLevel: InsiderAlertLevel;
  alertReason: string | null;
  reasonTransactionIds: string[];
}

export interface InsiderCompanyRef {
  cik: string;
  ticker: string | null;
  name: string;
}

/** What the signed-in user chose for a followed company (PUT body and GET answer). */
export interface InsiderFollowSettings {
  notifyClusterBuy: boolean;
  /** USD; null turns the officer/director purchase alert off. */
  officerBuyMinValue: number | null;
  notifyUnusualActivity: boolean;
}

export interface InsiderFollowView extends InsiderFollowSettings {
  company: InsiderCompanyRef;
  createdAt: string;
}

/** GET /api/insiders/companies/:ticker (ticker, or the 10-digit CIK for an issuer without one). */
export interface InsiderCompanyPage {
  company: InsiderCompanyRef & { industry: string | null; sector: string | null };
  latest: InsiderAnalyticsView | null;
  /** Oldest first, up to 365 days. */
  history: InsiderAnalyticsView[];
  /** The newest lines (a screener page with ticker=...). */
  transactions: InsiderScreenerPage;
  /** The signed-in user's follow of it, or null (also null when signed out). */
  follow: InsiderFollowSettings | null;
  /** The market symbol of the prices feature for the price chart, or null when it has none. */
  marketSymbol: string | null;
}

/** GET /api/insiders/insiders/:cik. */
export interface InsiderPage {
  insider: { cik: string; name: string; roles: InsiderRole[] };
  /** The companies it reported on, with its latest title there. */
  companies: (InsiderCompanyRef & { roles: InsiderRole[]; officerTitle: string | null; lastFiledAt: string | null })[];
  transactions: InsiderScreenerPage;
}

/** GET /api/insiders/filings (latest filings feed). */
export interface InsiderFilingSummary {
  accessionNumber: string;
  formType: string;
  filedAt: string | null;
  filingDate: string | null;
  status: 'pending' | 'parsed' | 'failed';
  failureReason: string | null;
  company: InsiderCompanyRef | null;
  reportingOwners: InsiderOwnerRef[];
  /** Lines stored, and how many are P and S. */
  lines: number;
  buys: number;
  sells: number;
  /** Sum of |totalValue| of its P and S lines, USD. */
  openMarketValue: string;
  secUrl: string | null;
}

export interface InsiderFilingsPage {
  filings: InsiderFilingSummary[];
  nextCursor: string | null;
  replay: boolean;
}

/** GET /api/insiders/cluster-buys (public research page). */
export interface InsiderClusterBuy {
  company: InsiderCompanyRef;
  analysisDate: string;
  clusterInsiders: number;
  discretionaryBuyValue: string;
  sentimentScore: string | null;
  alertReason: string | null;
  buyers: (InsiderOwnerRef & { roles: InsiderRole[]; value: string; lastBuyDate: string })[];
  /** True when any of the buyers' lines is from the recorded or simulated source (the UI labels it). */
  replay: boolean;
}

/** One stored filing (GET /api/insiders/filings/:accession, and `npm run cli -- insiders filing <accession>`). */
export interface InsiderFilingView {
  accessionNumber: string;
  formType: string;
  status: 'pending' | 'parsed' | 'failed';
  failureReason: string | null;
  filedAt: string | null;
  filingDate: string | null;
  periodOfReport: string | null;
  secUrl: string | null;
  issuer: { cik: string; ticker: string | null; name: string } | null;
  reportingOwners: {
    cik: string;
    name: string;
    isOfficer: boolean;
    isDirector: boolean;
    isTenPercentOwner: boolean;
    isOther: boolean;
    officerTitle: string | null;
  }[];
  rule10b5One: boolean | null;
  /** Set on a 4/A: the accession of the filing whose rows it replaced, when found. */
  amends: string | null;
  /** Set on an original replaced by a 4/A. */
  amendedBy: string | null;
  footnotes: Record<string, string>;
  transactions: {
    table: TransactionTable;
    lineNumber: number;
    securityTitle: string | null;
    transactionDate: string;
    transactionCode: string;
    sharesTraded: string;
    pricePerShare: string | null;
    acquiredDisposed: 'A' | 'D' | null;
    sharesOwnedAfter: string | null;
    totalValue: string | null;
    isWeightedPrice: boolean;
    rule10b5One: boolean | null;
  }[];
}
