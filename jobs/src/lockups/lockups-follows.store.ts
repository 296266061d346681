// A user's lock-up follows (a ticker, or every event at or above a risk score) and the notices
// sent for them (lockup_notices: one per user, event and days-before, never twice).
import type { DataSource, EntityManager } from 'typeorm';
import type { Entitlements } from '../billing/entitlements';
import {
  LOCKUP_FOLLOW_KINDS,
  LOCKUP_NOTICE_DAYS,
  type LockupFollowInput,
  type LockupFollowKind,
  type LockupFollowView,
  type LockupNoticeDays,
} from './lockups.shapes';

type Db = DataSource | EntityManager;
type Row = Record<string, unknown>;

/** A ticker as the calendar stores it: upper case letters, digits, dot and dash. */
export const LOCKUP_TICKER_PATTERN = /^[A-Z0-9][A-Z0-9.-]{0,19}$/;

export type LockupsErrorCode = 'invalid_follow' | 'follow_exists' | 'not_found';

/**
 * A request the lockups store refuses; the api maps each code to a status (docs/lockups.md, "API").
 * How many follows a user may have is their plan's (billing's entitlements, `lockupFollows`).
 */
export class LockupsError extends Error {
  constructor(
    readonly code: LockupsErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'LockupsError';
  }
}

function followView(r: Row): LockupFollowView {
  return {
    id: Number(r.id),
    kind: r.kind as LockupFollowKind,
    ticker: (r.ticker as string | null) ?? null,
    minRiskScore: r.min_risk_score === null || r.min_risk_score === undefined ? null : Number(r.min_risk_score),
    noticeDays: ((r.notice_days as number[] | null) ?? []) as LockupNoticeDays[],
    createdAt: new Date(r.created_at as string | Date).toISOString(),
  };
}

const FOLLOW_COLUMNS = 'id, kind, ticker, min_risk_score::float8 AS min_risk_score, notice_days, created_at';

/** Notice days checked and ordered (14, 7, 1); undefined: all of them. */
function noticeDaysOf(days: readonly number[] | undefined): LockupNoticeDays[] {
  if (days === undefined) return [...LOCKUP_NOTICE_DAYS];
  for (const d of days) {
    if (!(LOCKUP_NOTICE_DAYS as readonly number[]).includes(d)) {
      throw new LockupsError('invalid_follow', `noticeDays: each must be one of ${LOCKUP_NOTICE_DAYS.join(', ')}`, 'noticeDays');
    }
  }
  return LOCKUP_NOTICE_DAYS.filter((d) => days.includes(d));
}

function riskScoreOf(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 100) {
    throw new LockupsError('invalid_follow', 'minRiskScore: a number from 0 to 100', 'minRiskScore');
  }
  return Math.round(value * 10) / 10;
}

/** The user's follows, tickers first (by ticker), then the risk follow. */
export async function listLockupFollows(db: Db, userId: number): Promise<LockupFollowView[]> {
  const rows: Row[] = await db.query(`SELECT ${FOLLOW_COLUMNS} FROM lockup_follows WHERE user_id = $1 ORDER BY kind DESC, ticker, id`, [userId]);
  return rows.map(followView);
}

/**
 * Follows a ticker, or every event at or above a risk score (one such follow per user). Throws
 * LockupsError: invalid_follow (naming the field), follow_exists; EntitlementError past the plan's
 * `lockupFollows` or for a read-only account.
 */
export async function createLockupFollow(
  dataSource: DataSource,
  userId: number,
  input: LockupFollowInput,
  access: { entitlements: Entitlements; now: Date },
): Promise<LockupFollowView> {
  if (!(LOCKUP_FOLLOW_KINDS as readonly string[]).includes(input.kind)) {
    throw new LockupsError('invalid_follow', `kind: one of ${LOCKUP_FOLLOW_KINDS.join(', ')}`, 'kind');
  }
  let ticker: string | null = null;
  let minRiskScore: number | null = null;
  if (input.kind === 'ticker') {
    ticker = typeof input.ticker === 'string' ? input.ticker.trim().toUpperCase() : '';
    if (!LOCKUP_TICKER_PATTERN.test(ticker)) throw new LockupsError('invalid_follow', 'ticker: 1 to 20 letters, digits, dots or dashes', 'ticker');
    if (input.minRiskScore !== undefined) throw new LockupsError('invalid_follow', 'minRiskScore: only for a risk follow', 'minRiskScore');
  } else {
    if (input.ticker !== undefined) throw new LockupsError('invalid_follow', 'ticker: only for a ticker follow', 'ticker');
    if (input.minRiskScore === undefined) throw new LockupsError('invalid_follow', 'minRiskScore: required for a risk follow', 'minRiskScore');
    minRiskScore = riskScoreOf(input.minRiskScore);
  }
  const noticeDays = noticeDaysOf(input.noticeDays);
  const exists = () =>
    new LockupsError('follow_exists', input.kind === 'ticker' ? `already following ${ticker}` : 'already following events above a risk score', input.kind === 'ticker' ? 'ticker' : 'kind');
  return dataSource.transaction(async (manager) => {
    // A follow the user has is a 409 whatever their plan.
    const [existing]: Row[] = await manager.query(
      `SELECT 1 FROM lockup_follows WHERE user_id = $1 AND kind = $2 AND ($2 = 'risk' OR ticker = $3)`,
      [userId, input.kind, ticker],
    );
    if (existing) throw exists();
    // Counted under the entitlements' per-user lock: two concurrent follows cannot both take the last place.
    await access.entitlements.checkLimit(manager, userId, 'lockupFollows', () => countLockupFollows(manager, userId), access.now);
    // The unique indexes stop a concurrent duplicate.
    const rows: Row[] = await manager.query(
      `INSERT INTO lockup_follows (user_id, kind, ticker, min_risk_score, notice_days)
       VALUES ($1, $2, $3, $4, $5::smallint[])
       ON CONFLICT DO NOTHING
       RETURNING ${FOLLOW_COLUMNS}`,
      [userId, input.kind, ticker, minRiskScore, noticeDays],
    );
    if (!rows.length) throw exists();
    return followView(rows[0]);
  });
}

