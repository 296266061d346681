// Users' forecasts and their scorecards: every query of "forecasts and performance" (docs/predictions.md,
// "Forecasts and scoring"). The arithmetic is predictions-scoring.ts's.
import type { DataSource, EntityManager } from 'typeorm';
import type { PredictionMarket } from '@tickerbell/entities';
import { findLiveUserByEmail, findUser } from '../accounts/accounts.store';
import { PredictionsError } from './predictions.errors';
import { findMarket, priceAt } from './predictions-markets.store';
import {
  computeScorecard,
  emptyScorecard,
  forecastPoints,
  parseForecastInput,
  questionScore,
  round4,
  scoreQuestion,
  type PerformanceOptions,
  type PredictionScorecard,
  type QuestionScore,
  type ResolvedQuestion,
} from './predictions-scoring';
import {
  PREDICTION_NOTES_MAX,
  type PredictionForecastRow,
  type PredictionForecastView,
  type PredictionForecastsPage,
  type PredictionPerformanceView,
  type PredictionResolution,
} from './predictions.shapes';

type Db = DataSource | EntityManager;

export const PREDICTION_FORECASTS_MAX_LIMIT = 100;
/** Forecasts list cursor: `<dateMade epoch ms>.<row id>` of the page's last row (newest first). */
export const PREDICTION_FORECAST_CURSOR_PATTERN = /^\d{1,15}\.\d{1,10}$/;

const FORECAST_COLUMNS = `p.id, p.market_id, p.user_prediction::text AS user_prediction, p.market_price::text AS market_price, p.confidence,
  p.notes, p.input_form, p.input_text, p.date_made, p.superseded_at, p.resolution, p.date_resolved, p.points::text AS points`;

const iso = (value: Date | null) => (value === null ? null : value.toISOString());

function forecastView(r: Record<string, unknown>): PredictionForecastView {
  return {
    id: Number(r.id),
    marketId: Number(r.market_id),
    userPrediction: r.user_prediction as string,
    marketPrice: r.market_price as string,
    confidence: r.confidence === null ? null : Number(r.confidence),
    notes: r.notes as string | null,
    inputForm: r.input_form as PredictionForecastView['inputForm'],
    inputText: r.input_text as string,
    dateMade: (r.date_made as Date).toISOString(),
    supersededAt: iso(r.superseded_at as Date | null),
    resolution: r.resolution as PredictionResolution | null,
    dateResolved: iso(r.date_resolved as Date | null),
    points: r.points as string | null,
  };
}

/**
 * Whether forecasts are accepted on the market now: not closed, not resolved, still active, and its
 * Polymarket close time (if known) not passed. An edit or a withdrawal follows the same rule.
 */
export function canForecastOn(market: Pick<PredictionMarket, 'closed' | 'isActive' | 'resolution' | 'closedTime'>, now: Date): boolean {
  return !market.closed && market.isActive && market.resolution === null && (market.closedTime === null || market.closedTime.getTime() > now.getTime());
}

/** The market row locked for the rest of the transaction (forecasts, withdrawals and resolution of one market queue on it). */
async function lockedMarket(manager: EntityManager, marketId: number): Promise<PredictionMarket | null> {
  const locked: unknown[] = await manager.query(`SELECT id FROM prediction_markets WHERE id = $1 FOR UPDATE`, [marketId]);
  return locked.length ? findMarket(manager, marketId) : null;
}

/**
 * A forecast on a market, or an edit of the current one (the previous row is superseded at `now` and
 * kept for scoring). The market price is the newest snapshot at `now` (never the client's).
 */
