import { UnrecoverableError } from 'bullmq';
import { defineHandler, type JobContext, type JobHandler } from '../runtime/job-handler';
import type { PolymarketSource } from './polymarket.client';
import type { PredictionsConfig } from './predictions.config';
import { PredictionsSourceError } from './predictions.parse';
import { createMispricingHandlers } from './predictions-mispricing-run';
import { recomputeUserPerformance, resolvePredictionMarket } from './predictions-resolve';
import { claimPredictionsSlot, snapshotMarkets, syncMarkets, withSyncLock } from './predictions-sync';

export interface PredictionsHandlerDeps {
  config: () => PredictionsConfig;
  // Source: sync and snapshots (the Gamma/CLOB source, live or replay, built once in predictions.domain.ts)
  /** Polymarket (Gamma + CLOB) or its replay twin, built once per process on the first job that needs it. */
  source?: (context: JobContext) => Promise<PolymarketSource>;
}

export function createPredictionsHandlers(deps: PredictionsHandlerDeps): JobHandler[] {
  return [
    // Source: sync and snapshots
    defineHandler('predictions.sync', async ({ tick }, context) => {
      const config = deps.config();
      if (tick && !(await claimPredictionsSlot(context.redis, context.queues.prefix, 'sync', context.clock.now(), config.PREDICTIONS_SYNC_MINUTES))) {
        return { status: 'not-due' };
      }
      const source = await sourceOf(deps, context);
      const outcome = await withSyncLock(context.redis, context.queues.prefix, async () => {
        try {
          return await syncMarkets(context, source);
        } catch (error) {
          // A malformed answer is not fixed by a retry: fail now with the reason; the next slot tries again.
          if (error instanceof PredictionsSourceError && !error.retryable) throw new UnrecoverableError(`predictions.sync: ${error.message}`);
          throw error;
        }
      });
      if (!outcome) return { status: 'busy' };
      context.logger.info({ ...outcome, kind: source.kind }, 'predictions: markets synced');
      return outcome;
    }),
    defineHandler('predictions.snapshot', async ({ tick }, context) => {
      const config = deps.config();
      if (tick && !(await claimPredictionsSlot(context.redis, context.queues.prefix, 'snapshot', context.clock.now(), config.PREDICTIONS_SNAPSHOT_MINUTES))) {
        return { status: 'not-due' };
      }
      const outcome = await snapshotMarkets(context, await sourceOf(deps, context), { minutes: config.PREDICTIONS_SNAPSHOT_MINUTES });
      if (outcome.recorded) context.logger.info({ ...outcome }, 'predictions: snapshots recorded');
      return outcome;
    }),
    // Forecasts and performance
    defineHandler('predictions.resolve', async (payload, context) => {
      const outcome = await resolvePredictionMarket(context, payload.marketId);
      if (outcome.status === 'resolved') context.logger.info({ ...outcome, users: outcome.users.length }, 'predictions: forecasts resolved');
      return outcome;
    }),
    defineHandler('predictions.performance', (payload, context) =>
      recomputeUserPerformance(context, payload.userId, { minCategoryQuestions: deps.config().PREDICTIONS_MIN_CATEGORY_QUESTIONS }),
    ),
    // Mispricing
    ...createMispricingHandlers(deps),
  ];
}

export type { JobContext };

function sourceOf(deps: PredictionsHandlerDeps, context: JobContext): Promise<PolymarketSource> {
  if (!deps.source) throw new Error('predictions: no Polymarket source was given to the handlers (predictions.domain.ts builds one)');
  return deps.source(context);
}
