// The resolution of a market's forecasts and the scorecards it changes (jobs predictions.resolve and
// predictions.performance; docs/predictions.md, "Forecasts and scoring").
import type { JobContext } from '../runtime/job-handler';
import { isLiveUser, recomputePerformance, resolveMarketForecasts, type ResolveOutcome } from './predictions-forecasts.store';
import { predictionsJobIds } from './predictions.jobs';
import type { PerformanceOptions } from './predictions-scoring';

/**
 * Resolves the market's forecast rows (one transaction), then queues each affected user's scorecard
 * with a deterministic id: a retried job rewrites the same rows and queues nothing new. A void market
 * is copied onto the rows too (no points), and its users' scorecards are recomputed all the same.
 */
export async function resolvePredictionMarket(context: Pick<JobContext, 'dataSource' | 'queues' | 'clock'>, marketId: number): Promise<ResolveOutcome> {
  const outcome = await resolveMarketForecasts(context.dataSource, marketId, context.clock.now());
  if (outcome.status === 'resolved' && outcome.users.length) {
    await context.queues.addBulk(
      outcome.users.map((userId) => ({
        name: 'predictions.performance' as const,
        data: { userId },
        options: { jobId: predictionsJobIds.performance(userId, marketId) },
      })),
    );
  }
  return outcome;
}

/** A user's scorecard recomputed; nothing for a deleted account. */
export async function recomputeUserPerformance(
  context: Pick<JobContext, 'dataSource' | 'clock'>,
  userId: number,
  options: PerformanceOptions,
): Promise<{ status: 'recomputed'; userId: number; questions: number } | { status: 'no_user'; userId: number }> {
  if (!(await isLiveUser(context.dataSource, userId))) return { status: 'no_user', userId };
  const view = await recomputePerformance(context.dataSource, userId, context.clock.now(), options);
  return { status: 'recomputed', userId, questions: view.totalPredictions };
}