export async function makeForecast(
  db: DataSource,
  input: { userId: number; marketId: number; prediction: string; confidence?: number | null; notes?: string | null },
  now: Date,
): Promise<PredictionForecastView> {
  const { p, form } = parseForecastInput(input.prediction);
  const confidence = input.confidence ?? null;
  if (confidence !== null && !(Number.isInteger(confidence) && confidence >= 0 && confidence <= 100)) {
    throw new PredictionsError('invalid_prediction', 'Confidence is a whole number from 0 to 100', 'confidence');
  }
  const notes = input.notes?.trim() ? input.notes.trim() : null;
  if (notes !== null && notes.length > PREDICTION_NOTES_MAX) {
    throw new PredictionsError('invalid_prediction', `Notes are at most ${PREDICTION_NOTES_MAX} characters`, 'notes');
  }
  return db.transaction(async (manager) => {
    const market = await lockedMarket(manager, input.marketId);
    if (!market) throw new PredictionsError('unknown_market', `No market ${input.marketId}`);
    if (!canForecastOn(market, now)) throw new PredictionsError('market_closed', 'This market is closed: forecasts are no longer accepted');
    const price = await priceAt(manager, market.id, now);
    if (!price) throw new PredictionsError('no_market_price', 'No price of this market is known yet: try again in a few minutes');
    await manager.query(`UPDATE user_predictions SET superseded_at = $3, updated_at = $3 WHERE user_id = $1 AND market_id = $2 AND superseded_at IS NULL`, [
      input.userId,
      market.id,
      now,
    ]);
    const [row] = (await manager.query(
      `INSERT INTO user_predictions AS p (user_id, market_id, user_prediction, market_price, confidence, notes, input_form, input_text, date_made, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
       RETURNING ${FORECAST_COLUMNS}`,
      [input.userId, market.id, p.toFixed(4), price.price, confidence, notes, form, input.prediction.trim(), now],
    )) as Record<string, unknown>[];
    return forecastView(row);
  });
}

/** Withdraws the current forecast: its row is superseded at `now` with no successor (the time it covered stays scored). */
export async function withdrawForecast(db: DataSource, userId: number, marketId: number, now: Date): Promise<void> {
  await db.transaction(async (manager) => {
    const market = await lockedMarket(manager, marketId);
    if (!market) throw new PredictionsError('unknown_market', `No market ${marketId}`);
    if (!canForecastOn(market, now)) throw new PredictionsError('market_closed', 'This market is closed: its forecasts can no longer be withdrawn');
    // TypeORM answers an UPDATE with [rows, affected].
    const [, affected] = (await manager.query(
      `UPDATE user_predictions SET superseded_at = $3, updated_at = $3 WHERE user_id = $1 AND market_id = $2 AND superseded_at IS NULL`,
      [userId, marketId, now],
    )) as [unknown[], number];
    if (!affected) throw new PredictionsError('no_forecast', 'You have no current forecast on this market');
  });
}

/**
 * The user's markets, one row each (the latest forecast on it), newest first: `open` the markets not
 * resolved with a current forecast, `resolved` the resolved ones, `all` both and the withdrawn ones.
 */
export async function listForecasts(
  db: Db,
  userId: number,
  query: { status: 'open' | 'resolved' | 'all'; cursor?: string; limit: number },
): Promise<PredictionForecastsPage> {
  const limit = Math.min(Math.max(1, Math.floor(query.limit)), PREDICTION_FORECASTS_MAX_LIMIT);
  const params: unknown[] = [userId];
  const where: string[] = [];
  if (query.status === 'open') where.push('p.resolution IS NULL AND p.superseded_at IS NULL');
  if (query.status === 'resolved') where.push('p.resolution IS NOT NULL');
  if (query.cursor !== undefined) {
    if (!PREDICTION_FORECAST_CURSOR_PATTERN.test(query.cursor)) throw new PredictionsError('bad_cursor', 'The cursor is not one this list gave');
    const [ms, id] = query.cursor.split('.').map(Number);
    params.push(new Date(ms), id);
    where.push(`(p.date_made, p.id) < ($${params.length - 1}, $${params.length})`);
  }
  params.push(limit + 1);
  const rows = (await db.query(
    `SELECT ${FORECAST_COLUMNS}, (extract(epoch from p.date_made) * 1000)::bigint::text AS made_ms,
            m.question, m.category, m.yes_price::text AS yes_price, m.closed, m.resolution AS market_resolution, m.end_date
     FROM user_predictions p
     JOIN prediction_markets m ON m.id = p.market_id
     WHERE p.id IN (SELECT max(id) FROM user_predictions WHERE user_id = $1 GROUP BY market_id)
       ${where.map((w) => `AND ${w}`).join(' ')}
     ORDER BY p.date_made DESC, p.id DESC
     LIMIT $${params.length}`,
    params,
  )) as Record<string, unknown>[];
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    rows: page.map(
      (r): PredictionForecastRow => ({
        ...forecastView(r),
        market: {
          id: Number(r.market_id),
          question: r.question as string,
          category: r.category as string | null,
          yesPrice: r.yes_price as string | null,
          closed: r.closed as boolean,
          resolution: r.market_resolution as PredictionResolution | null,
          endDate: iso(r.end_date as Date | null),
        },
      }),
    ),
    nextCursor: rows.length > limit && last ? `${last.made_ms as string}.${Number(last.id)}` : null,
  };
}