async function countLockupFollows(db: Db, userId: number): Promise<number> {
  const [row]: { n: number }[] = await db.query('SELECT count(*)::int AS n FROM lockup_follows WHERE user_id = $1', [userId]);
  return row.n;
}

/** Changes a follow's notice days or (a risk follow's) minimum score. Null when the follow is not the user's. */
export async function updateLockupFollow(
  db: Db,
  userId: number,
  id: number,
  input: { noticeDays?: LockupNoticeDays[]; minRiskScore?: number },
): Promise<LockupFollowView | null> {
  const [current]: Row[] = await db.query(`SELECT ${FOLLOW_COLUMNS} FROM lockup_follows WHERE id = $1 AND user_id = $2`, [id, userId]);
  if (!current) return null;
  if (input.minRiskScore !== undefined && current.kind !== 'risk') {
    throw new LockupsError('invalid_follow', 'minRiskScore: only for a risk follow', 'minRiskScore');
  }
  const noticeDays = input.noticeDays === undefined ? null : noticeDaysOf(input.noticeDays);
  const minRiskScore = input.minRiskScore === undefined ? null : riskScoreOf(input.minRiskScore);
  // An UPDATE answers [rows, count].
  const [rows]: [Row[], number] = await db.query(
    `UPDATE lockup_follows SET notice_days = COALESCE($3::smallint[], notice_days), min_risk_score = COALESCE($4::numeric, min_risk_score)
      WHERE id = $1 AND user_id = $2 RETURNING ${FOLLOW_COLUMNS}`,
    [id, userId, noticeDays, minRiskScore],
  );
  return rows.length ? followView(rows[0]) : null;
}

/** Removes a follow; false when it is not the user's (or does not exist). */
export async function deleteLockupFollow(db: Db, userId: number, id: number): Promise<boolean> {
  const [, n]: [unknown, number] = await db.query('DELETE FROM lockup_follows WHERE id = $1 AND user_id = $2', [id, userId]);
  return (n ?? 0) > 0;
}

/** One notice to send: a user, an event, how many days before its expiry (0: the day). */
export interface DueLockupNotice {
  userId: number;
  eventId: number;
  daysBefore: number;
  /** Recorded earlier today (a retried run): dispatched again, never written twice. */
  recorded: boolean;
}

/**
 * The notices due today: for each live user's follow (a ticker, or events at or above a risk
 * score), the dated, not-expired tranches expiring today + d for d in the follow's notice days or
 * today (d = 0), not already noticed on an earlier day.
 */
export async function dueLockupNotices(db: Db, today: string): Promise<DueLockupNotice[]> {
  const rows: { user_id: number; event_id: number; days_before: number; recorded: boolean }[] = await db.query(
    `SELECT DISTINCT f.user_id, e.id AS event_id, d.days_before, (n.user_id IS NOT NULL) AS recorded
       FROM lockup_follows f
       JOIN users u ON u.id = f.user_id AND u.deleted_at IS NULL
       CROSS JOIN LATERAL unnest(array_append(f.notice_days, 0::smallint)) AS d(days_before)
       JOIN lockup_events e ON e.lockup_expiration_date = $1::date + d.days_before
        AND e.status IN ('scheduled', 'released_early')
        AND ((f.kind = 'ticker' AND e.ticker = f.ticker) OR (f.kind = 'risk' AND e.risk_score >= f.min_risk_score))
       LEFT JOIN lockup_notices n ON n.user_id = f.user_id AND n.event_id = e.id AND n.days_before = d.days_before
      WHERE n.user_id IS NULL OR n.notified_on = $1::date
      ORDER BY e.id, d.days_before, f.user_id`,
    [today],
  );
  return rows.map((r) => ({ userId: r.user_id, eventId: r.event_id, daysBefore: Number(r.days_before), recorded: r.recorded }));
}

/** Records notices as sent today (inside the transaction that writes their notifications). */
export async function recordLockupNotices(db: Db, notices: readonly Pick<DueLockupNotice, 'userId' | 'eventId' | 'daysBefore'>[], today: string): Promise<void> {
  if (!notices.length) return;
  await db.query(
    `INSERT INTO lockup_notices (user_id, event_id, days_before, notified_on)
     SELECT * FROM unnest($1::int[], $2::int[], $3::smallint[], array_fill($4::date, ARRAY[cardinality($1::int[])]))
     ON CONFLICT DO NOTHING`,
    [notices.map((n) => n.userId), notices.map((n) => n.eventId), notices.map((n) => n.daysBefore), today],
  );
}
