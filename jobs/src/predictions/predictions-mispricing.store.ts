import type { DataSource, EntityManager } from 'typeorm';
import type { Audience } from '../notifications/notifications.store';
import { computeConsensus, toFixed4, type ConsensusForecast, type MarketQuote } from './predictions-mispricing';
import { findMarket } from './predictions-markets.store';
import { PredictionsError } from './predictions.errors';
import type { MispricingAlertView, MispricingPage, MispricingSource, PredictionFollowView } from './predictions.shapes';

// Every query of the mispricing alerts and the follows: the feed and a market's alerts, the consensus
// the market page shows, a user's follows of markets and categories, and what the detection run
// (predictions-mispricing-run.ts) reads and writes, with the followers its new alerts notify.

type Db = DataSource | EntityManager;
type Row = Record<string, unknown>;

const DAY_MS = 86_400_000;
const iso = (at: unknown) => (at === null || at === undefined ? null : new Date(at as string | Date).toISOString());
const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** Defaults of PREDICTIONS_CONSENSUS_DAYS, PREDICTIONS_CONSENSUS_MIN_FORECASTERS and PREDICTIONS_MAX_FOLLOWS. */
export const DEFAULT_CONSENSUS_WINDOW = { days: 7, minForecasters: 3 };
export const DEFAULT_MAX_FOLLOWS = 200;
export const MISPRICING_PAGE_MAX = 200;

// ---------------------------------------------------------------------------------------------
// The alerts as the feed and the market page show them.

const ALERT_SELECT = `SELECT a.id, a.market_id, m.question, m.category, a.fair_value_source, a.current_price::text AS current_price,
    a.fair_value::text AS fair_value, a.deviation::text AS deviation, a.confidence::text AS confidence, a.reasoning, a.details,
    a.is_active, a.detected_at, a.resolved_at
  FROM mispricing_alerts a JOIN prediction_markets m ON m.id = a.market_id`;

function alertView(row: Row): MispricingAlertView {
  // The run's bookkeeping (who was notified) is not part of what the alert says.
  const { notified: _notified, ...details } = (row.details ?? {}) as Record<string, unknown>;
  void _notified;
  return {
    id: Number(row.id),
    marketId: Number(row.market_id),
    question: String(row.question),
    category: (row.category as string | null) ?? null,
    fairValueSource: row.fair_value_source as MispricingSource,
    currentPrice: String(row.current_price),
    fairValue: String(row.fair_value),
    deviation: String(row.deviation),
    confidence: String(row.confidence),
    reasoning: String(row.reasoning ?? ''),
    details,
    isActive: row.is_active === true,
    detectedAt: iso(row.detected_at)!,
    resolvedAt: iso(row.resolved_at),
  };
}

const encodeCursor = (id: number) => Buffer.from(`mispricing:${id}`, 'utf8').toString('base64url');

function decodeCursor(raw: string): number {
  const match = /^mispricing:([1-9]\d{0,9})$/.exec(Buffer.from(raw, 'base64url').toString('utf8'));
  const id = match ? Number(match[1]) : NaN;
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) throw new PredictionsError('bad_cursor', 'The cursor is not one this api gave out', 'cursor');
  return id;
}

/**
 * The mispricing feed, newest first: active alerts (active true) or closed ones (false), of one
 * category when given. Throws PredictionsError('bad_cursor') on a cursor it did not give out.
 */
export async function listMispricing(db: Db, query: { active: boolean; category?: string; cursor?: string; limit: number }): Promise<MispricingPage> {
  const limit = Math.min(Math.max(Math.trunc(query.limit) || 1, 1), MISPRICING_PAGE_MAX);
  const before = query.cursor ? decodeCursor(query.cursor) : null;
  const rows: Row[] = await db.query(
    `${ALERT_SELECT}
     WHERE a.is_active = $1 AND ($2::varchar IS NULL OR m.category = $2) AND ($3::int IS NULL OR a.id < $3)
     ORDER BY a.id DESC LIMIT $4`,
    [query.active, query.category ?? null, before, limit + 1],
  );
  const page = rows.slice(0, limit).map(alertView);
  return { rows: page, nextCursor: rows.length > limit ? encodeCursor(page[page.length - 1].id) : null };
}