/** The user's forecasts on one market, newest first (the current one has supersededAt null). */
export async function forecastsOnMarket(db: Db, userId: number, marketId: number): Promise<PredictionForecastView[]> {
  const rows = (await db.query(`SELECT ${FORECAST_COLUMNS} FROM user_predictions p WHERE p.user_id = $1 AND p.market_id = $2 ORDER BY p.id DESC`, [
    userId,
    marketId,
  ])) as Record<string, unknown>[];
  return rows.map(forecastView);
}

// ---- resolution

const RESOLUTIONS: readonly string[] = ['yes', 'no', 'void'];

export type ResolveOutcome =
  | { status: 'unknown_market' | 'unresolved'; marketId: number }
  | { status: 'resolved'; marketId: number; resolution: PredictionResolution; dateResolved: string; forecasts: number; users: number[] };

/**
 * Copies a resolved market's resolution and resolution time onto every forecast row of the market and
 * scores each row (forecastPoints; a void market gets no points). Idempotent: the same market row
 * writes the same values, so a retried job changes nothing. The users whose rows it wrote are returned.
 */
export async function resolveMarketForecasts(db: DataSource, marketId: number, now: Date): Promise<ResolveOutcome> {
  return db.transaction(async (manager) => {
    const market = await lockedMarket(manager, marketId);
    if (!market) return { status: 'unknown_market', marketId };
    if (market.resolution === null || !RESOLUTIONS.includes(market.resolution)) return { status: 'unresolved', marketId };
    const resolution = market.resolution as PredictionResolution;
    // From the market row alone (never the job's clock), so that a retry writes the same time.
    const dateResolved = market.resolvedAt ?? market.closedTime ?? market.endDate ?? market.syncedAt;
    const rows = (await manager.query(
      `SELECT id, user_id, user_prediction::float8 AS p, market_price::float8 AS m FROM user_predictions WHERE market_id = $1 ORDER BY id`,
      [marketId],
    )) as { id: number; user_id: number; p: number; m: number }[];
    if (rows.length) {
      const outcome = resolution === 'yes' ? 1 : 0;
      await manager.query(
        `UPDATE user_predictions p SET resolution = $1, date_resolved = $2, points = v.points, updated_at = $3
         FROM unnest($4::int[], $5::numeric[]) AS v(id, points) WHERE p.id = v.id`,
        [resolution, dateResolved, now, rows.map((r) => r.id), rows.map((r) => (resolution === 'void' ? null : String(forecastPoints(r.p, r.m, outcome))))],
      );
    }
    // The question's score per user (a void market has none; a market resolved again is re-scored).
    if (resolution === 'void') await manager.query(`DELETE FROM prediction_question_scores WHERE market_id = $1`, [marketId]);
    else await writeQuestionScores(manager, 'p.market_id = $1', [marketId]);
    return {
      status: 'resolved',
      marketId,
      resolution,
      dateResolved: dateResolved.toISOString(),
      forecasts: rows.length,
      users: [...new Set(rows.map((r) => r.user_id))].sort((a, b) => a - b),
    };
  });
}

// ---- performance

