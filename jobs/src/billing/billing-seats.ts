import type { DataSource } from 'typeorm';
import type Stripe from 'stripe';
import type { Clock } from '../runtime/clock';
import type { JobQueues } from '../runtime/job-queues';
import { billingJobIds } from './billing.jobs';
import { billingTeam, isLiveStatus, lockStripeObject, memberCount } from './billing.store';
import { writeSubscription } from './billing-sync';

/**
 * Seats follow membership: after members join or leave, a `billing.sync-seats` job sets the team's
 * subscription quantity to its member count, prorated. The job reads the count when it runs (under
 * the subscription's lock), so however many changes queued it, the last one to run writes the
 * count of the moment.
 */

/**
 * Queues a seat sync of the team (accounts calls it after a member joins or leaves). `members`, the
 * count after the change when the caller knows it, makes the job id deterministic per team and count.
 */
export async function requestSeatSync(queues: JobQueues, teamId: number, members?: number, now: Date = new Date()): Promise<void> {
  await queues.add('billing.sync-seats', { teamId }, { jobId: billingJobIds.syncSeats(teamId, members, now) });
}

export interface SeatSyncOutcome {
  teamId: number;
  skipped?: 'no subscription' | 'not live' | 'unchanged';
  from?: number;
  to?: number;
}

export async function syncSeats(
  deps: { dataSource: DataSource; stripe: Stripe; clock: Clock },
  teamId: number,
  options: { idempotencyKey?: string } = {},
): Promise<SeatSyncOutcome> {
  const team = await billingTeam(deps.dataSource, teamId);
  if (!team?.stripeSubscriptionId) return { teamId, skipped: 'no subscription' };
  const subscriptionId = team.stripeSubscriptionId;
  return deps.dataSource.transaction(async (manager) => {
    await lockStripeObject(manager, subscriptionId);
    const members = await memberCount(manager, teamId);
    const subscription = await deps.stripe.subscriptions.retrieve(subscriptionId);
    if (!isLiveStatus(subscription.status) || subscription.status === 'paused') {
      await writeSubscription(manager, deps, subscription, { source: 'seat sync' });
      return { teamId, skipped: 'not live' };
    }
    const item = subscription.items.data[0];
    if (item.quantity === members) {
      await writeSubscription(manager, deps, subscription, { source: 'seat sync' });
      return { teamId, skipped: 'unchanged', from: members, to: members };
    }
    const updated = await deps.stripe.subscriptions.update(
      subscriptionId,
      { items: [{ id: item.id, quantity: members }], proration_behavior: 'create_prorations' },
      options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : undefined,
    );
    await writeSubscription(manager, deps, updated, { source: 'seat sync' });
    return { teamId, from: item.quantity ?? 1, to: members };
  });
}
