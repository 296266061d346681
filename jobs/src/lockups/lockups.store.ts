// The writes of the lockups domain: offerings (one row per tranche), market data and scores,
// statuses (expired, released early), and the discovery's source status. Reads are in
// lockups-read.store.ts, follows and notices in lockups-follows.store.ts.
import type { DataSource, EntityManager } from 'typeorm';
import { recordSourceHealth } from '../sources/source-health';
import type { Clock } from '../runtime/clock';
import type { LockupDataSource, LockupEarlyReleaseView, LockupRiskFactorView, LockupStatus } from './lockups.shapes';

type Db = DataSource | EntityManager;

/** The source_health row whose last success is the calendar's lastDiscoveryAt. */
export const LOCKUPS_DISCOVERY_SOURCE = 'lockups-discovery';

/** One tranche of an offering to store. */
export interface LockupTrancheInput {
  /** 1-based. */
  tranche: number;
  label: string | null;
  /** YYYY-MM-DD, or null: the event needs review (never a guessed date). */
  expirationDate: string | null;
  sharesLockedUp: string | null;
  riskScore: number;
  riskFactors: LockupRiskFactorView[];
  /** Why this tranche was not fully read (e.g. released on an event, not a date); else the offering's reviewReason. */
  reviewReason?: string | null;
}

/** An offering (one prospectus, or one CSV offering) with its tranches. */
export interface LockupOfferingInput {
  /** The prospectus's accession number, or csv:<TICKER>:<ipoDate>. */
  offeringKey: string;
  ticker: string | null;
  companyName: string;
  cik: string | null;
  ipoDate: string;
  filingDate: string | null;
  ipoPrice: string | null;
  sharesOffered: string | null;
  underwriters: string[];
  lockupDays: number | null;
  boundParties: string | null;
  clause: string | null;
  sourceAccession: string | null;
  sourceUrl: string | null;
  dataSource: LockupDataSource;
  totalSharesOutstanding: string | null;
  vcBacked: boolean;
  industry: string | null;
  earlyRelease: Omit<LockupEarlyReleaseView, 'metOn'>[];
  /** Why the lock-up was not fully read; set on every tranche. */
  reviewReason: string | null;
  tranches: LockupTrancheInput[];
}

export interface LockupUpsertResult {
  ids: number[];
  inserted: number;
  updated: number;
  /** Tranches of an earlier parse the new one no longer has (deleted). */
  removed: number;
}

/** The status of a tranche when written: needs_review without a date, expired once the date has passed. */
export function initialLockupStatus(expirationDate: string | null, today: string): LockupStatus {
  if (expirationDate === null) return 'needs_review';
  return expirationDate < today ? 'expired' : 'scheduled';
}

/**
 * Stores an offering: one row per tranche, idempotent by (offering_key, tranche). A re-parse
 * updates the rows (a tranche the new parse no longer has is deleted), keeping what later jobs
 * measured (prices, run-up, volume, the day an early-release trigger was met, released_early).
 * Run it inside a transaction (an EntityManager) to store several offerings at once.
 */
