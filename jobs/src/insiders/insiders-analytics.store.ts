import type { DataSource, EntityManager } from 'typeorm';
import type { Audience } from '../notifications/notifications.store';
import { insiderWindowStart, type InsiderLine, type PreviousInsiderAnalytics } from './insiders-analytics';
import type { InsiderAlertKind } from './insiders.jobs';
import type { InsiderAlertLevel, InsiderAnalyticsView, InsiderRole, InsiderSentiment, TraderPattern } from './insiders.shapes';

/**
 * The queries of the insider analytics and alerts: a company's lines, the analytics rows (write,
 * previous row, peer and history scores), the Cohen-Malloy-Pomorski pattern of each line, and the
 * followers each alert kind reaches.
 */
type Db = DataSource | EntityManager;

/** The company's own history the historyPercentile compares with: its scores of the last 3 years. */
export const INSIDER_HISTORY_DAYS = 3 * 365;

export interface InsiderCompanyKey {
  id: number;
  cik: string;
  ticker: string | null;
  name: string;
}

export async function insiderCompany(db: Db, companyId: number): Promise<InsiderCompanyKey | null> {
  const rows: { id: number; cik: string; ticker: string | null; company_name: string }[] = await db.query(
    `SELECT id, cik, ticker, company_name FROM insider_trading_companies WHERE id = $1`,
    [companyId],
  );
  const row = rows[0];
  return row ? { id: row.id, cik: row.cik, ticker: row.ticker, name: row.company_name } : null;
}

/** Serialises the recomputes of one company (the previous-row comparison needs it). */
export async function lockInsiderAnalytics(manager: EntityManager, companyId: number): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`insiders-analytics:${companyId}`]);
}

interface LineRow {
  id: string;
  insider_id: number;
  insider_name: string;
  is_officer: boolean;
  is_director: boolean;
  is_ten_percent_owner: boolean;
  is_other: boolean;
  officer_title: string | null;
  code: string;
  table_kind: string;
  transaction_date: string;
  shares_traded: string;
  total_value: string | null;
  rule10b5_one: boolean | null;
  acquired_disposed: string | null;
  accession: string;
  filed_at: Date | null;
  filing_date: string | null;
  sec_url: string | null;
}

function toLine(row: LineRow): InsiderLine {
  const roles: InsiderRole[] = [];
  if (row.is_officer) roles.push('officer');
  if (row.is_director) roles.push('director');
  if (row.is_ten_percent_owner) roles.push('tenPercentOwner');
  if (row.is_other) roles.push('other');
  return {
    id: String(row.id),
    insiderId: row.insider_id,
    insiderName: row.insider_name,
    roles,
    officerTitle: row.officer_title,
    code: row.code,
    table: row.table_kind === 'derivative' ? 'derivative' : 'non-derivative',
    transactionDate: row.transaction_date,
    shares: row.shares_traded,
    value: row.total_value,
    rule10b5One: row.rule10b5_one,
    acquiredDisposed: row.acquired_disposed === 'A' || row.acquired_disposed === 'D' ? row.acquired_disposed : null,
    accessionNumber: row.accession,
    filedAt: row.filed_at ? new Date(row.filed_at).toISOString() : null,
    filingDate: row.filing_date,
    secUrl: row.sec_url,
  };
}

/**
 * What the analytics of analysisDate read: every line of the company in the 30-day window, and its
 * P and S lines before it (the routine history and the cluster episode), oldest first. Roles are the
 * ones the insider filed the line's filing with (its filing_owners row), else its latest known.
 * Form 144 notices (is_proposed) are not trades.
 */