/** One resolved forecast row as the load answers it: [user id, market id, category, resolution, p, m, made, superseded, resolved, closed] (times in epoch ms). */
type ResolvedRow = [number, number, string | null, string, number, number, number, number | null, number, number | null];

/**
 * Resolved questions (void markets left out) of the forecast rows matching `where` (on user_predictions
 * `p`), each with its user and its forecast rows in the order made. One query answering one JSON array.
 */
async function loadResolvedQuestions(db: Db, where: string, params: unknown[]): Promise<{ questions: { userId: number; question: ResolvedQuestion }[]; resolvedRows: number }> {
  const [answer] = (await db.query(
    `SELECT coalesce(json_agg(json_build_array(p.user_id, p.market_id, m.category, p.resolution, p.user_prediction, p.market_price,
              date_part('epoch', p.date_made) * 1000, date_part('epoch', p.superseded_at) * 1000,
              date_part('epoch', p.date_resolved) * 1000, date_part('epoch', m.closed_time) * 1000)
              ORDER BY p.user_id, p.market_id, p.date_made, p.id), '[]') AS rows
     FROM user_predictions p
     JOIN prediction_markets m ON m.id = p.market_id
     WHERE ${where} AND p.resolution IS NOT NULL`,
    params,
  )) as { rows: ResolvedRow[] }[];
  const rows = answer.rows;
  const questions: { userId: number; question: ResolvedQuestion }[] = [];
  let current: { userId: number; question: ResolvedQuestion } | null = null;
  // Epoch seconds × 1000 in floating point: whole milliseconds again.
  for (const [userId, marketId, category, resolution, p, m, made, superseded, resolvedTime, closedTime] of rows) {
    if (resolution !== 'yes' && resolution !== 'no') continue;
    if (!current || current.userId !== userId || current.question.marketId !== marketId) {
      const resolved = Math.round(resolvedTime);
      const closed = closedTime === null ? null : Math.round(closedTime);
      current = {
        userId,
        question: { marketId, category, outcome: resolution === 'yes' ? 1 : 0, closesAt: closed === null ? resolved : Math.min(closed, resolved), resolvedAt: resolved, forecasts: [] },
      };
      questions.push(current);
    }
    current.question.forecasts.push({ p: Number(p), marketPrice: Number(m), madeAt: Math.round(made), supersededAt: superseded === null ? null : Math.round(superseded) });
  }
  return { questions, resolvedRows: rows.length };
}

/** The user's resolved questions (void markets left out), each with its forecast rows in the order made. */
export async function resolvedQuestionsOf(db: Db, userId: number): Promise<{ questions: ResolvedQuestion[]; resolvedRows: number }> {
  const { questions, resolvedRows } = await loadResolvedQuestions(db, 'p.user_id = $1', [userId]);
  return { questions: questions.map((q) => q.question), resolvedRows };
}

/**
 * Scores the resolved questions of the forecast rows matching `where` (scoreQuestion) and upserts their
 * prediction_question_scores rows; answers how many it wrote. Idempotent: the same rows write the same scores.
 */
async function writeQuestionScores(manager: EntityManager, where: string, params: unknown[]): Promise<number> {
  const { questions } = await loadResolvedQuestions(manager, where, params);
  if (!questions.length) return 0;
  const scored = questions.map(({ userId, question }) => ({ userId, forecasts: question.forecasts.length, score: scoreQuestion(question) }));
  await manager.query(
    `INSERT INTO prediction_question_scores AS s (user_id, market_id, category, outcome, resolved_at, p, m, points, forecasts, updated_at)
     SELECT v.user_id, v.market_id, v.category, v.outcome, to_timestamp(v.resolved_ms / 1000.0), v.p, v.m, v.points, v.forecasts, now()
     FROM unnest($1::int[], $2::int[], $3::varchar[], $4::smallint[], $5::float8[], $6::float8[], $7::float8[], $8::float8[], $9::int[])
          AS v(user_id, market_id, category, outcome, resolved_ms, p, m, points, forecasts)
     ON CONFLICT (user_id, market_id) DO UPDATE SET category = EXCLUDED.category, outcome = EXCLUDED.outcome, resolved_at = EXCLUDED.resolved_at,
       p = EXCLUDED.p, m = EXCLUDED.m, points = EXCLUDED.points, forecasts = EXCLUDED.forecasts, updated_at = EXCLUDED.updated_at`,
    [
      scored.map((q) => q.userId),
      scored.map((q) => q.score.marketId),
      scored.map((q) => q.score.category),
      scored.map((q) => q.score.outcome),
      scored.map((q) => q.score.resolvedAt),
      scored.map((q) => q.score.p),
      scored.map((q) => q.score.m),
      scored.map((q) => q.score.points),
      scored.map((q) => q.forecasts),
    ],
  );
  return scored.length;
}

