// The reads of the lockups API: the calendar (by date range, with filters), one event with its
// factors, clause and prices since the IPO, the public next-30-days list, and the source status.
import { DateTime } from 'luxon';
import type { DataSource, EntityManager } from 'typeorm';
import { LOCKUPS_DISCOVERY_SOURCE } from './lockups.store';
import { floatShareOf, topLockupFactors } from './lockups-risk';
import {
  LOCKUP_CALENDAR_MAX_LIMIT,
  LOCKUP_RESEARCH_DAYS,
  type LockupCalendarQuery,
  type LockupCalendarResponse,
  type LockupDataSource,
  type LockupEarlyReleaseView,
  type LockupEventDetail,
  type LockupEventView,
  type LockupRiskFactorView,
  type LockupSourceStatus,
  type LockupStatus,
} from './lockups.shapes';

type Db = DataSource | EntityManager;
type Row = Record<string, unknown>;

/** needs_review events listed apart on the calendar, at most. */
export const LOCKUP_REVIEW_LIMIT = 50;
/** Events of the public research list, at most. */
export const LOCKUP_RESEARCH_LIMIT = 200;

const str = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

const VIEW_COLUMNS = `e.id, e.ticker, e.company_name, e.ipo_date::text AS ipo_date, e.lockup_expiration_date::text AS lockup_expiration_date,
  e.tranche, e.tranches, e.tranche_label, e.shares_locked_up::text AS shares_locked_up, e.total_shares_outstanding::text AS total_shares_outstanding,
  trim_scale(e.ipo_price)::text AS ipo_price, trim_scale(e.current_price)::text AS current_price, trim_scale(e.market_cap)::text AS market_cap,
  e.vc_backed, e.industry, e.risk_score::float8 AS risk_score, e.status, e.data_source, e.risk_factors`;

function toEventView(r: Row): LockupEventView {
  const factors = (r.risk_factors as LockupRiskFactorView[] | null) ?? [];
  const sharesLockedUp = str(r.shares_locked_up);
  const totalSharesOutstanding = str(r.total_shares_outstanding);
  const share = floatShareOf(sharesLockedUp, totalSharesOutstanding);
  return {
    id: Number(r.id),
    // Empty while the issuer's symbol is unknown (the event then needs review).
    ticker: (r.ticker as string | null) ?? '',
    companyName: r.company_name as string,
    ipoDate: r.ipo_date as string,
    lockupExpirationDate: str(r.lockup_expiration_date),
    tranche: Number(r.tranche),
    tranches: Number(r.tranches),
    trancheLabel: str(r.tranche_label),
    sharesLockedUp,
    totalSharesOutstanding,
    floatShare: share === null ? null : Math.round(share * 10_000) / 10_000,
    ipoPrice: str(r.ipo_price),
    currentPrice: str(r.current_price),
    marketCap: str(r.market_cap),
    vcBacked: r.vc_backed as boolean,
    industry: str(r.industry),
    riskScore: Number(r.risk_score),
    status: r.status as LockupStatus,
    dataSource: r.data_source as LockupDataSource,
    topFactors: topLockupFactors(factors, 2),
  };
}

/** The lock-up calendar's time zone: US markets (an expiry is a New York trading day). */
export const LOCKUPS_ZONE = 'America/New_York';

/** Today in New York, YYYY-MM-DD: what "today", "in 7 days" and "expired" mean. */
export function lockupsToday(now: Date): string {
  return DateTime.fromJSDate(now, { zone: LOCKUPS_ZONE }).toISODate() as string;
}

/** YYYY-MM-DD + n days. */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
}

