import { UnrecoverableError } from 'bullmq';
import type Stripe from 'stripe';
import { defineHandler } from '../runtime/job-handler';
import type { BillingConfig } from './billing.config';
import { processStripeEvent, queueProcessing } from './billing-webhook';
import { resyncSubscriptions, syncCatalog } from './billing-sync';
import { requestSeatSync, syncSeats } from './billing-seats';
import { unprocessedEventIds } from './billing.store';

export interface BillingHandlerDeps {
  /** The process's Stripe client; null when billing is off (the jobs then do nothing). */
  stripe: Stripe | null;
  config: Pick<BillingConfig, 'BILLING_GRACE_DAYS'>;
}

/** Events stored this long ago and still unprocessed are queued again by the resync. */
export const STALE_EVENT_MS = 10 * 60_000;

export function createBillingHandlers(deps: BillingHandlerDeps) {
  return [
    defineHandler('billing.process-event', async ({ stripeEventId }, context) => {
      if (!deps.stripe) throw new UnrecoverableError('Billing is off (no Stripe keys): the event stays stored, unprocessed');
      const outcome = await processStripeEvent(
        { dataSource: context.dataSource, stripe: deps.stripe, queues: context.queues, redis: context.redis, clock: context.clock, logger: context.logger, graceDays: deps.config.BILLING_GRACE_DAYS },
        stripeEventId,
      );
      context.logger.info(outcome, 'billing: event');
      return outcome;
    }),
    defineHandler('billing.sync-seats', async ({ teamId }, context) => {
      if (!deps.stripe) return { teamId, skipped: 'billing off' };
      const job = context.job;
      const outcome = await syncSeats(
        { dataSource: context.dataSource, stripe: deps.stripe, clock: context.clock },
        teamId,
        job?.id ? { idempotencyKey: `tickerbell-seats-${job.id}-${job.timestamp}` } : {},
      );
      if (outcome.to !== outcome.from) context.logger.info(outcome, 'billing: seats synced');
      return outcome;
    }),
    defineHandler('billing.resync', async ({ teamId }, context) => {
      if (!deps.stripe) return { skipped: 'billing off' };
      const outcome = await resyncSubscriptions(
        { dataSource: context.dataSource, stripe: deps.stripe, clock: context.clock, logger: context.logger, queues: context.queues, requestSeatSync: (queues, id, members) => requestSeatSync(queues, id, members, context.clock.now()) },
        teamId === undefined ? {} : { teamId },
      );
      let requeued = 0;
      if (teamId === undefined) {
        for (const id of await unprocessedEventIds(context.dataSource, new Date(context.clock.now().getTime() - STALE_EVENT_MS))) {
          await queueProcessing(context.queues, id);
          requeued++;
        }
      }
      context.logger.info({ ...outcome, failed: outcome.failed.length, requeued }, 'billing: resync');
      return { ...outcome, requeued };
    }),
    defineHandler('billing.sync-catalog', async (_payload, context) => {
      if (!deps.stripe) return { skipped: 'billing off' };
      const outcome = await syncCatalog({ dataSource: context.dataSource, stripe: deps.stripe });
      context.logger.info(outcome, 'billing: catalog synced');
      return outcome;
    }),
  ];
}
