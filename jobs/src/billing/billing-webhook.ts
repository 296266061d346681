import { UnrecoverableError } from 'bullmq';
import type { DataSource, EntityManager } from 'typeorm';
import type Stripe from 'stripe';
import type Redis from 'ioredis';
import type { Clock } from '../runtime/clock';
import type { JobQueues } from '../runtime/job-queues';
import type { Logger } from '../runtime/logger';
import { dispatchNotifications, writeNotifications, type WrittenNotification } from '../notifications/notify';
import { billingJobIds } from './billing.jobs';
import { billingTeam, markEventProcessed, recordEventFailure, storeEvent, storedEvent, teamOwnerIds } from './billing.store';
import { refreshCatalogObject, refreshSubscription, type RefreshOutcome } from './billing-sync';
import { billingNotice, isBillingNoticeEvent } from './billing-notify';
import { BillingError } from './billing-service';
import { stripeWebhooks } from './stripe.client';

/**
 * Webhooks: received by the api (POST /api/billing/webhook), processed by the workers.
 *
 * Receiving verifies Stripe's signature on the raw body (300 s tolerance), stores the event once
 * (subscription_events, unique on Stripe's event id) and queues `billing.process-event` under a job
 * id made of the event id; the api answers 200 at once. Processing re-fetches the object the event
 * is about (the subscription, product or price) from Stripe, so arrival order never matters, and
 * writes it with the event's processed mark in one transaction: a duplicate delivery, a retried job
 * or a concurrent one finds the mark (under the event row's lock) and does nothing.
 */

/** Stripe signs with a timestamp: older than this, the signature is refused (replays). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export interface ReceiveDeps {
  dataSource: DataSource;
  stripe: Stripe | null;
  queues: JobQueues;
  config: { STRIPE_WEBHOOK_SECRET?: string };
  logger?: Logger;
}

/** Verifies, stores once and queues an event. BillingError bad_signature (nothing stored) or billing_off. */
export async function receiveWebhook(deps: ReceiveDeps, rawBody: Buffer, signatureHeader: string | undefined): Promise<{ duplicate: boolean; eventId: string; type: string }> {
  const secret = deps.config.STRIPE_WEBHOOK_SECRET;
  if (!deps.stripe || !secret) throw new BillingError('billing_off', 'Billing is off on this install: no webhook is expected');
  let event: Stripe.Event;
  try {
    if (!signatureHeader) throw new Error('no Stripe-Signature header');
    event = stripeWebhooks.constructEvent(rawBody, signatureHeader, secret, WEBHOOK_TOLERANCE_SECONDS);
  } catch (error) {
    deps.logger?.warn({ err: (error as Error).message }, 'billing: webhook signature refused');
    throw new BillingError('bad_signature', 'The Stripe signature of this webhook is missing, wrong or too old');
  }
  // constructEvent parsed the verified body: that object is what is stored.
  const stored = await storeEvent(deps.dataSource, event);
  if (stored.inserted || stored.processedAt === null) await queueProcessing(deps.queues, event.id);
  return { duplicate: !stored.inserted, eventId: event.id, type: event.type };
}

/**
 * Queues the processing of a stored event. The job id is the event's, so a redelivery while it
 * waits adds nothing; a job that failed for good (kept a week) is retried instead.
 */
export async function queueProcessing(queues: JobQueues, stripeEventId: string): Promise<void> {
  const job = await queues.add('billing.process-event', { stripeEventId }, { jobId: billingJobIds.processEvent(stripeEventId) });
  if ((await job.getState()) === 'failed') await job.retry('failed');
}

// ---- processing ---------------------------------------------------------------------------------

export interface ProcessDeps {
  dataSource: DataSource;
  stripe: Stripe;
  queues: JobQueues;
  redis: Redis;
  clock: Clock;
  logger: Logger;
  graceDays: number;
}

export interface ProcessOutcome {
  stripeEventId: string;
  type: string;
  result: 'processed' | 'already processed' | 'ignored';
  teamId?: number | null;
  status?: string;
  notified?: number;
  note?: string;
}

type EventTarget =
  | { kind: 'subscription'; id: string }
  | { kind: 'product' | 'price'; id: string; deleted: boolean }
  | { kind: 'none'; why: string };

/** Which Stripe object an event is about (pure). */
export function eventTarget(event: { type: string; data: { object: object } }): EventTarget {
  const object = event.data.object as Record<string, unknown> & { id?: string };
  const idOf = (value: unknown) => (typeof value === 'string' ? value : value && typeof value === 'object' && typeof (value as { id?: unknown }).id === 'string' ? (value as { id: string }).id : null);
  if (event.type.startsWith('customer.subscription.')) return { kind: 'subscription', id: String(object.id) };
  if (event.type === 'checkout.session.completed' || event.type === 'checkout.session.async_payment_succeeded' || event.type === 'checkout.session.async_payment_failed') {
    const id = object.mode === 'subscription' ? idOf(object.subscription) : null;
    return id ? { kind: 'subscription', id } : { kind: 'none', why: 'a checkout session without a subscription' };
  }
  if (event.type.startsWith('invoice.')) {
    const parent = object.parent as { subscription_details?: { subscription?: unknown } } | null | undefined;
    const id = idOf(parent?.subscription_details?.subscription) ?? idOf(object.subscription);
    return id ? { kind: 'subscription', id } : { kind: 'none', why: 'an invoice of no subscription' };
  }
  if (event.type.startsWith('product.')) return { kind: 'product', id: String(object.id), deleted: event.type === 'product.deleted' };
  if (event.type.startsWith('price.')) return { kind: 'price', id: String(object.id), deleted: event.type === 'price.deleted' };
  return { kind: 'none', why: `${event.type} is not used` };
}