/** The market's active alerts (one per fair-value source at most), consensus first. */
export async function mispricingOfMarket(db: Db, marketId: number): Promise<MispricingAlertView[]> {
  const rows: Row[] = await db.query(`${ALERT_SELECT} WHERE a.market_id = $1 AND a.is_active ORDER BY a.fair_value_source, a.id`, [marketId]);
  return rows.map(alertView);
}

// ---------------------------------------------------------------------------------------------
// The consensus.

/**
 * The current forecasts (one per user) made in the window [since, now] on these markets, of live
 * accounts, each with the forecaster's track record (prediction_performance), by market.
 */
export async function consensusForecasts(db: Db, marketIds: readonly number[], since: Date, now: Date): Promise<Map<number, ConsensusForecast[]>> {
  const byMarket = new Map<number, ConsensusForecast[]>();
  if (!marketIds.length) return byMarket;
  const rows: Row[] = await db.query(
    `SELECT p.market_id, p.user_prediction::float8 AS p, pp.total_predictions, pp.brier_score::float8 AS brier
       FROM user_predictions p
       JOIN users u ON u.id = p.user_id AND u.deleted_at IS NULL
       LEFT JOIN prediction_performance pp ON pp.user_id = p.user_id
      WHERE p.market_id = ANY($1::int[]) AND p.superseded_at IS NULL AND p.date_made >= $2 AND p.date_made <= $3
      ORDER BY p.market_id, p.user_id`,
    [marketIds, since, now],
  );
  for (const row of rows) {
    const marketId = Number(row.market_id);
    const resolved = num(row.total_predictions);
    const forecast: ConsensusForecast = { p: Number(row.p), record: resolved === null ? null : { resolved, brier: num(row.brier) } };
    byMarket.set(marketId, [...(byMarket.get(marketId) ?? []), forecast]);
  }
  return byMarket;
}

/**
 * The track-record-weighted consensus of users' current forecasts on the market made in the last
 * `days` (docs/predictions.md, "Mispricing alerts"), or null with fewer than `minForecasters`.
 */
export async function consensusOf(
  db: Db,
  marketId: number,
  now: Date,
  window: { days: number; minForecasters: number } = DEFAULT_CONSENSUS_WINDOW,
): Promise<{ probability: string; forecasters: number } | null> {
  const since = new Date(now.getTime() - window.days * DAY_MS);
  const forecasts = (await consensusForecasts(db, [marketId], since, now)).get(marketId) ?? [];
  const consensus = computeConsensus(forecasts, window.minForecasters);
  return consensus ? { probability: toFixed4(consensus.fairValue), forecasters: consensus.forecasters } : null;
}

// ---------------------------------------------------------------------------------------------
// Follows.

const FOLLOW_SELECT = `SELECT f.id, f.market_id, m.question, f.category, f.created_at
  FROM prediction_follows f LEFT JOIN prediction_markets m ON m.id = f.market_id`;

function followView(row: Row): PredictionFollowView {
  return {
    id: Number(row.id),
    marketId: row.market_id === null ? null : Number(row.market_id),
    question: (row.question as string | null) ?? null,
    category: (row.category as string | null) ?? null,
    createdAt: iso(row.created_at)!,
  };
}

/** The markets and categories a user follows, newest first (a market follow has its question, a category follow its name). */
export async function listFollows(db: Db, userId: number): Promise<PredictionFollowView[]> {
  const rows: Row[] = await db.query(`${FOLLOW_SELECT} WHERE f.user_id = $1 ORDER BY f.created_at DESC, f.id DESC`, [userId]);
  return rows.map(followView);
}

/** A DataSource: a transaction of its own; an EntityManager: the caller's transaction. */
async function inTransaction<T>(db: Db, work: (manager: EntityManager) => Promise<T>): Promise<T> {
  return 'manager' in db ? db.transaction(work) : work(db);
}

/**
 * Follows a market or a category (matched case-insensitively with the categories of our markets and
 * stored as they spell it). Idempotent: following twice answers the existing follow. Refuses an
 * unknown market ('unknown_market') or category ('unknown_category'), and a new follow beyond
 * `maxFollows` (PREDICTIONS_MAX_FOLLOWS) per user ('too_many_follows'). One transaction, serialized per user.
 */
