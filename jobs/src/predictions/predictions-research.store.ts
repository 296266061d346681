import type { DataSource, EntityManager } from 'typeorm';
import { listMarkets, predictionsSourceView } from './predictions-markets.store';
import { listMispricing } from './predictions-mispricing.store';
import { PREDICTION_RESEARCH_LIST_SIZE, type PredictionCommunityRecord, type PredictionResearchView } from './predictions.shapes';

type Db = DataSource | EntityManager;

/** Tickerbell's forecasters together: the mean Brier score of their scored questions against the market's at the same moments. */
export async function communityRecord(db: Db): Promise<PredictionCommunityRecord> {
  const [row] = (await db.query(
    `SELECT count(DISTINCT s.user_id)::int AS forecasters, count(*)::int AS questions,
            avg((s.p - s.outcome) ^ 2) AS brier, avg((s.m - s.outcome) ^ 2) AS market_brier
     FROM prediction_question_scores s JOIN users u ON u.id = s.user_id AND u.deleted_at IS NULL`,
  )) as { forecasters: number; questions: number; brier: number | null; market_brier: number | null }[];
  const round4 = (x: number | null) => (x === null ? null : Math.round(Number(x) * 10_000) / 10_000);
  return { forecasters: row.forecasters, questions: row.questions, brier: round4(row.brier), marketBrier: round4(row.market_brier) };
}

/** The public research page: the most traded and the soonest-ending active markets, open mispricing alerts and the community's record. */
export async function predictionsResearch(db: Db, now: Date): Promise<PredictionResearchView> {
  const limit = PREDICTION_RESEARCH_LIST_SIZE;
  const trending = await listMarkets(db, { status: 'active', sort: 'volume', limit }, now);
  const closingSoon = await listMarkets(db, { status: 'active', sort: 'closing_soon', closingWithinDays: 7, limit }, now);
  const mispricing = await listMispricing(db, { active: true, limit });
  return {
    source: await predictionsSourceView(db),
    trending: trending.rows,
    closingSoon: closingSoon.rows,
    mispricing: mispricing.rows,
    community: await communityRecord(db),
  };
}