export async function upsertLockupOffering(db: Db, offering: LockupOfferingInput, options: { today: string }): Promise<LockupUpsertResult> {
  if (!offering.tranches.length) throw new Error(`${offering.offeringKey}: an offering needs at least one tranche`);
  const ids: number[] = [];
  let inserted = 0;
  // An offering's tranche count is its highest tranche number (a CSV may give them out of order).
  const tranches = Math.max(...offering.tranches.map((t) => t.tranche));
  for (const t of offering.tranches) {
    const status = initialLockupStatus(t.expirationDate, options.today);
    const given = t.reviewReason ?? offering.reviewReason;
    const reviewReason = status === 'needs_review' ? (given ?? 'the lock-up period was not read from the filing') : given;
    const rows: { id: number; inserted: boolean }[] = await db.query(
      `INSERT INTO lockup_events (offering_key, tranche, tranches, tranche_label, ticker, company_name, cik, ipo_date, filing_date,
          lockup_expiration_date, shares_locked_up, total_shares_outstanding, ipo_price, shares_offered, underwriters, lockup_days,
          bound_parties, clause, source_accession, source_url, data_source, vc_backed, industry, early_release, status, review_reason,
          risk_score, risk_factors)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11::numeric, $12::numeric, $13::numeric, $14::numeric, $15::text[], $16,
          $17, $18, $19, $20, $21, $22, $23, $24::jsonb, $25, $26, $27, $28::jsonb)
       ON CONFLICT (offering_key, tranche) DO UPDATE SET
          tranches = EXCLUDED.tranches, tranche_label = EXCLUDED.tranche_label, ticker = EXCLUDED.ticker, company_name = EXCLUDED.company_name,
          cik = EXCLUDED.cik, ipo_date = EXCLUDED.ipo_date, filing_date = EXCLUDED.filing_date,
          lockup_expiration_date = EXCLUDED.lockup_expiration_date, shares_locked_up = EXCLUDED.shares_locked_up,
          total_shares_outstanding = COALESCE(EXCLUDED.total_shares_outstanding, lockup_events.total_shares_outstanding),
          ipo_price = EXCLUDED.ipo_price, shares_offered = EXCLUDED.shares_offered, underwriters = EXCLUDED.underwriters,
          lockup_days = EXCLUDED.lockup_days, bound_parties = EXCLUDED.bound_parties, clause = EXCLUDED.clause,
          source_accession = EXCLUDED.source_accession, source_url = EXCLUDED.source_url, data_source = EXCLUDED.data_source,
          vc_backed = EXCLUDED.vc_backed, industry = EXCLUDED.industry,
          -- A trigger already met keeps its date (matched by its words).
          early_release = (SELECT COALESCE(jsonb_agg(x.n || jsonb_build_object('metOn',
                             (SELECT o->'metOn' FROM jsonb_array_elements(lockup_events.early_release) o
                               WHERE o->>'description' = x.n->>'description' AND o->'metOn' <> 'null'::jsonb LIMIT 1)) ORDER BY x.i), '[]'::jsonb)
                             FROM jsonb_array_elements(EXCLUDED.early_release) WITH ORDINALITY AS x(n, i)),
          status = CASE WHEN lockup_events.status = 'released_early' AND EXCLUDED.status <> 'needs_review' THEN 'released_early' ELSE EXCLUDED.status END,
          review_reason = EXCLUDED.review_reason,
          risk_score = EXCLUDED.risk_score, risk_factors = EXCLUDED.risk_factors, updated_at = now()
       RETURNING id, (xmax = 0) AS inserted`,
      [
        offering.offeringKey,
        t.tranche,
        tranches,
        t.label?.slice(0, 300) ?? null,
        offering.ticker,
        offering.companyName.slice(0, 200),
        offering.cik,
        offering.ipoDate,
        offering.filingDate,
        t.expirationDate,
        t.sharesLockedUp,
        offering.totalSharesOutstanding,
        offering.ipoPrice,
        offering.sharesOffered,
        offering.underwriters,
        offering.lockupDays,
        offering.boundParties,
        offering.clause,
        offering.sourceAccession,
        offering.sourceUrl,
        offering.dataSource,
        offering.vcBacked,
        offering.industry?.slice(0, 100) ?? null,
        JSON.stringify(offering.earlyRelease.map((e) => ({ ...e, metOn: null }))),
        status,
        reviewReason,
        t.riskScore,
        JSON.stringify(t.riskFactors),
      ],
    );
    ids.push(rows[0].id);
    if (rows[0].inserted) inserted++;
  }
  const [, removed]: [unknown, number] = await db.query('DELETE FROM lockup_events WHERE offering_key = $1 AND tranche > $2', [offering.offeringKey, tranches]);
  return { ids, inserted, updated: ids.length - inserted, removed: removed ?? 0 };
}

