import { defineHandler, type JobContext } from '../runtime/job-handler';
import type { LockupsConfig } from './lockups.config';
import type { LockupsSource } from './lockups-sec.client';
import { checkLockupTriggers, discoverLockups, refreshLockups } from './lockups-discovery';
import { notifyLockupFollowers } from './lockups-alerts';
import { REFRESH_AFTER_DISCOVERY_MS, lockupsJobIds } from './lockups.jobs';

export interface LockupsHandlerDeps {
  /** The source (live or replay), built once per process on the first job (lockups.domain.ts). */
  source: (context: JobContext) => LockupsSource;
  config: () => LockupsConfig;
}

export function createLockupsHandlers(deps: LockupsHandlerDeps) {
  return [
    defineHandler('lockups.discover', async ({ reparse }, context) => {
      const outcome = await discoverLockups(
        { dataSource: context.dataSource, queues: context.queues, clock: context.clock, source: deps.source(context), config: deps.config() },
        { reparse },
      );
      context.logger.info({ ...outcome, failed: outcome.failed.length }, 'lockups: discovery');
      for (const f of outcome.failed) context.logger.warn(f, 'lockups: prospectus not stored');
      // New events get their price, run-up, volume, score and trigger state at once, not at the next 17:30.
      if (outcome.stored > 0) {
        const at = context.clock.now();
        await context.queues.add('lockups.refresh', {}, { jobId: lockupsJobIds.afterDiscovery('lockups.refresh', at), delay: REFRESH_AFTER_DISCOVERY_MS });
        await context.queues.add('lockups.check-triggers', {}, { jobId: lockupsJobIds.afterDiscovery('lockups.check-triggers', at), delay: REFRESH_AFTER_DISCOVERY_MS + 30_000 });
      }
      return { ...outcome, failed: outcome.failed.slice(0, 20) };
    }),
    defineHandler('lockups.refresh', async (_payload, context) => {
      const outcome = await refreshLockups({ dataSource: context.dataSource, queues: context.queues, clock: context.clock, source: deps.source(context), config: deps.config() });
      context.logger.info(outcome, 'lockups: refreshed');
      return outcome;
    }),
    defineHandler('lockups.check-triggers', async (_payload, { dataSource, clock, logger }) => {
      const outcome = await checkLockupTriggers({ dataSource, clock });
      if (outcome.met.length) logger.info(outcome, 'lockups: early-release triggers met');
      return outcome;
    }),
    defineHandler('lockups.notify', async (_payload, { dataSource, queues, redis, clock, logger }) => {
      const outcome = await notifyLockupFollowers({ dataSource, queues, redis, clock });
      if (outcome.due) logger.info(outcome, 'lockups: notices');
      return outcome;
    }),
  ];
}