export async function loadInsiderLines(db: Db, companyId: number, analysisDate: string): Promise<InsiderLine[]> {
  const rows: LineRow[] = await db.query(
    `SELECT t.id, t.insider_id, i.name AS insider_name,
            COALESCE(o.is_officer, i.is_officer) AS is_officer, COALESCE(o.is_director, i.is_director) AS is_director,
            COALESCE(o.is_ten_percent_owner, i.is_ten_percent_owner) AS is_ten_percent_owner, COALESCE(o.is_other, i.is_other) AS is_other,
            o.officer_title, t.transaction_type AS code, t.table_kind, to_char(t.transaction_date, 'YYYY-MM-DD') AS transaction_date,
            t.shares_traded, t.total_value, t.rule10b5_one, t.acquired_disposed, t.sec_accession_number AS accession,
            f.filed_at, to_char(COALESCE(f.filing_date, t.sec_filing_date), 'YYYY-MM-DD') AS filing_date, COALESCE(f.sec_url, t.sec_url) AS sec_url
     FROM insider_trading_transactions t
     JOIN insider_trading_insiders i ON i.id = t.insider_id
     LEFT JOIN insider_trading_filings f ON f.id = t.filing_id
     LEFT JOIN insider_trading_filing_owners o ON o.filing_id = t.filing_id AND o.insider_id = t.insider_id
     WHERE t.company_id = $1 AND t.transaction_date <= $2 AND NOT t.is_proposed
       AND (t.transaction_date >= $3 OR t.transaction_type IN ('P', 'S'))
     ORDER BY t.transaction_date, t.id`,
    [companyId, analysisDate, insiderWindowStart(analysisDate)],
  );
  return rows.map(toLine);
}

/** The company's latest analytics row up to analysisDate (the state a recompute compares with). */
export async function previousInsiderAnalytics(db: Db, companyId: number, analysisDate: string): Promise<PreviousInsiderAnalytics | null> {
  const rows: { analysis_date: string; is_cluster_buy: boolean; is_unusual_activity: boolean; reason_transaction_ids: string[] | null }[] = await db.query(
    `SELECT to_char(analysis_date, 'YYYY-MM-DD') AS analysis_date, is_cluster_buy, is_unusual_activity, reason_transaction_ids
     FROM insider_trading_analytics WHERE company_id = $1 AND analysis_date <= $2 ORDER BY analysis_date DESC LIMIT 1`,
    [companyId, analysisDate],
  );
  const row = rows[0];
  if (!row) return null;
  return {
    analysisDate: row.analysis_date,
    isClusterBuy: row.is_cluster_buy,
    isUnusualActivity: row.is_unusual_activity,
    reasonTransactionIds: (row.reason_transaction_ids ?? []).map(String),
  };
}

/** Every other company's sentiment score of the date (percentileRank). */
export async function peerInsiderScores(db: Db, companyId: number, analysisDate: string): Promise<string[]> {
  const rows: { s: string }[] = await db.query(
    `SELECT sentiment_score AS s FROM insider_trading_analytics WHERE analysis_date = $1 AND company_id <> $2 AND sentiment_score IS NOT NULL`,
    [analysisDate, companyId],
  );
  return rows.map((r) => r.s);
}

/** The company's own scores of the INSIDER_HISTORY_DAYS before the date (historyPercentile). */
export async function historyInsiderScores(db: Db, companyId: number, analysisDate: string): Promise<string[]> {
  const rows: { s: string }[] = await db.query(
    `SELECT sentiment_score AS s FROM insider_trading_analytics
     WHERE company_id = $1 AND analysis_date < $2 AND analysis_date >= $2::date - $3::int AND sentiment_score IS NOT NULL`,
    [companyId, analysisDate, INSIDER_HISTORY_DAYS],
  );
  return rows.map((r) => r.s);
}

const ANALYTICS_COLUMNS = [
  'company_id',
  'analysis_date',
  'total_transactions_30d',
  'buy_transactions_30d',
  'sell_transactions_30d',
  'net_shares_30d',
  'net_value_30d',
  'total_volume_30d',
  'avg_transaction_size',
  'insider_sentiment',
  'sentiment_score',
  'confidence_level',
  'percentile_rank',
  'is_unusual_activity',
  'discretionary_buy_value',
  'discretionary_sell_value',
  'distinct_insiders',
  'is_cluster_buy',
  'cluster_insiders',
  'history_percentile',
  'reason_transaction_ids',
  'alert_level',
  'alert_reason',
] as const;