export async function follow(
  db: Db,
  userId: number,
  target: { marketId: number } | { category: string },
  options: { maxFollows?: number } = {},
): Promise<PredictionFollowView> {
  const maxFollows = options.maxFollows ?? DEFAULT_MAX_FOLLOWS;
  return inTransaction(db, async (manager) => {
    await manager.query('SELECT pg_advisory_xact_lock(hashtext($1), $2)', ['prediction_follows', userId]);
    let column: 'market_id' | 'category';
    let value: number | string;
    if ('marketId' in target) {
      const market = await findMarket(manager, target.marketId);
      if (!market) throw new PredictionsError('unknown_market', `No market ${target.marketId}`, 'marketId');
      [column, value] = ['market_id', market.id];
    } else {
      const wanted = String(target.category ?? '').trim();
      const [known]: { category: string }[] = wanted
        ? await manager.query(
            `SELECT category FROM prediction_markets WHERE lower(category) = lower($1) GROUP BY category ORDER BY count(*) DESC, category LIMIT 1`,
            [wanted],
          )
        : [];
      if (!known) throw new PredictionsError('unknown_category', `No market has the category "${wanted.slice(0, 100)}"`, 'category');
      [column, value] = ['category', known.category];
    }
    const [existing]: Row[] = await manager.query(`${FOLLOW_SELECT} WHERE f.user_id = $1 AND f.${column} = $2`, [userId, value]);
    if (existing) return followView(existing);
    const [{ n }]: { n: number }[] = await manager.query('SELECT count(*)::int AS n FROM prediction_follows WHERE user_id = $1', [userId]);
    if (n >= maxFollows) throw new PredictionsError('too_many_follows', `You follow ${n} markets and categories, the most allowed: unfollow one first`);
    const [{ id }]: { id: number }[] = await manager.query(`INSERT INTO prediction_follows (user_id, ${column}) VALUES ($1, $2) RETURNING id`, [userId, value]);
    const [row]: Row[] = await manager.query(`${FOLLOW_SELECT} WHERE f.id = $1`, [id]);
    return followView(row);
  });
}

/** Removes one of the user's follows; PredictionsError('unknown_follow') when there is none with that id for this user. */
export async function unfollow(db: Db, userId: number, followId: number): Promise<void> {
  const valid = Number.isSafeInteger(followId) && followId > 0 && followId <= 2_147_483_647;
  const [{ n }]: { n: number }[] = valid
    ? await db.query('WITH d AS (DELETE FROM prediction_follows WHERE id = $1 AND user_id = $2 RETURNING 1) SELECT count(*)::int AS n FROM d', [followId, userId])
    : [{ n: 0 }];
  if (!n) throw new PredictionsError('unknown_follow', `You have no follow ${followId}`);
}

/** Whether the user follows this market itself (following its category does not count here). */
export async function isFollowing(db: Db, userId: number, marketId: number): Promise<boolean> {
  const [row]: { found: boolean }[] = await db.query('SELECT EXISTS (SELECT 1 FROM prediction_follows WHERE user_id = $1 AND market_id = $2) AS found', [userId, marketId]);
  return row?.found === true;
}

/** Who a market's alerts notify: the followers of the market or of its category (each once; the fan-out skips deleted accounts). */
export function predictionFollowersAudience(marketId: number, category: string | null): Audience {
  return {
    where: `EXISTS (SELECT 1 FROM prediction_follows f WHERE f.user_id = u.id AND (f.market_id = $1 OR f.category = $2::varchar))`,
    params: [marketId, category],
  };
}

// ---------------------------------------------------------------------------------------------
// The detection run: what it reads and writes (in its transaction), and the alerts it notifies.

/** Serializes runs (a scheduled one and a sync's): the second waits and then sees the first's alerts. */
export async function lockMispricingRun(manager: EntityManager): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['predictions.mispricing']);
}

/** A market the run looks at, with its newest known price. */
export interface MispricingMarket {
  id: number;
  question: string;
  category: string | null;
  eventId: string | null;
  eventTitle: string | null;
  negRisk: boolean;
  negRiskAugmented: boolean;
  /** open: Gamma active and not closed, no resolution. */
  state: 'open' | 'closed' | 'resolved';
  quote: MarketQuote;
  /** Where the price comes from: our newest snapshot when it is newer than the row's last change, else the market row (Gamma). */
  priceSource: 'snapshot' | 'market' | null;
  priceAt: Date | null;
}

