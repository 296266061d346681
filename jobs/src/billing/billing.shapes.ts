/**
 * Billing's HTTP shapes and names (issue 19): plans, the limits and feature flags the entitlements
 * module answers, Stripe's subscription statuses. Plain types and `as const` lists only: the web
 * imports this file as `@tickerbell/jobs/billing/shapes`.
 */

/** Plans: `free` without a paid subscription (billing on), `self-hosted` when billing is off. */
export const PLAN_KEYS = ['free', 'pro', 'team', 'self-hosted'] as const;
export type PlanKey = (typeof PLAN_KEYS)[number];

/** Countable things a plan limits (each domain's check asks the entitlements module). */
export const LIMIT_NAMES = ['activeAlerts', 'watchlists', 'whaleWatches', 'yieldAlerts', 'lockupFollows', 'insiderFollows', 'chatRoomsCreated', 'seats'] as const;
export type LimitName = (typeof LIMIT_NAMES)[number];

/** What each limit counts, for messages and screens. */
export const LIMIT_LABELS: Record<LimitName, string> = {
  activeAlerts: 'active alerts',
  watchlists: 'watchlists',
  whaleWatches: 'watched wallets',
  yieldAlerts: 'yield alerts',
  lockupFollows: 'followed lock-ups',
  insiderFollows: 'followed insiders and companies',
  chatRoomsCreated: 'chat rooms created',
  seats: 'team seats',
};

/** Features a plan switches on or off. */
export const FEATURE_FLAGS = ['webhooks', 'telegram'] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];

export const FEATURE_LABELS: Record<FeatureFlag, string> = {
  webhooks: 'alert webhooks',
  telegram: 'Telegram delivery',
};

/** Stripe's subscription statuses, every one handled (docs/billing.md, "Statuses"). */
export const SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'unpaid', 'canceled', 'incomplete', 'incomplete_expired', 'paused'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/**
 * What a team may do now: `full`; `grace` (past due, within the grace period: everything works,
 * a banner asks for payment); `read_only` (reads work, creating tracked items answers 402).
 */
export const BILLING_MODES = ['full', 'grace', 'read_only'] as const;
export type BillingMode = (typeof BILLING_MODES)[number];

/** A plan's limits: null is unlimited. */
export type PlanLimits = Record<LimitName, number | null>;
export type PlanFeatures = Record<FeatureFlag, boolean>;

export interface PlanBody {
  key: PlanKey;
  name: string;
  summary: string;
  limits: PlanLimits;
  features: PlanFeatures;
}

export interface PriceBody {
  /** Stripe's price id (what checkout takes). */
  id: string;
  /** Minor units (cents) as a decimal string; null for prices that are not per unit. */
  unitAmount: string | null;
  currency: string;
  interval: string | null;
  trialPeriodDays: number | null;
}

/** GET /api/billing/pricing */
export interface PricingBody {
  billing: 'on' | 'off';
  /** Plans on sale (billing on: those with an active product and price; off: the self-hosted plan). */
  plans: (PlanBody & { productName: string | null; description: string | null; prices: PriceBody[] })[];
  /** The plan of an account without a subscription (free when billing is on). */
  defaultPlan: PlanBody;
}

/** The entitlements of a user or a team, as screens show them. */
export interface EntitlementsBody {
  billing: 'on' | 'off';
  plan: PlanKey;
  planName: string;
  /** The team whose subscription gives the plan; null for the free or self-hosted plan. */
  teamId: number | null;
  status: SubscriptionStatus | null;
  mode: BillingMode;
  /** When the grace period ends (mode grace). */
  graceEndsAt: string | null;
  limits: PlanLimits;
  features: PlanFeatures;
}

/** GET /api/billing/teams/:teamId */
export interface BillingStatusBody {
  teamId: number;
  teamName: string;
  /** The caller's role: owners and admins manage billing. */
  role: 'owner' | 'admin' | 'member';
  canManage: boolean;
  entitlements: EntitlementsBody;
  subscription: {
    status: SubscriptionStatus;
    priceId: string | null;
    seats: number | null;
    currentPeriodEnd: string | null;
    trialEnd: string | null;
    cancelAtPeriodEnd: boolean;
    pastDueSince: string | null;
  } | null;
  seatsUsed: number;
  /** Usage of each limit by the caller (counts of their own items; seats: the team's members). */
  usage: Partial<Record<LimitName, number>>;
  hasCustomer: boolean;
}

/** POST /api/billing/checkout */
export interface CheckoutRequestBody {
  teamId: number;
  priceId: string;
}

/** POST /api/billing/portal */
export interface PortalRequestBody {
  teamId: number;
}

/** The answer of checkout and portal: where to send the browser. */
export interface SessionUrlBody {
  url: string;
}

/** The JSON body of a refusal by the entitlements (403 plan_limit / feature_off, 402 read_only). */
export interface EntitlementRefusalBody {
  error: 'plan_limit' | 'feature_off' | 'read_only';
  message: string;
  plan: PlanKey;
  limit?: LimitName;
  feature?: FeatureFlag;
  max?: number;
  used?: number;
  upgradeUrl: string;
}