/** What the refresh and the trigger check read of an event. */
export interface LockupEventFacts {
  id: number;
  offeringKey: string;
  ticker: string | null;
  cik: string | null;
  companyName: string;
  ipoDate: string;
  lockupExpirationDate: string | null;
  status: LockupStatus;
  ipoPrice: string | null;
  sharesLockedUp: string | null;
  totalSharesOutstanding: string | null;
  vcBacked: boolean;
  industry: string | null;
  underwriters: string[];
  earlyRelease: LockupEarlyReleaseView[];
  earlyReleaseMetOn: string | null;
  runUp: number | null;
  avgVolumeRatio: number | null;
}

const FACTS_COLUMNS = `id, offering_key, ticker, cik, company_name, ipo_date::text AS ipo_date, lockup_expiration_date::text AS lockup_expiration_date,
  status, trim_scale(ipo_price)::text AS ipo_price, shares_locked_up::text AS shares_locked_up,
  total_shares_outstanding::text AS total_shares_outstanding, vc_backed, industry, underwriters, early_release,
  early_release_met_on::text AS early_release_met_on, run_up::float8 AS run_up, avg_volume_ratio::float8 AS avg_volume_ratio`;

function toFacts(r: Record<string, unknown>): LockupEventFacts {
  return {
    id: Number(r.id),
    offeringKey: r.offering_key as string,
    ticker: (r.ticker as string | null) ?? null,
    cik: (r.cik as string | null) ?? null,
    companyName: r.company_name as string,
    ipoDate: r.ipo_date as string,
    lockupExpirationDate: (r.lockup_expiration_date as string | null) ?? null,
    status: r.status as LockupStatus,
    ipoPrice: (r.ipo_price as string | null) ?? null,
    sharesLockedUp: (r.shares_locked_up as string | null) ?? null,
    totalSharesOutstanding: (r.total_shares_outstanding as string | null) ?? null,
    vcBacked: r.vc_backed as boolean,
    industry: (r.industry as string | null) ?? null,
    underwriters: (r.underwriters as string[] | null) ?? [],
    earlyRelease: (r.early_release as LockupEarlyReleaseView[] | null) ?? [],
    earlyReleaseMetOn: (r.early_release_met_on as string | null) ?? null,
    runUp: r.run_up === null || r.run_up === undefined ? null : Number(r.run_up),
    avgVolumeRatio: r.avg_volume_ratio === null || r.avg_volume_ratio === undefined ? null : Number(r.avg_volume_ratio),
  };
}

/** Events still ahead (dated today or later) and those needing review: what the daily refresh and trigger check walk. */
export async function upcomingLockupEvents(db: Db, today: string): Promise<LockupEventFacts[]> {
  const rows: Record<string, unknown>[] = await db.query(
    `SELECT ${FACTS_COLUMNS} FROM lockup_events
      WHERE status IN ('scheduled', 'needs_review', 'released_early') AND (lockup_expiration_date IS NULL OR lockup_expiration_date >= $1)
      ORDER BY id`,
    [today],
  );
  return rows.map(toFacts);
}

export async function lockupEventFacts(db: Db, id: number): Promise<LockupEventFacts | null> {
  const [row]: Record<string, unknown>[] = await db.query(`SELECT ${FACTS_COLUMNS} FROM lockup_events WHERE id = $1`, [id]);
  return row ? toFacts(row) : null;
}

/** Scheduled events whose date has passed become expired (released_early ones stay so). Answers how many. */
export async function expirePastLockups(db: Db, today: string): Promise<number> {
  const [, n]: [unknown, number] = await db.query(
    `UPDATE lockup_events SET status = 'expired', updated_at = now() WHERE status = 'scheduled' AND lockup_expiration_date < $1`,
    [today],
  );
  return n ?? 0;
}

/** What the refresh measured for an event, and the score recomputed from it. */
export interface LockupMarketUpdate {
  totalSharesOutstanding: string | null;
  currentPrice: string | null;
  marketCap: string | null;
  runUp: number | null;
  avgVolumeRatio: number | null;
  riskScore: number;
  riskFactors: LockupRiskFactorView[];
}