/** One stored question score as the load answers it: [market id, category, outcome, resolved (epoch ms), p, m, points]. */
type StoredScoreRow = [number, string | null, 0 | 1, number, number, number, number];

/**
 * The user's scored questions from prediction_question_scores, after scoring the resolved questions that
 * have no row yet (markets resolved before the table existed). One row per question, one JSON array.
 */
async function questionScoresOf(manager: EntityManager, userId: number, allScored: boolean): Promise<QuestionScore[]> {
  const missing = allScored ? [] : (await manager.query(
    `SELECT DISTINCT p.market_id FROM user_predictions p
     WHERE p.user_id = $1 AND p.resolution IN ('yes', 'no')
       AND NOT EXISTS (SELECT 1 FROM prediction_question_scores s WHERE s.user_id = $1 AND s.market_id = p.market_id)`,
    [userId],
  )) as { market_id: number }[];
  if (missing.length) await writeQuestionScores(manager, 'p.user_id = $1 AND p.market_id = ANY($2::int[])', [userId, missing.map((r) => r.market_id)]);
  const [answer] = (await manager.query(
    `SELECT coalesce(json_agg(json_build_array(market_id, category, outcome, date_part('epoch', resolved_at) * 1000, p, m, points)), '[]') AS rows
     FROM prediction_question_scores WHERE user_id = $1`,
    [userId],
  )) as { rows: StoredScoreRow[] }[];
  return answer.rows.map(([marketId, category, outcome, resolvedAt, p, m, points]) =>
    questionScore({ marketId, category, outcome, resolvedAt: Math.round(resolvedAt), p, m, points }),
  );
}

const num = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/**
 * Marks a scorecard computed once every resolved question of the user had its score row: from then
 * on each resolution writes its rows itself, so the recompute skips the search for missing ones.
 */
const ALL_QUESTIONS_SCORED = 'all';

interface StoredDetails {
  questionScores?: typeof ALL_QUESTIONS_SCORED;
  decomposition: PredictionScorecard['decomposition'];
  calibration: PredictionScorecard['calibration'];
  market: PredictionScorecard['market'];
  skill: PredictionScorecard['skill'];
  trend: PredictionScorecard['trend'];
}

function performanceView(r: Record<string, unknown>): PredictionPerformanceView {
  const empty = emptyScorecard();
  const details = (r.details ?? {}) as Partial<StoredDetails>;
  return {
    totalPredictions: Number(r.total_predictions),
    correctPredictions: Number(r.correct_predictions),
    accuracy: num(r.accuracy),
    brierScore: num(r.brier_score),
    logScore: num(r.log_score),
    decomposition: details.decomposition ?? null,
    calibration: details.calibration ?? empty.calibration,
    market: details.market ?? empty.market,
    skill: details.skill ?? empty.skill,
    totalPoints: Number(r.total_points),
    bestCategories: (r.best_categories as PredictionPerformanceView['bestCategories'] | null) ?? [],
    improvementAreas: (r.improvement_areas as PredictionPerformanceView['improvementAreas'] | null) ?? [],
    trend: details.trend ?? [],
    lastCalculated: iso(r.last_calculated as Date | null),
  };
}