/**
 * The markets the run evaluates: the open ones with at least `minForecasters` current forecasts made
 * in [since, now], every open market of a negative-risk event, and every market with an open alert.
 */
export async function mispricingMarkets(db: Db, now: Date, since: Date, minForecasters: number): Promise<MispricingMarket[]> {
  const rows: Row[] = await db.query(
    `WITH recent AS (
        SELECT p.market_id FROM user_predictions p JOIN users u ON u.id = p.user_id AND u.deleted_at IS NULL
         WHERE p.superseded_at IS NULL AND p.date_made >= $1 AND p.date_made <= $2
         GROUP BY p.market_id HAVING count(*) >= $3
      ), wanted AS (
        SELECT m.id FROM recent r JOIN prediction_markets m ON m.id = r.market_id WHERE m.is_active AND NOT m.closed AND m.resolution IS NULL
        UNION SELECT id FROM prediction_markets WHERE neg_risk AND event_id IS NOT NULL AND is_active AND NOT closed AND resolution IS NULL
        UNION SELECT market_id FROM mispricing_alerts WHERE is_active
      )
      SELECT m.id, m.question, m.category, m.event_id, m.event_title, m.neg_risk, m.neg_risk_augmented, m.is_active, m.closed, m.resolution,
             m.yes_price::float8 AS yes_price, m.best_bid::float8 AS best_bid, m.best_ask::float8 AS best_ask, m.spread::float8 AS spread, m.synced_at,
             s.price::float8 AS s_price, s.best_bid::float8 AS s_bid, s.best_ask::float8 AS s_ask, s.taken_at AS s_at
        FROM wanted w JOIN prediction_markets m ON m.id = w.id
        LEFT JOIN LATERAL (
          SELECT price, best_bid, best_ask, taken_at FROM prediction_market_snapshots s
           WHERE s.market_id = m.id AND s.taken_at <= $2 ORDER BY s.taken_at DESC LIMIT 1
        ) s ON true
       ORDER BY m.id`,
    [since, now, minForecasters],
  );
  return rows.map((r) => {
    const snapshotAt = r.s_at ? new Date(r.s_at as string | Date) : null;
    const syncedAt = r.synced_at ? new Date(r.synced_at as string | Date) : null;
    const rowKnows = r.yes_price !== null || (r.best_bid !== null && r.best_ask !== null);
    const useSnapshot = snapshotAt !== null && (!rowKnows || syncedAt === null || snapshotAt >= syncedAt);
    const spread = num(r.spread);
    return {
      id: Number(r.id),
      question: String(r.question),
      category: (r.category as string | null) ?? null,
      eventId: (r.event_id as string | null) ?? null,
      eventTitle: (r.event_title as string | null) ?? null,
      negRisk: r.neg_risk === true,
      negRiskAugmented: r.neg_risk_augmented === true,
      state: r.resolution !== null ? 'resolved' : r.closed === true || r.is_active !== true ? 'closed' : 'open',
      quote: useSnapshot
        ? { bid: num(r.s_bid), ask: num(r.s_ask), mid: num(r.s_price), spread }
        : { bid: num(r.best_bid), ask: num(r.best_ask), mid: num(r.yes_price), spread },
      priceSource: useSnapshot ? 'snapshot' : rowKnows ? 'market' : null,
      priceAt: useSnapshot ? snapshotAt : rowKnows ? syncedAt : null,
    };
  });
}

/** An open alert as the run compares with. */
export interface OpenMispricingAlert {
  id: number;
  marketId: number;
  source: MispricingSource;
  deviation: number;
}

/** Every open alert, locked for the run's transaction. */
export async function openMispricingAlerts(manager: EntityManager): Promise<OpenMispricingAlert[]> {
  const rows: Row[] = await manager.query(
    `SELECT id, market_id, fair_value_source, deviation::float8 AS deviation FROM mispricing_alerts WHERE is_active ORDER BY id FOR UPDATE`,
  );
  return rows.map((r) => ({ id: Number(r.id), marketId: Number(r.market_id), source: r.fair_value_source as MispricingSource, deviation: Number(r.deviation) }));
}

