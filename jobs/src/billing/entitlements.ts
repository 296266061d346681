import type { DataSource, EntityManager } from 'typeorm';
import type { BillingMode, EntitlementRefusalBody, EntitlementsBody, FeatureFlag, LimitName, PlanBody, PlanKey, SubscriptionStatus } from './billing.shapes';
import { FEATURE_LABELS, LIMIT_LABELS, SUBSCRIPTION_STATUSES } from './billing.shapes';
import { PLANS, planRank, selfHostedPlan } from './plans';
import { countTeamMembers, lockUserLimit, teamBilling, teamsBillingOfUser, type TeamBillingRow } from './entitlements.store';
import { billingEnabled, type BillingConfig, type SelfHostedLimits } from './billing.config';

/**
 * "What may this user (or team) do": the one module every domain's limit check asks (issue 19).
 * Billing off: the self-hosted plan, whose limits are the operator's configuration. Billing on:
 * the plan of the team's subscription, by the status table below (docs/billing.md, "Statuses").
 */

type Db = DataSource | EntityManager;

const DAY_MS = 86_400_000;

export interface EntitlementsOptions {
  billingEnabled: boolean;
  /** BILLING_SELF_HOSTED_LIMITS (a missing limit is unlimited). */
  selfHostedLimits?: SelfHostedLimits;
  /** BILLING_GRACE_DAYS: how long past_due keeps working before read-only. */
  graceDays: number;
}

export type EntitlementRefusal = EntitlementRefusalBody['error'];

/** A refusal the api turns into 403 (plan_limit, feature_off) or 402 (read_only). */
export class EntitlementError extends Error {
  constructor(
    readonly code: EntitlementRefusal,
    message: string,
    readonly details: Omit<EntitlementRefusalBody, 'error' | 'message'>,
  ) {
    super(message);
    this.name = 'EntitlementError';
  }

  /** The JSON body of the refusal. */
  body(): EntitlementRefusalBody {
    return { error: this.code, message: this.message, ...this.details };
  }

  get status(): 402 | 403 {
    return this.code === 'read_only' ? 402 : 403;
  }
}

export interface TeamState {
  plan: PlanKey;
  status: SubscriptionStatus | null;
  mode: BillingMode;
  graceEndsAt: Date | null;
}

const asStatus = (status: string | null): SubscriptionStatus | null =>
  status !== null && (SUBSCRIPTION_STATUSES as readonly string[]).includes(status) ? (status as SubscriptionStatus) : null;

const paidPlan = (planName: string | null): 'pro' | 'team' | null => {
  const plan = planName?.toLowerCase();
  return plan === 'pro' || plan === 'team' ? plan : null;
};

/**
 * The status table (pure): trialing and active give the plan; past_due gives it for the grace
 * period (counted from when it became past due), then read-only; unpaid and paused keep the plan's
 * data but read-only; canceled, incomplete, incomplete_expired and no subscription: the free plan.
 */
export function teamStateOf(row: Pick<TeamBillingRow, 'planName' | 'status' | 'pastDueSince'>, now: Date, graceDays: number): TeamState {
  const status = asStatus(row.status);
  const plan = paidPlan(row.planName);
  const free: TeamState = { plan: 'free', status, mode: 'full', graceEndsAt: null };
  if (!plan) return free;
  switch (status) {
    case 'trialing':
    case 'active':
      return { plan, status, mode: 'full', graceEndsAt: null };
    case 'past_due': {
      const since = row.pastDueSince ?? now;
      const graceEndsAt = new Date(since.getTime() + graceDays * DAY_MS);
      return { plan, status, mode: now < graceEndsAt ? 'grace' : 'read_only', graceEndsAt };
    }
    case 'unpaid':
    case 'paused':
      return { plan, status, mode: 'read_only', graceEndsAt: null };
    default:
      return free;
  }
}

export interface Entitlements {
  readonly billingEnabled: boolean;
  /** The plans a user can be on here (billing off: only self-hosted). */
  plan(key: PlanKey): PlanBody;
  ofUser(db: Db, userId: number, now: Date): Promise<EntitlementsBody>;
  ofTeam(db: Db, teamId: number, now: Date): Promise<EntitlementsBody>;
  /**
   * Refuses (EntitlementError) when the user is read-only or when `adding` more would pass the
   * limit. With a count function, it first takes a per-user lock for the limit (inside the
   * caller's transaction) so concurrent requests cannot both take the last place.
   */
  checkLimit(manager: EntityManager, userId: number, limit: LimitName, used: number | (() => Promise<number>), now: Date, adding?: number): Promise<void>;
  /** Refuses (read_only, 402) when the user may not create tracked items. */
  checkWritable(db: Db, userId: number, now: Date): Promise<void>;
  /** Refuses (feature_off, 403) when the user's plan lacks the feature. */
  checkFeature(db: Db, userId: number, flag: FeatureFlag, now: Date): Promise<void>;
  /** Seats of a team: the caller holds the team's row lock; refuses when `adding` members would pass it. */
  checkSeat(manager: EntityManager, teamId: number, now: Date, adding?: number): Promise<void>;
}