/** The filters of the calendar as SQL on `e`, with their parameters from $start. */
function filterSql(q: LockupCalendarQuery, start: number): { sql: string[]; params: unknown[] } {
  const sql: string[] = [];
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${start + params.length - 1}`;
  };
  if (q.minRisk !== undefined) sql.push(`e.risk_score >= ${p(q.minRisk)}`);
  if (q.minFloatShare !== undefined) sql.push(`e.shares_locked_up >= ${p(q.minFloatShare)}::numeric * NULLIF(e.total_shares_outstanding, 0)`);
  if (q.industry !== undefined) sql.push(`lower(e.industry) = lower(${p(q.industry)})`);
  if (q.vcBacked !== undefined) sql.push(`e.vc_backed = ${p(q.vcBacked)}`);
  return { sql, params };
}

/**
 * GET /api/lockups/calendar: the tranches expiring from..to (inclusive) matching the filters, by
 * date then risk; the needs_review events (no date) apart, newest filing first; the industries
 * present (for the filter); where the data comes from.
 */
export async function lockupCalendar(
  db: Db,
  q: Required<Pick<LockupCalendarQuery, 'from' | 'to'>> & LockupCalendarQuery,
  mode: 'live' | 'replay',
): Promise<LockupCalendarResponse> {
  const limit = Math.min(Math.max(1, q.limit ?? LOCKUP_CALENDAR_MAX_LIMIT), LOCKUP_CALENDAR_MAX_LIMIT);
  const filters = filterSql(q, 4);
  // A dated event still needing review (its symbol unknown) is listed with the review ones only.
  const where = ["e.lockup_expiration_date BETWEEN $1::date AND $2::date AND e.status <> 'needs_review'", ...filters.sql].join(' AND ');
  const events: Row[] = await db.query(
    `SELECT ${VIEW_COLUMNS} FROM lockup_events e WHERE ${where}
      ORDER BY e.lockup_expiration_date, e.risk_score DESC, e.id LIMIT $3`,
    [q.from, q.to, limit, ...filters.params],
  );
  let review: Row[] = [];
  if (q.includeReview !== false) {
    const reviewFilters = filterSql(q, 2);
    review = await db.query(
      `SELECT ${VIEW_COLUMNS} FROM lockup_events e WHERE ${["e.status = 'needs_review'", ...reviewFilters.sql].join(' AND ')}
        ORDER BY e.filing_date DESC NULLS LAST, e.id DESC LIMIT $1`,
      [LOCKUP_REVIEW_LIMIT, ...reviewFilters.params],
    );
  }
  const industries: { industry: string }[] = await db.query(
    'SELECT DISTINCT industry FROM lockup_events WHERE industry IS NOT NULL ORDER BY industry',
  );
  return {
    from: q.from,
    to: q.to,
    events: events.map(toEventView),
    review: review.map(toEventView),
    industries: industries.map((r) => r.industry),
    source: await lockupsSourceStatus(db, mode),
  };
}

/** GET /api/lockups/events/:id: the event with its factors, clause, triggers, prices since the IPO and sibling tranches. Null when unknown. */
export async function lockupEventDetail(db: Db, id: number): Promise<LockupEventDetail | null> {
  const [row]: Row[] = await db.query(
    `SELECT ${VIEW_COLUMNS}, e.cik, e.offering_key, e.lockup_days, e.shares_offered::text AS shares_offered, e.underwriters, e.bound_parties, e.clause,
            e.source_accession, e.source_url, e.review_reason, e.early_release
       FROM lockup_events e WHERE e.id = $1`,
    [id],
  );
  if (!row) return null;
  const view = toEventView(row);
  const siblings: Row[] = await db.query(
    `SELECT id, lockup_expiration_date::text AS lockup_expiration_date, shares_locked_up::text AS shares_locked_up, tranche
       FROM lockup_events WHERE offering_key = $1 AND id <> $2 ORDER BY tranche`,
    [row.offering_key, id],
  );
  let prices: LockupEventDetail['prices'] = [];
  let pricesSource: string | null = null;
  if (view.ticker) {
    const bars: { day: string; close: string; volume: string; source: string }[] = await db.query(
      `SELECT to_char(b.open_time AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, trim_scale(b.close)::text AS close, trim_scale(b.volume)::text AS volume, b.source
         FROM price_bars b JOIN markets m ON m.id = b.market_id
        WHERE m.symbol = $1 AND b.interval = '1d' AND b.open_time >= $2::date
        ORDER BY b.open_time`,
      [view.ticker, view.ipoDate],
    );
    prices = bars.map((b) => ({ date: b.day, close: b.close, volume: b.volume }));
    pricesSource = bars.length ? bars[bars.length - 1].source : null;
  }
  return {
    ...view,
    cik: str(row.cik),
    lockupDays: row.lockup_days === null ? null : Number(row.lockup_days),
    sharesOffered: str(row.shares_offered),
    underwriters: (row.underwriters as string[] | null) ?? [],
    boundParties: str(row.bound_parties),
    clause: str(row.clause),
    sourceAccession: str(row.source_accession),
    sourceUrl: str(row.source_url),
    reviewReason: str(row.review_reason),
    earlyRelease: (row.early_release as LockupEarlyReleaseView[] | null) ?? [],
    factors: (row.risk_factors as LockupRiskFactorView[] | null) ?? [],
    prices,
    pricesSource,
    siblings: siblings.map((s) => ({
      id: Number(s.id),
      lockupExpirationDate: str(s.lockup_expiration_date),
      sharesLockedUp: str(s.shares_locked_up),
      tranche: Number(s.tranche),
    })),
  };
}

/** Events by id (the notices' subjects), in no order. */
export async function lockupEventViews(db: Db, ids: readonly number[]): Promise<LockupEventView[]> {
  if (!ids.length) return [];
  const rows: Row[] = await db.query(`SELECT ${VIEW_COLUMNS} FROM lockup_events e WHERE e.id = ANY($1::int[])`, [ids]);
  return rows.map(toEventView);
}

/** GET /api/lockups/research (public): the tranches expiring in the next LOCKUP_RESEARCH_DAYS days, by date then risk. */
export async function lockupResearch(db: Db, today: string): Promise<LockupEventView[]> {
  const rows: Row[] = await db.query(
    `SELECT ${VIEW_COLUMNS} FROM lockup_events e
      WHERE e.lockup_expiration_date BETWEEN $1::date AND $2::date AND e.status IN ('scheduled', 'released_early')
      ORDER BY e.lockup_expiration_date, e.risk_score DESC, e.id LIMIT $3`,
    [today, addDays(today, LOCKUP_RESEARCH_DAYS), LOCKUP_RESEARCH_LIMIT],
  );
  return rows.map(toEventView);
}

/** Where the calendar's data comes from, and when the discovery last ran. */
export async function lockupsSourceStatus(db: Db, mode: 'live' | 'replay'): Promise<LockupSourceStatus> {
  const [row]: { last_success_at: Date | null }[] = await db.query('SELECT last_success_at FROM source_health WHERE source = $1', [LOCKUPS_DISCOVERY_SOURCE]);
  return { mode, lastDiscoveryAt: row?.last_success_at ? new Date(row.last_success_at).toISOString() : null };
}