/** What an alert says (4-decimal strings), written on opening and on each refresh. */
export interface MispricingAlertContent {
  marketId: number;
  source: MispricingSource;
  currentPrice: string;
  fairValue: string;
  deviation: string;
  confidence: string;
  reasoning: string;
  details: Record<string, unknown>;
}

export async function insertMispricingAlert(manager: EntityManager, alert: MispricingAlertContent, now: Date): Promise<number> {
  const [{ id }]: { id: number }[] = await manager.query(
    `INSERT INTO mispricing_alerts (market_id, fair_value_source, current_price, fair_value, deviation, confidence, reasoning, details, is_active, detected_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, true, $9) RETURNING id`,
    [alert.marketId, alert.source, alert.currentPrice, alert.fairValue, alert.deviation, alert.confidence, alert.reasoning, JSON.stringify(alert.details), now],
  );
  return Number(id);
}

/** Refreshes an open alert in place (its notification record kept); false when nothing it says changed (nothing written). */
export async function refreshMispricingAlert(manager: EntityManager, id: number, alert: MispricingAlertContent): Promise<boolean> {
  const [, updated]: [unknown, number] = await manager.query(
    `UPDATE mispricing_alerts
        SET current_price = $2, fair_value = $3, deviation = $4, confidence = $5, reasoning = $6,
            details = CASE WHEN details ? 'notified' THEN $7::jsonb || jsonb_build_object('notified', details->'notified') ELSE $7::jsonb END
      WHERE id = $1 AND is_active
        AND (current_price, fair_value, deviation, confidence, reasoning, COALESCE(details, '{}'::jsonb) - 'notified')
            IS DISTINCT FROM ($2::numeric, $3::numeric, $4::numeric, $5::numeric, $6::text, $7::jsonb)`,
    [id, alert.currentPrice, alert.fairValue, alert.deviation, alert.confidence, alert.reasoning, JSON.stringify(alert.details)],
  );
  return updated > 0;
}

/** Closes an open alert at `now` (isActive false, resolvedAt), recording why and the gap then in details.closed. */
export async function closeMispricingAlert(manager: EntityManager, id: number, now: Date, closed: Record<string, unknown>): Promise<void> {
  await manager.query(
    `UPDATE mispricing_alerts SET is_active = false, resolved_at = $2, details = COALESCE(details, '{}'::jsonb) || jsonb_build_object('closed', $3::jsonb)
      WHERE id = $1 AND is_active`,
    [id, now, JSON.stringify(closed)],
  );
}

/** An open alert whose followers have not been notified yet (a run notifies after its commit; a retry finds what a crash left). */
export interface MispricingAlertToNotify {
  id: number;
  marketId: number;
  question: string;
  category: string | null;
  source: MispricingSource;
  currentPrice: string;
  fairValue: string;
  deviation: string;
  confidence: string;
  reasoning: string;
}

export async function alertsAwaitingNotification(db: Db): Promise<MispricingAlertToNotify[]> {
  const rows: Row[] = await db.query(
    `${ALERT_SELECT} WHERE a.is_active AND NOT (COALESCE(a.details, '{}'::jsonb) ? 'notified') ORDER BY a.id`,
  );
  return rows.map((r) => {
    const v = alertView(r);
    return {
      id: v.id,
      marketId: v.marketId,
      question: v.question,
      category: v.category,
      source: v.fairValueSource,
      currentPrice: v.currentPrice,
      fairValue: v.fairValue,
      deviation: v.deviation,
      confidence: v.confidence,
      reasoning: v.reasoning,
    };
  });
}

/** Records the alert's fan-out (when, how many batches and followers) in details.notified. */
export async function markMispricingAlertNotified(db: Db, id: number, at: Date, result: { batches: number; users: number }): Promise<void> {
  await db.query(`UPDATE mispricing_alerts SET details = COALESCE(details, '{}'::jsonb) || jsonb_build_object('notified', $2::jsonb) WHERE id = $1`, [
    id,
    JSON.stringify({ at: at.toISOString(), ...result }),
  ]);
}
