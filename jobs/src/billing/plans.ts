import type { LimitName, PlanBody, PlanFeatures, PlanKey, PlanLimits } from './billing.shapes';
import { LIMIT_NAMES, PLAN_KEYS } from './billing.shapes';

/**
 * The plans: ONE place to change what a plan allows. Which Stripe product is which plan is the
 * product's metadata `tickerbell_plan` (`pro` or `team`); prices and names come from Stripe. The
 * self-hosted plan's limits are configuration (BILLING_SELF_HOSTED_LIMITS, default unlimited).
 */

/** The product metadata key that names the plan a Stripe product sells. */
export const PLAN_METADATA_KEY = 'tickerbell_plan';

const ALL_FEATURES: PlanFeatures = { webhooks: true, telegram: true };
const unlimited = (): PlanLimits => Object.fromEntries(LIMIT_NAMES.map((name) => [name, null])) as PlanLimits;

export const PLANS: Record<Exclude<PlanKey, 'self-hosted'>, PlanBody> = {
  free: {
    key: 'free',
    name: 'Free',
    summary: 'Every feature, with room for a personal setup.',
    limits: {
      activeAlerts: 25,
      watchlists: 5,
      whaleWatches: 10,
      yieldAlerts: 10,
      lockupFollows: 20,
      insiderFollows: 20,
      chatRoomsCreated: 1,
      seats: 3,
    },
    features: { webhooks: false, telegram: false },
  },
  pro: {
    key: 'pro',
    name: 'Pro',
    summary: 'For an active trader: more alerts and watches, webhooks and Telegram.',
    limits: {
      activeAlerts: 250,
      watchlists: 50,
      whaleWatches: 100,
      yieldAlerts: 100,
      lockupFollows: 200,
      insiderFollows: 200,
      chatRoomsCreated: 5,
      seats: 5,
    },
    features: ALL_FEATURES,
  },
  team: {
    key: 'team',
    name: 'Team',
    summary: 'For a desk: the highest limits and up to 50 seats.',
    limits: {
      activeAlerts: 1000,
      watchlists: 50,
      whaleWatches: 500,
      yieldAlerts: 500,
      lockupFollows: 1000,
      insiderFollows: 1000,
      chatRoomsCreated: 20,
      seats: 50,
    },
    features: ALL_FEATURES,
  },
};

/** The self-hosted plan with the operator's limits (a missing limit is unlimited). */
export function selfHostedPlan(limits: Partial<PlanLimits> = {}): PlanBody {
  return {
    key: 'self-hosted',
    name: 'Self-hosted',
    summary: 'Billing is off on this install: every account has every feature, within the limits its operator set.',
    limits: { ...unlimited(), ...limits },
    features: ALL_FEATURES,
  };
}

/** Higher is more generous: a user in several teams gets the best plan among them. */
export function planRank(plan: PlanKey): number {
  return PLAN_KEYS.indexOf(plan);
}

/** The paid plan a Stripe product sells, from its metadata; null when it names none we know. */
export function planOfProductMetadata(metadata: Record<string, unknown> | null | undefined): Exclude<PlanKey, 'free' | 'self-hosted'> | null {
  const value = metadata?.[PLAN_METADATA_KEY];
  return value === 'pro' || value === 'team' ? value : null;
}

/**
 * `name=limit` pairs separated by commas (BILLING_SELF_HOSTED_LIMITS), e.g. `activeAlerts=100,seats=5`;
 * a limit may be `unlimited`. Throws an Error saying what is wrong (the config schema reports it).
 */
export function parsePlanLimits(text: string): Partial<PlanLimits> {
  const limits: Partial<PlanLimits> = {};
  for (const part of text.split(',').map((p) => p.trim())) {
    if (!part) continue;
    const match = /^([A-Za-z]+)\s*=\s*(\d{1,9}|unlimited)$/.exec(part);
    if (!match) throw new Error(`"${part}" is not limit=number (e.g. activeAlerts=100,seats=5)`);
    const name = match[1] as LimitName;
    if (!LIMIT_NAMES.includes(name)) throw new Error(`"${match[1]}" is not a limit (one of ${LIMIT_NAMES.join(', ')})`);
    if (name in limits) throw new Error(`"${name}" is listed twice`);
    limits[name] = match[2] === 'unlimited' ? null : Number(match[2]);
  }
  return limits;
}
