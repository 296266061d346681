import { UnrecoverableError } from 'bullmq';
import type Redis from 'ioredis';
import { defineHandler, type JobContext } from '../runtime/job-handler';
import type { InsidersConfig } from './insiders.config';
import {
  backfillCompany,
  catchUpDailyIndexes,
  fetchAndStoreFiling,
  pollCurrentFilings,
  readDailyIndex,
  syncCompanyTickers,
  type InsidersDiscoveryDeps,
} from './insiders-discovery';
import { notifyInsiderEvent } from './insiders-alerts';
import { InsiderCompanyNotFoundError, queueDailyInsiderRecomputes, recomputeInsiderAnalytics } from './insiders-recompute';
import type { InsidersSource } from './insiders-sec.client';

export interface InsidersHandlerDeps {
  /** The source (live or replay), built once per process on the first job (insiders.domain.ts). */
  source: (context: JobContext) => InsidersSource;
  config: () => InsidersConfig;
}

/**
 * Claims a poll slot of INSIDERS_POLL_SECONDS for the cluster: the schedule ticks every 15 s, and
 * the first tick of each slot reads the feed (the others answer "not due").
 */
export async function claimInsidersPollSlot(redis: Redis, prefix: string, now: Date, pollSeconds: number): Promise<boolean> {
  const slotMs = pollSeconds * 1000;
  const slot = Math.floor(now.getTime() / slotMs);
  return (await redis.set(`${prefix}:insiders:poll-slot:${slot}`, '1', 'PX', slotMs * 2, 'NX')) === 'OK';
}

export function createInsidersHandlers(deps: InsidersHandlerDeps) {
  const discovery = (context: JobContext): InsidersDiscoveryDeps => ({
    dataSource: context.dataSource,
    queues: context.queues,
    clock: context.clock,
    source: deps.source(context),
    config: deps.config(),
  });
  return [
    defineHandler('insiders.poll-current', async (_payload, context) => {
      const due = await claimInsidersPollSlot(context.redis, context.queues.prefix, context.clock.now(), deps.config().INSIDERS_POLL_SECONDS);
      if (!due) return { status: 'not-due' };
      const outcome = await pollCurrentFilings(discovery(context));
      if (outcome.added) context.logger.info({ ...outcome }, 'insiders: new filings in the feed');
      return { status: 'polled', ...outcome };
    }),
    defineHandler('insiders.fetch-filing', async (payload, context) => {
      const attempt = { number: (context.job?.attemptsMade ?? 0) + 1, of: context.job?.opts.attempts ?? deps.config().INSIDERS_MAX_FILING_ATTEMPTS };
      const outcome = await fetchAndStoreFiling(discovery(context), payload, attempt);
      // Bad data, or the last attempt: recorded on the filing, never retried.
      if (outcome.status === 'failed') throw new UnrecoverableError(`${payload.accession}: ${outcome.reason}`);
      context.logger.info({ accession: payload.accession, ...outcome }, `insiders: filing ${outcome.status}`);
      return outcome;
    }),
    defineHandler('insiders.read-daily-index', async ({ day }, context) => {
      const outcome = await readDailyIndex(discovery(context), day);
      context.logger.info({ ...outcome }, 'insiders: daily index read');
      return outcome;
    }),
    defineHandler('insiders.catch-up', async (_payload, context) => {
      const outcome = await catchUpDailyIndexes(discovery(context));
      if (outcome.days.length) context.logger.info({ ...outcome }, 'insiders: daily indexes queued');
      return outcome;
    }),
    defineHandler('insiders.sync-tickers', async (_payload, context) => {
      const outcome = await syncCompanyTickers(discovery(context));
      context.logger.info({ ...outcome }, 'insiders: tickers synced');
      return outcome;
    }),
    defineHandler('insiders.backfill-company', async ({ cik }, context) => {
      const outcome = await backfillCompany(discovery(context), cik);
      context.logger.info({ ...outcome }, 'insiders: company backfill queued');
      return outcome;
    }),
    defineHandler('insiders.recompute-analytics', async ({ companyId, accession }, { dataSource, queues, clock, logger }) => {
      try {
        const outcome = await recomputeInsiderAnalytics({ dataSource, queues, clock }, companyId);
        logger.info({ companyId, accession, ...outcome }, 'insiders: analytics recomputed');
        return outcome;
      } catch (error) {
        if (error instanceof InsiderCompanyNotFoundError) throw new UnrecoverableError(error.message);
        throw error;
      }
    }),
    defineHandler('insiders.recompute-active', async (_payload, { dataSource, queues, clock, logger }) => {
      const outcome = await queueDailyInsiderRecomputes({ dataSource, queues, clock });
      logger.info(outcome, 'insiders: daily analytics queued');
      return outcome;
    }),
    defineHandler('insiders.notify', async (payload, { dataSource, queues, clock, logger }) => {
      const outcome = await notifyInsiderEvent({ dataSource, queues, clock }, payload);
      logger.info({ ...payload, ...outcome }, 'insiders: alert fan-out');
      return outcome;
    }),
  ];
}
