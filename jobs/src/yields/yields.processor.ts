import { UnrecoverableError } from 'bullmq';
import { defineHandler, type JobContext, type JobHandler } from '../runtime/job-handler';
import type { YieldPoolsSource } from './defillama-yields.client';
import { YieldAlertIndex } from './yields-alert-index';
import type { UniswapSubgraphSource } from './uniswap-subgraph.client';
import type { YieldsConfig } from './yields.config';
import { evaluateYieldAlerts } from './yields-evaluate';
import { ingestSnapshot, type IngestOutcome } from './yields-ingest';
import { yieldsJobIds } from './yields.jobs';
import { YieldsSourceError } from './yields.parse';
import { pruneYieldData } from './yields.store';

export interface YieldsSources {
  pools: YieldPoolsSource;
  subgraph: UniswapSubgraphSource | null;
}

export interface YieldsHandlerDeps {
  config: () => YieldsConfig;
  /** The sources (live clients or the in-process replay twins), built once per process on the first job (yields.domain.ts). */
  sources: (context: JobContext) => Promise<YieldsSources>;
}

/** The options of an ingest from a configuration. */
export function yieldsIngestOptions(config: YieldsConfig) {
  return { topPerChain: config.YIELDS_TOP_POOLS_PER_CHAIN, chartBackfillPerRun: config.YIELDS_CHART_BACKFILL_PER_RUN, subgraphChain: config.YIELDS_SUBGRAPH_CHAIN };
}

/** A source answer no retry fixes (a body that fails its schema) fails the job for good, with the reason. */
function unrecoverable(error: unknown): never {
  if (error instanceof YieldsSourceError && !error.retryable) throw new UnrecoverableError(error.message);
  throw error;
}

/** Ingest first, evaluate second, prune third (tests take them by position). */
export function createYieldsHandlers(deps: YieldsHandlerDeps): [JobHandler<'yields.ingest'>, JobHandler<'yields.evaluate'>, JobHandler<'yields.prune'>] {
  // The process's alerts in memory, loaded on the first evaluation and refreshed at each.
  const index = new YieldAlertIndex();
  return [
    defineHandler('yields.ingest', async (_payload, context) => {
      let outcome: IngestOutcome;
      try {
        outcome = await ingestSnapshot(context, await deps.sources(context), yieldsIngestOptions(deps.config()));
      } catch (error) {
        unrecoverable(error);
      }
      // Stored now or by an earlier attempt: its evaluation is queued once (deterministic id).
      const at = new Date(outcome.snapshotAt);
      await context.queues.add('yields.evaluate', { snapshotAt: outcome.snapshotAt }, { jobId: yieldsJobIds.evaluate(at) });
      if (outcome.status === 'stored') {
        const skipped = outcome.skipped.invalid + outcome.skipped.missing + outcome.skipped.absurd;
        context.logger.info({ ...outcome, skippedExamples: skipped ? outcome.skippedExamples : undefined }, 'yields: snapshot stored');
      }
      return outcome;
    }),
    defineHandler('yields.evaluate', async (payload, context) => {
      const outcome = await evaluateYieldAlerts(context, new Date(payload.snapshotAt), index);
      if (outcome.fired || outcome.rearmed) context.logger.info({ ...outcome }, 'yields: alerts evaluated');
      return outcome;
    }),
    defineHandler('yields.prune', async (_payload, context) => {
      const config = deps.config();
      const outcome = await pruneYieldData(context.dataSource, context.clock.now(), {
        hourlyDays: config.YIELDS_HOURLY_RETENTION_DAYS,
        retentionDays: config.YIELDS_RETENTION_DAYS,
      });
      if (outcome.deleted || outcome.thinned || outcome.deactivated) context.logger.info({ ...outcome }, 'yields: pruned');
      return outcome;
    }),
  ];
}
