import type { NotificationRequest } from '../notifications/notify';
import { PLANS } from './plans';

/**
 * What billing tells a team's owners (through the notifications domain: in-app, live stream and
 * email to every owner, whatever their email preference, since it is about their payment): the
 * trial ends soon (Stripe's customer.subscription.trial_will_end, three days before) and a
 * payment failed (invoice.payment_failed). One dedupe key per Stripe event: a redelivery or a
 * retried job never notifies twice.
 */

export const BILLING_NOTICE_EVENTS = ['customer.subscription.trial_will_end', 'invoice.payment_failed'] as const;
export type BillingNoticeEvent = (typeof BILLING_NOTICE_EVENTS)[number];
export const isBillingNoticeEvent = (type: string): type is BillingNoticeEvent => (BILLING_NOTICE_EVENTS as readonly string[]).includes(type);

export const BILLING_ACTIVITY_TYPE = 'billing';

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : 'soon');
const planName = (plan: string | null) => (plan === 'pro' || plan === 'team' ? PLANS[plan].name : 'paid');

export interface BillingNoticeInput {
  eventType: BillingNoticeEvent;
  stripeEventId: string;
  team: { id: number; name: string };
  owners: readonly number[];
  plan: string | null;
  trialEnd: Date | null;
  graceDays: number;
  /** Where the owners manage billing (absolute or app path). */
  billingUrl: string;
}

/** The notification of a billing event (pure). */
export function billingNotice(input: BillingNoticeInput): NotificationRequest | null {
  if (!input.owners.length) return null;
  const plan = planName(input.plan);
  const content =
    input.eventType === 'customer.subscription.trial_will_end'
      ? {
          title: 'Your trial ends soon',
          message: `The ${plan} trial of ${input.team.name} ends on ${day(input.trialEnd)}: add a payment method in Settings → Billing to keep the plan`,
        }
      : {
          title: 'A payment failed',
          message: `The payment for the ${plan} plan of ${input.team.name} failed: update the payment method in Settings → Billing within ${input.graceDays} days, after which the team turns read-only`,
        };
  return {
    recipients: input.owners,
    content: {
      ...content,
      type: 'warning',
      activityType: BILLING_ACTIVITY_TYPE,
      details: { teamId: input.team.id, event: input.eventType, stripeEventId: input.stripeEventId, link: { href: input.billingUrl, label: 'Billing settings' } },
    },
    dedupeKey: `billing:${input.stripeEventId}`,
    channels: {
      push: null,
      email: { to: 'all', text: `${content.message}.\n\nBilling settings: ${input.billingUrl}\n\nYou receive this email because you own the team ${input.team.name} on Tickerbell.` },
      telegram: null,
    },
  };
}