/** Writes the company's row of view.analysisDate (insert, or replace the values of the day's row). */
export async function upsertInsiderAnalytics(db: Db, companyId: number, view: InsiderAnalyticsView): Promise<void> {
  const values = [
    companyId,
    view.analysisDate,
    view.totalTransactions30d,
    view.buyTransactions30d,
    view.sellTransactions30d,
    view.netShares30d,
    view.netValue30d,
    view.totalVolume30d,
    view.avgTransactionSize,
    view.insiderSentiment,
    view.sentimentScore,
    view.confidenceLevel,
    view.percentileRank,
    view.isUnusualActivity,
    view.discretionaryBuyValue,
    view.discretionarySellValue,
    view.distinctInsiders,
    view.isClusterBuy,
    view.clusterInsiders,
    view.historyPercentile,
    JSON.stringify(view.reasonTransactionIds),
    view.alertLevel,
    view.alertReason,
  ];
  const placeholders = ANALYTICS_COLUMNS.map((c, i) => (c === 'reason_transaction_ids' ? `$${i + 1}::jsonb` : `$${i + 1}`));
  const updates = ANALYTICS_COLUMNS.slice(2).map((c) => `${c} = EXCLUDED.${c}`);
  await db.query(
    `INSERT INTO insider_trading_analytics (${ANALYTICS_COLUMNS.join(', ')}) VALUES (${placeholders.join(', ')})
     ON CONFLICT (company_id, analysis_date) DO UPDATE SET ${updates.join(', ')}`,
    values,
  );
}

/** Sets transactions.trader_pattern where it changed; returns the lines updated. */
export async function writeTraderPatterns(db: Db, patterns: Map<string, TraderPattern | null>): Promise<number> {
  if (!patterns.size) return 0;
  const ids = [...patterns.keys()];
  const values = ids.map((id) => patterns.get(id) ?? null);
  const rows: { id: string }[] = await db.query(
    `UPDATE insider_trading_transactions t SET trader_pattern = v.pattern
     FROM unnest($1::bigint[], $2::varchar[]) AS v(id, pattern)
     WHERE t.id = v.id AND t.trader_pattern IS DISTINCT FROM v.pattern
     RETURNING t.id`,
    [ids, values],
  );
  return rows.length;
}

interface AnalyticsRow {
  analysis_date: string;
  total_transactions_30d: number;
  buy_transactions_30d: number;
  sell_transactions_30d: number;
  net_shares_30d: string;
  net_value_30d: string;
  total_volume_30d: string;
  avg_transaction_size: string | null;
  discretionary_buy_value: string;
  discretionary_sell_value: string;
  distinct_insiders: number;
  insider_sentiment: string | null;
  sentiment_score: string | null;
  confidence_level: string | null;
  percentile_rank: string | null;
  history_percentile: string | null;
  is_cluster_buy: boolean;
  cluster_insiders: number;
  is_unusual_activity: boolean;
  alert_level: string | null;
  alert_reason: string | null;
  reason_transaction_ids: string[] | null;
}