const billingPath = (teamId: number) => `/dashboard/settings/billing?team=${teamId}`;

async function noticesOf(manager: EntityManager, deps: ProcessDeps, event: Stripe.Event, outcome: RefreshOutcome, existing: 'skip' | 'include'): Promise<WrittenNotification[]> {
  if (!isBillingNoticeEvent(event.type) || outcome.teamId === null) return [];
  const team = await billingTeam(manager, outcome.teamId);
  if (!team) return [];
  // A trial that ended or a subscription already paid again by processing time: nothing to say.
  if (event.type === 'customer.subscription.trial_will_end' && outcome.status !== 'trialing') return [];
  if (event.type === 'invoice.payment_failed' && !['past_due', 'unpaid', 'incomplete', 'active'].includes(outcome.status)) return [];
  const request = billingNotice({
    eventType: event.type,
    stripeEventId: event.id,
    team,
    owners: await teamOwnerIds(manager, team.id),
    plan: team.planName ?? outcome.plan,
    trialEnd: team.trialEnd,
    graceDays: deps.graceDays,
    billingUrl: billingPath(team.id),
  });
  return request ? writeNotifications(manager, [request], { now: deps.clock.now(), existing }) : [];
}

/** The `billing.process-event` job. */
export async function processStripeEvent(deps: ProcessDeps, stripeEventId: string): Promise<ProcessOutcome> {
  const first = await storedEvent(deps.dataSource, stripeEventId);
  if (!first) throw new UnrecoverableError(`No stored Stripe event ${stripeEventId}`);
  const event = first.eventData as unknown as Stripe.Event;
  const target = eventTarget(event);
  let written: WrittenNotification[] = [];
  try {
    const outcome = await deps.dataSource.transaction(async (manager): Promise<ProcessOutcome> => {
      const locked = await storedEvent(manager, stripeEventId, true);
      const now = deps.clock.now();
      if (!locked || locked.processedAt) {
        // Processed by an earlier attempt that may have died before dispatching its notices.
        return { stripeEventId, type: event.type, result: 'already processed' };
      }
      switch (target.kind) {
        case 'subscription': {
          const fallback = event.type.startsWith('customer.subscription.') ? (event.data.object as Stripe.Subscription) : null;
          const refreshed = await refreshSubscription(manager, deps, target.id, { source: event.type, fallback });
          written = await noticesOf(manager, deps, event, refreshed, 'skip');
          await markEventProcessed(manager, stripeEventId, { teamId: refreshed.teamId, subscriptionId: refreshed.subscriptionRowId, note: refreshed.note ?? null }, now);
          return { stripeEventId, type: event.type, result: 'processed', teamId: refreshed.teamId, status: refreshed.status, notified: written.length, ...(refreshed.note ? { note: refreshed.note } : {}) };
        }
        case 'product':
        case 'price':
          await refreshCatalogObject(manager, deps.stripe, target.kind, target.id, target.deleted);
          await markEventProcessed(manager, stripeEventId, { teamId: null, subscriptionId: null }, now);
          return { stripeEventId, type: event.type, result: 'processed' };
        default:
          await markEventProcessed(manager, stripeEventId, { teamId: null, subscriptionId: null, note: `ignored: ${target.why}` }, now);
          return { stripeEventId, type: event.type, result: 'ignored', note: target.why };
      }
    });
    if (outcome.result === 'already processed' && isBillingNoticeEvent(event.type)) {
      // An earlier attempt committed and may have died before dispatching: dispatched again (same job ids, added once).
      written = await redispatchable(deps, stripeEventId, event);
    }
    if (written.length) await dispatchNotifications(deps, written);
    return outcome;
  } catch (error) {
    await recordEventFailure(deps.dataSource, stripeEventId, (error as Error).message ?? String(error)).catch(() => undefined);
    throw error;
  }
}

/** The notices an earlier attempt wrote for this event (to dispatch again). */
async function redispatchable(deps: ProcessDeps, stripeEventId: string, event: Stripe.Event): Promise<WrittenNotification[]> {
  const rows: { teamId: number | null; status: string | null }[] = await deps.dataSource.query(
    `SELECT e.team_id AS "teamId", s.status FROM subscription_events e LEFT JOIN subscriptions s ON s.id = e.subscription_id WHERE e.stripe_event_id = $1`,
    [stripeEventId],
  );
  const row = rows[0];
  if (!row?.teamId || !row.status) return [];
  const teamId = row.teamId;
  const status = row.status;
  return deps.dataSource.transaction((manager) =>
    noticesOf(manager, deps, event, { teamId, status, stripeSubscriptionId: '', subscriptionRowId: null, plan: null, teamUpdated: false, previousStatus: null }, 'include'),
  );
}