export function createEntitlements(options: EntitlementsOptions): Entitlements {
  const selfHosted = selfHostedPlan(options.selfHostedLimits);
  const plan = (key: PlanKey): PlanBody => (key === 'self-hosted' ? selfHosted : PLANS[key]);

  const body = (state: TeamState, teamId: number | null): EntitlementsBody => {
    const p = plan(state.plan);
    return {
      billing: 'on',
      plan: p.key,
      planName: p.name,
      teamId: state.plan === 'free' ? null : teamId,
      status: state.status,
      mode: state.mode,
      graceEndsAt: state.graceEndsAt?.toISOString() ?? null,
      limits: p.limits,
      features: p.features,
    };
  };
  const off = (): EntitlementsBody => ({
    billing: 'off',
    plan: 'self-hosted',
    planName: selfHosted.name,
    teamId: null,
    status: null,
    mode: 'full',
    graceEndsAt: null,
    limits: selfHosted.limits,
    features: selfHosted.features,
  });

  async function ofUser(db: Db, userId: number, now: Date): Promise<EntitlementsBody> {
    if (!options.billingEnabled) return off();
    let best: { state: TeamState; teamId: number } | null = null;
    let readOnly: { state: TeamState; teamId: number } | null = null;
    for (const row of await teamsBillingOfUser(db, userId)) {
      const state = teamStateOf(row, now, options.graceDays);
      if (state.mode === 'read_only') {
        if (!readOnly || planRank(state.plan) > planRank(readOnly.state.plan)) readOnly = { state, teamId: row.teamId };
      } else if (!best || planRank(state.plan) > planRank(best.state.plan)) {
        best = { state, teamId: row.teamId };
      }
    }
    // A read-only paid team counts only when no other team gives the user a paid plan.
    if (readOnly && (!best || best.state.plan === 'free')) return body(readOnly.state, readOnly.teamId);
    if (best) return body(best.state, best.teamId);
    return body({ plan: 'free', status: null, mode: 'full', graceEndsAt: null }, null);
  }

  async function ofTeam(db: Db, teamId: number, now: Date): Promise<EntitlementsBody> {
    if (!options.billingEnabled) return off();
    const row = await teamBilling(db, teamId);
    const state = row ? teamStateOf(row, now, options.graceDays) : { plan: 'free' as const, status: null, mode: 'full' as const, graceEndsAt: null };
    return { ...body(state, teamId), teamId };
  }

  const upgradeUrl = (e: EntitlementsBody) =>
    e.billing === 'off' ? '/contact' : e.plan === 'free' ? '/pricing' : `/dashboard/settings/billing?team=${e.teamId}`;
  const upgradeHint = (e: EntitlementsBody) =>
    e.billing === 'off' ? 'the operator of this install sets the limits' : e.plan === 'free' ? 'upgrade on the pricing page' : 'upgrade in Settings → Billing';

  const readOnlyError = (e: EntitlementsBody) =>
    new EntitlementError(
      'read_only',
      e.status === 'past_due'
        ? `Your ${e.planName} subscription is past due and its grace period has ended: the account is read-only until the payment goes through (Settings → Billing)`
        : `Your ${e.planName} subscription is ${e.status ?? 'inactive'}: the account is read-only until it is paid or resumed (Settings → Billing)`,
      { plan: e.plan, upgradeUrl: `/dashboard/settings/billing${e.teamId ? `?team=${e.teamId}` : ''}` },
    );

  const limitError = (e: EntitlementsBody, limit: LimitName, max: number, used: number) =>
    new EntitlementError(
      'plan_limit',
      `Your ${e.planName} plan allows ${max} ${LIMIT_LABELS[limit]} (you have ${used}): remove one, or ${upgradeHint(e)}`,
      { plan: e.plan, limit, max, used, upgradeUrl: upgradeUrl(e) },
    );

  return {
    billingEnabled: options.billingEnabled,
    plan,
    ofUser,
    ofTeam,
    async checkLimit(manager, userId, limit, used, now, adding = 1) {
      const e = await ofUser(manager, userId, now);
      if (e.mode === 'read_only') throw readOnlyError(e);
      const max = e.limits[limit];
      if (max === null) return;
      let count: number;
      if (typeof used === 'function') {
        await lockUserLimit(manager, userId, limit);
        count = await used();
      } else {
        count = used;
      }
      if (count + adding > max) throw limitError(e, limit, max, count);
    },
    async checkWritable(db, userId, now) {
      const e = await ofUser(db, userId, now);
      if (e.mode === 'read_only') throw readOnlyError(e);
    },
    async checkFeature(db, userId, flag, now) {
      const e = await ofUser(db, userId, now);
      if (!e.features[flag]) {
        throw new EntitlementError('feature_off', `The ${e.planName} plan does not include ${FEATURE_LABELS[flag]}: ${upgradeHint(e)}`, {
          plan: e.plan,
          feature: flag,
          upgradeUrl: upgradeUrl(e),
        });
      }
    },
    async checkSeat(manager, teamId, now, adding = 1) {
      const e = await ofTeam(manager, teamId, now);
      if (e.mode === 'read_only') throw readOnlyError(e);
      const max = e.limits.seats;
      if (max === null) return;
      const used = await countTeamMembers(manager, teamId);
      if (used + adding > max) throw limitError(e, 'seats', max, used);
    },
  };
}

/** The entitlements of this install, from the billing variables. */
export function entitlementsFromConfig(config: Pick<BillingConfig, 'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'BILLING_GRACE_DAYS' | 'BILLING_SELF_HOSTED_LIMITS'>): Entitlements {
  return createEntitlements({
    billingEnabled: billingEnabled(config),
    selfHostedLimits: config.BILLING_SELF_HOSTED_LIMITS,
    graceDays: config.BILLING_GRACE_DAYS,
  });
}