export async function updateLockupMarketData(db: Db, id: number, update: LockupMarketUpdate): Promise<void> {
  await db.query(
    `UPDATE lockup_events SET total_shares_outstanding = COALESCE($2::numeric, total_shares_outstanding), current_price = COALESCE($3::numeric, current_price),
        market_cap = COALESCE($4::numeric, market_cap), run_up = $5, avg_volume_ratio = $6, risk_score = $7, risk_factors = $8::jsonb, updated_at = now()
      WHERE id = $1`,
    [
      id,
      update.totalSharesOutstanding,
      update.currentPrice,
      update.marketCap,
      update.runUp === null ? null : Math.max(-99, Math.min(99_999_999, Math.round(update.runUp * 10_000) / 10_000)),
      update.avgVolumeRatio === null ? null : Math.min(99_999_999, Math.round(update.avgVolumeRatio * 10_000) / 10_000),
      update.riskScore,
      JSON.stringify(update.riskFactors),
    ],
  );
}

/**
 * Records that an early-release trigger was met: the triggers (with their metOn), the first day one
 * was met, and status released_early for a scheduled tranche whose date is still ahead. Idempotent.
 */
export async function recordLockupEarlyRelease(db: Db, id: number, earlyRelease: LockupEarlyReleaseView[], metOn: string): Promise<boolean> {
  const [, n]: [unknown, number] = await db.query(
    `UPDATE lockup_events SET early_release = $2::jsonb, early_release_met_on = LEAST(COALESCE(early_release_met_on, $3::date), $3::date),
        status = CASE WHEN status = 'scheduled' AND lockup_expiration_date > $3::date THEN 'released_early' ELSE status END, updated_at = now()
      WHERE id = $1 AND (early_release_met_on IS NULL OR early_release IS DISTINCT FROM $2::jsonb)`,
    [id, JSON.stringify(earlyRelease), metOn],
  );
  return (n ?? 0) > 0;
}

/** Daily closes and volumes of a ticker's market since a date (1d bars, oldest first), with the newest bar's source. */
export async function dailyBarsSince(db: Db, ticker: string, since: string): Promise<{ bars: { date: string; close: string; volume: string }[]; source: string | null }> {
  const rows: { day: string; close: string; volume: string; source: string }[] = await db.query(
    `SELECT to_char(b.open_time AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, trim_scale(b.close)::text AS close, trim_scale(b.volume)::text AS volume, b.source
       FROM price_bars b JOIN markets m ON m.id = b.market_id
      WHERE m.symbol = $1 AND b.interval = '1d' AND b.open_time >= $2::date
      ORDER BY b.open_time`,
    [ticker, since],
  );
  return { bars: rows.map((r) => ({ date: r.day, close: r.close, volume: r.volume })), source: rows.length ? rows[rows.length - 1].source : null };
}

/** The discovery ran: its time is the calendar's lastDiscoveryAt. */
export async function recordLockupsDiscovery(deps: { dataSource: DataSource; clock: Clock }, outcome: { ok: true; details: Record<string, unknown> } | { ok: false; error: string }): Promise<void> {
  await recordSourceHealth(deps, LOCKUPS_DISCOVERY_SOURCE, outcome.ok ? { ok: true, dataAt: deps.clock.now(), details: outcome.details } : outcome);
}

/** A CIK's trading symbol from what other domains hold (EDGAR's company_tickers via insiders, markets), or null. */
export async function tickerForCik(db: Db, cik: string): Promise<string | null> {
  const [row]: { ticker: string }[] = await db.query(
    `SELECT ticker FROM (
       SELECT ticker, 1 AS rank FROM insider_trading_companies WHERE cik = $1 AND ticker IS NOT NULL
       UNION ALL SELECT symbol, 2 FROM markets WHERE cik = $1 AND type IN ('stock', 'etf')
     ) t ORDER BY rank LIMIT 1`,
    [cik],
  );
  return row?.ticker ?? null;
}

/** The offerings already stored among these keys. */
export async function storedOfferingKeys(db: Db, keys: readonly string[]): Promise<Set<string>> {
  if (!keys.length) return new Set();
  const rows: { offering_key: string }[] = await db.query('SELECT DISTINCT offering_key FROM lockup_events WHERE offering_key = ANY($1)', [keys]);
  return new Set(rows.map((r) => r.offering_key));
}