/** The user's stored scorecard, or the empty one before any resolution. */
export async function performanceOf(db: Db, userId: number): Promise<PredictionPerformanceView> {
  const [row] = (await db.query(`SELECT * FROM prediction_performance WHERE user_id = $1`, [userId])) as Record<string, unknown>[];
  return row ? performanceView(row) : { ...emptyScorecard(), lastCalculated: null };
}

/** Advisory-lock namespace of a user's recompute: two recomputes of one user run one after the other. */
const PERFORMANCE_LOCK = 0x70726564; // 'pred'

/**
 * Recomputes and stores the user's scorecard from their scored questions (prediction_question_scores,
 * one row per resolved question, written at resolution), then computeScorecard and upsert, in one
 * transaction holding the user's lock, so that the last writer has read every resolution committed
 * before it. lastCalculated is `now`, or null while no forecast is resolved (void ones count).
 */
export async function recomputePerformance(db: DataSource, userId: number, now: Date, options: PerformanceOptions = {}): Promise<PredictionPerformanceView> {
  return db.transaction(async (manager) => {
    await manager.query(`SELECT pg_advisory_xact_lock($1, $2)`, [PERFORMANCE_LOCK, userId]);
    const [stored] = (await manager.query(`SELECT details->>'questionScores' AS marker FROM prediction_performance WHERE user_id = $1`, [userId])) as { marker: string | null }[];
    const scored = await questionScoresOf(manager, userId, stored?.marker === ALL_QUESTIONS_SCORED);
    const card = computeScorecard(scored, options);
    const lastCalculated = scored.length || (await hasResolvedForecast(manager, userId)) ? now : null;
    const details: StoredDetails = {
      questionScores: ALL_QUESTIONS_SCORED,
      decomposition: card.decomposition,
      calibration: card.calibration,
      market: card.market,
      skill: card.skill,
      trend: card.trend,
    };
    await manager.query(
      `INSERT INTO prediction_performance AS pp (user_id, total_predictions, correct_predictions, accuracy, brier_score, log_score, calibration, details,
                                                 total_points, best_categories, improvement_areas, last_calculated, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (user_id) DO UPDATE SET total_predictions = EXCLUDED.total_predictions, correct_predictions = EXCLUDED.correct_predictions,
         accuracy = EXCLUDED.accuracy, brier_score = EXCLUDED.brier_score, log_score = EXCLUDED.log_score, calibration = EXCLUDED.calibration,
         details = EXCLUDED.details, total_points = EXCLUDED.total_points, best_categories = EXCLUDED.best_categories,
         improvement_areas = EXCLUDED.improvement_areas, last_calculated = EXCLUDED.last_calculated, updated_at = EXCLUDED.updated_at`,
      [
        userId,
        card.totalPredictions,
        card.correctPredictions,
        card.accuracy,
        card.brierScore,
        card.logScore,
        card.decomposition ? round4(card.decomposition.reliability) : null,
        JSON.stringify(details),
        card.totalPoints,
        JSON.stringify(card.bestCategories),
        JSON.stringify(card.improvementAreas),
        lastCalculated,
        now,
      ],
    );
    return { ...card, lastCalculated: iso(lastCalculated) };
  });
}

async function hasResolvedForecast(db: Db, userId: number): Promise<boolean> {
  const rows = (await db.query(`SELECT 1 FROM user_predictions WHERE user_id = $1 AND resolution IS NOT NULL LIMIT 1`, [userId])) as unknown[];
  return rows.length > 0;
}

/** The stored scorecard of the live user with this email (the CLI); `PredictionsError('unknown_user')` when none. */
export async function performanceForEmail(db: Db, email: string): Promise<PredictionPerformanceView> {
  const user = await findLiveUserByEmail(db, email.trim());
  if (!user) throw new PredictionsError('unknown_user', `No user with the email ${email.trim()}`);
  return performanceOf(db, user.id);
}

/** Whether the user still exists (a job queued before an account deletion does nothing). */
export async function isLiveUser(db: Db, userId: number): Promise<boolean> {
  return (await findUser(db, userId)) !== null;
}