/** The stored row of one day, as the api shows it (null when the day was not computed). */
export async function storedInsiderAnalytics(db: Db, companyId: number, analysisDate: string): Promise<InsiderAnalyticsView | null> {
  const rows: AnalyticsRow[] = await db.query(
    `SELECT to_char(analysis_date, 'YYYY-MM-DD') AS analysis_date, total_transactions_30d, buy_transactions_30d, sell_transactions_30d,
            net_shares_30d, net_value_30d, total_volume_30d, avg_transaction_size, discretionary_buy_value, discretionary_sell_value,
            distinct_insiders, insider_sentiment, sentiment_score, confidence_level, percentile_rank, history_percentile,
            is_cluster_buy, cluster_insiders, is_unusual_activity, alert_level, alert_reason, reason_transaction_ids
     FROM insider_trading_analytics WHERE company_id = $1 AND analysis_date = $2`,
    [companyId, analysisDate],
  );
  const r = rows[0];
  if (!r) return null;
  return {
    analysisDate: r.analysis_date,
    totalTransactions30d: r.total_transactions_30d,
    buyTransactions30d: r.buy_transactions_30d,
    sellTransactions30d: r.sell_transactions_30d,
    netShares30d: r.net_shares_30d,
    netValue30d: r.net_value_30d,
    totalVolume30d: r.total_volume_30d,
    avgTransactionSize: r.avg_transaction_size,
    discretionaryBuyValue: r.discretionary_buy_value,
    discretionarySellValue: r.discretionary_sell_value,
    distinctInsiders: r.distinct_insiders,
    insiderSentiment: r.insider_sentiment as InsiderSentiment | null,
    sentimentScore: r.sentiment_score,
    confidenceLevel: r.confidence_level,
    percentileRank: r.percentile_rank,
    historyPercentile: r.history_percentile,
    isClusterBuy: r.is_cluster_buy,
    clusterInsiders: r.cluster_insiders,
    isUnusualActivity: r.is_unusual_activity,
    alertLevel: (r.alert_level ?? 'none') as InsiderAlertLevel,
    alertReason: r.alert_reason,
    reasonTransactionIds: (r.reason_transaction_ids ?? []).map(String),
  };
}

/** Whether anyone follows the company (a recompute queues no alert for a company nobody follows). */
export async function hasInsiderFollowers(db: Db, companyId: number): Promise<boolean> {
  const rows: unknown[] = await db.query(
    `SELECT 1 FROM insider_follows f JOIN users u ON u.id = f.user_id WHERE f.company_id = $1 AND u.deleted_at IS NULL LIMIT 1`,
    [companyId],
  );
  return rows.length > 0;
}

/**
 * The followers an alert reaches, by the follower's settings of the company:
 * - cluster_buy: notify_cluster_buy;
 * - officer_buy: officer_buy_min_value set and at most the purchase's value (`value`, USD);
 * - unusual_activity: notify_unusual_activity; when the activity is a cluster buy (`clusterBuy`),
 *   not the followers who get cluster_buy alerts (the cluster alert already told them).
 */
export function insiderAlertAudience(companyId: number, kind: InsiderAlertKind, options: { value?: string; clusterBuy?: boolean } = {}): Audience {
  const follows = `SELECT 1 FROM insider_follows f WHERE f.user_id = u.id AND f.company_id = $1`;
  switch (kind) {
    case 'cluster_buy':
      return { where: `EXISTS (${follows} AND f.notify_cluster_buy)`, params: [companyId] };
    case 'officer_buy':
      if (options.value === undefined) throw new Error('an officer_buy audience needs the purchase value');
      return { where: `EXISTS (${follows} AND f.officer_buy_min_value IS NOT NULL AND f.officer_buy_min_value <= $2::numeric)`, params: [companyId, options.value] };
    case 'unusual_activity':
      return {
        where: `EXISTS (${follows} AND f.notify_unusual_activity${options.clusterBuy ? ' AND NOT f.notify_cluster_buy' : ''})`,
        params: [companyId],
      };
  }
}

/**
 * The companies whose analytics change on `analysisDate` without a new filing: a line traded in the
 * window ending that day, or yesterday's row counting lines (which may now leave the window).
 */
export async function companiesWithInsiderActivity(db: Db, analysisDate: string): Promise<number[]> {
  const rows: { id: number }[] = await db.query(
    `SELECT DISTINCT company_id AS id FROM insider_trading_transactions
     WHERE transaction_date BETWEEN $1::date AND $2::date AND NOT is_proposed
     UNION
     SELECT company_id FROM insider_trading_analytics WHERE analysis_date = $2::date - 1 AND total_transactions_30d > 0
     ORDER BY id`,
    [insiderWindowStart(analysisDate), analysisDate],
  );
  return rows.map((row) => Number(row.id));
}
