import { z } from 'zod';
import { defineJob, jobId } from '../runtime/job-definition';

/** The billing job ids, each following from its natural key (same work, same id: BullMQ adds it once). */
export const billingJobIds = {
  /** One processing per Stripe event (Stripe delivers at least once). */
  processEvent: (stripeEventId: string) => jobId('billing.process-event', stripeEventId),
  /**
   * A seat sync of a team for a member count. Completed ones are not kept (removeOnComplete), so the
   * same count after a change back queues again; without a count (the caller does not know it), one per instant.
   */
  syncSeats: (teamId: number, members: number | undefined, at: Date) =>
    members === undefined ? jobId('billing.sync-seats', teamId, 'at', at.getTime()) : jobId('billing.sync-seats', teamId, members),
  /** The catalog sync of a worker's start. */
  syncCatalogAtStart: (startedAt: Date) => jobId('billing.sync-catalog', 'start', startedAt.getTime()),
};

export const billingJobs = {
  'billing.process-event': defineJob({
    queue: 'billing',
    description:
      'Processes one stored Stripe webhook event: re-fetches its subscription (or product, price) from Stripe so arrival order never matters, ' +
      "writes the subscription, the team's billing fields, every member's subscription fields, an activity row and the event's processed mark in one " +
      'transaction; trial ending and payment failed notify the team owners (in-app and email)',
    payload: z.object({ stripeEventId: z.string().min(1).max(255) }).strict(),
    options: { attempts: 8, backoff: { type: 'exponential', delay: 5_000 } },
  }),
  'billing.sync-seats': defineJob({
    queue: 'billing',
    description: "Sets a team's subscription quantity to its member count (prorated), after members join or leave",
    payload: z.object({ teamId: z.number().int().positive() }).strict(),
    options: { attempts: 6, backoff: { type: 'exponential', delay: 10_000 }, removeOnComplete: true, removeOnFail: { age: 3600, count: 1000 } },
  }),
  'billing.resync': defineJob({
    queue: 'billing',
    description: "Daily (or for one team): re-fetches the subscriptions of teams with a Stripe customer, catching up missed webhooks, and reprocesses stored events left unprocessed",
    payload: z.object({ teamId: z.number().int().positive().optional() }).strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 60_000 } },
  }),
  'billing.sync-catalog': defineJob({
    queue: 'billing',
    description: 'Mirrors the Stripe products and prices (the plans on sale); those Stripe no longer lists become inactive',
    payload: z.object({}).strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 30_000 } },
  }),
};
