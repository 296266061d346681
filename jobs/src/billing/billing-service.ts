import type { DataSource, EntityManager } from 'typeorm';
import type Stripe from 'stripe';
import type { Clock } from '../runtime/clock';
import type { JobQueues } from '../runtime/job-queues';
import type { Logger } from '../runtime/logger';
import type { BillingConfig } from './billing.config';
import type { BillingStatusBody, PlanKey, PriceBody, PricingBody, SubscriptionStatus } from './billing.shapes';
import { SUBSCRIPTION_STATUSES } from './billing.shapes';
import type { Entitlements } from './entitlements';
import { PLANS, planOfProductMetadata, planRank } from './plans';
import {
  billingTeam,
  isLiveStatus,
  memberCount,
  memberRole,
  sellablePrice,
  sellablePrices,
  setTeamCustomer,
  teamHadSubscription,
  usageOfUser,
  userEmail,
} from './billing.store';

/**
 * What the api asks of billing (routes in api/src/billing): checkout and portal sessions, the
 * team's billing status, the pricing table. Refusals are BillingError; the api maps each code to
 * its status (billing_off 409, bad_signature 400, forbidden 403, not_found 404, unknown_price 400,
 * no_customer 409, stripe_unavailable 503).
 */

export type BillingErrorCode = 'billing_off' | 'bad_signature' | 'forbidden' | 'not_found' | 'unknown_price' | 'stripe_unavailable' | 'no_customer' | 'too_many_members';

export class BillingError extends Error {
  constructor(
    readonly code: BillingErrorCode,
    message: string,
    /** The request field at fault (unknown_price: priceId). */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'BillingError';
  }
}

export interface BillingDeps {
  dataSource: DataSource;
  /** Null when billing is off (no Stripe keys). */
  stripe: Stripe | null;
  queues: JobQueues;
  entitlements: Entitlements;
  config: BillingConfig;
  clock: Clock;
  logger: Logger;
  /** The site's origin (PUBLIC_URL): checkout and portal return there. */
  publicUrl: string;
}

type Db = DataSource | EntityManager;

const billingOff = () => new BillingError('billing_off', 'Billing is off on this install (self-hosted): there is nothing to buy');
const teamNotFound = () => new BillingError('not_found', 'Team not found');
const managersOnly = () => new BillingError('forbidden', 'Only the team owner or an admin can manage billing');

function requireStripe(deps: Pick<BillingDeps, 'stripe'>): Stripe {
  if (!deps.stripe) throw billingOff();
  return deps.stripe;
}

/** Stripe down, timed out, rate limited or failing (5xx): stripe_unavailable; anything else is a bug and stays as it is. */
export function stripeFailure(error: unknown): unknown {
  const e = error as { type?: string; statusCode?: number };
  if (e?.type === 'StripeConnectionError' || e?.type === 'StripeAPIError' || e?.type === 'StripeRateLimitError' || (typeof e?.statusCode === 'number' && e.statusCode >= 500)) {
    return new BillingError('stripe_unavailable', 'The payment provider is not answering: try again in a minute');
  }
  return error;
}

async function callStripe<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw stripeFailure(error);
  }
}

/** The caller manages the team's billing (owner or admin); a non-member gets not_found. */
async function requireManager(db: Db, teamId: number, userId: number): Promise<void> {
  const role = await memberRole(db, teamId, userId);
  if (!role) throw teamNotFound();
  if (role !== 'owner' && role !== 'admin') throw managersOnly();
}

const settingsUrl = (publicUrl: string, teamId: number) => new URL(`/dashboard/settings/billing?team=${teamId}`, publicUrl).toString();

/** The team's Stripe customer, created once (idempotency key per team) and stored on the team. */
async function ensureCustomer(deps: BillingDeps, stripe: Stripe, teamId: number, userId: number): Promise<string> {
  const team = await billingTeam(deps.dataSource, teamId);
  if (!team) throw teamNotFound();
  if (team.stripeCustomerId) return team.stripeCustomerId;
  const email = await userEmail(deps.dataSource, userId);
  const customer = await callStripe(() =>
    stripe.customers.create(
      { name: team.name, ...(email ? { email } : {}), metadata: { teamId: String(teamId) } },
      { idempotencyKey: `tickerbell-team-customer-${teamId}` },
    ),
  );
  return setTeamCustomer(deps.dataSource, teamId, customer.id);
}

/**
 * POST /api/billing/checkout: a Checkout Session in subscription mode for the team (owner or admin):
 * quantity = its members, the price's trial (for a team's first subscription), promotion codes
 * allowed. A team whose subscription is live changes plan in the portal: its URL is answered.
 */
export async function startCheckout(deps: BillingDeps, input: { teamId: number; userId: number; priceId: string; ip?: string | null }): Promise<{ url: string }> {
  const stripe = requireStripe(deps);
  await requireManager(deps.dataSource, input.teamId, input.userId);
  const price = await sellablePrice(deps.dataSource, input.priceId);
  if (!price || !planOfProductMetadata(price.metadata)) throw new BillingError('unknown_price', 'This price is not on sale', 'priceId');
  const team = await billingTeam(deps.dataSource, input.teamId);
  if (!team) throw teamNotFound();
  if (team.stripeSubscriptionId && team.stripeCustomerId && isLiveStatus(team.subscriptionStatus)) {
    return startPortal(deps, { teamId: input.teamId, userId: input.userId });
  }
  const quantity = Math.max(1, await memberCount(deps.dataSource, input.teamId));
  // A plan whose seats the team already outnumbers is refused before anyone pays for it.
  const plan = deps.entitlements.plan(planOfProductMetadata(price.metadata)!);
  if (plan.limits.seats !== null && quantity > plan.limits.seats) {
    throw new BillingError('too_many_members', `The ${plan.name} plan has ${plan.limits.seats} seats and this team has ${quantity} members: choose a larger plan or remove members first`);
  }
  const customer = await ensureCustomer(deps, stripe, input.teamId, input.userId);
  const trialDays = price.trialPeriodDays && !(await teamHadSubscription(deps.dataSource, input.teamId)) ? price.trialPeriodDays : null;
  const metadata = { teamId: String(input.teamId), userId: String(input.userId) };
  try {
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: String(input.teamId),
      metadata,
      line_items: [{ price: input.priceId, quantity }],
      subscription_data: { metadata, ...(trialDays ? { trial_period_days: trialDays } : {}) },
      allow_promotion_codes: true,
      success_url: `${new URL('/dashboard/settings/billing', deps.publicUrl).toString()}?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: new URL('/pricing?checkout=canceled', deps.publicUrl).toString(),
    });
    if (!session.url) throw new Error('Stripe answered a checkout session without a URL');
    deps.logger.info({ teamId: input.teamId, userId: input.userId, priceId: input.priceId, quantity, trialDays, session: session.id }, 'billing: checkout started');
    return { url: session.url };
  } catch (error) {
    const e = error as { type?: string; param?: string };
    if (e?.type === 'StripeInvalidRequestError' && e.param?.startsWith('line_items')) throw new BillingError('unknown_price', 'Stripe does not know this price', 'priceId');
    throw stripeFailure(error);
  }
}

/** POST /api/billing/portal: a Customer Portal session (owner or admin; a team that never checked out has no customer). */
export async function startPortal(deps: BillingDeps, input: { teamId: number; userId: number }): Promise<{ url: string }> {
  const stripe = requireStripe(deps);
  await requireManager(deps.dataSource, input.teamId, input.userId);
  const team = await billingTeam(deps.dataSource, input.teamId);
  if (!team) throw teamNotFound();
  if (!team.stripeCustomerId) throw new BillingError('no_customer', 'This team has no billing account yet: choose a plan first');
  const customer = team.stripeCustomerId;
  const session = await callStripe(() => stripe.billingPortal.sessions.create({ customer, return_url: settingsUrl(deps.publicUrl, input.teamId) }));
  return { url: session.url };
}

const asStatus = (status: string | null): SubscriptionStatus | null =>
  status !== null && (SUBSCRIPTION_STATUSES as readonly string[]).includes(status) ? (status as SubscriptionStatus) : null;
const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

/** GET /api/billing/teams/:teamId: members only; owners and admins also get the manage buttons (canManage). */
export async function billingStatus(deps: Pick<BillingDeps, 'dataSource' | 'entitlements' | 'clock'>, input: { teamId: number; userId: number }): Promise<BillingStatusBody> {
  const role = await memberRole(deps.dataSource, input.teamId, input.userId);
  if (!role) throw teamNotFound();
  const team = await billingTeam(deps.dataSource, input.teamId);
  if (!team) throw teamNotFound();
  const now = deps.clock.now();
  const [entitlements, seatsUsed, usage] = await Promise.all([
    deps.entitlements.ofTeam(deps.dataSource, input.teamId, now),
    memberCount(deps.dataSource, input.teamId),
    usageOfUser(deps.dataSource, input.userId),
  ]);
  const status = asStatus(team.subscriptionStatus);
  return {
    teamId: team.id,
    teamName: team.name,
    role,
    canManage: role === 'owner' || role === 'admin',
    entitlements,
    subscription:
      team.stripeSubscriptionId && status
        ? {
            status,
            priceId: team.stripePriceId,
            seats: team.seatQuantity,
            currentPeriodEnd: iso(team.currentPeriodEnd),
            trialEnd: iso(team.trialEnd),
            cancelAtPeriodEnd: team.cancelAtPeriodEnd,
            pastDueSince: iso(team.pastDueSince),
          }
        : null,
    seatsUsed,
    usage: { ...usage, seats: seatsUsed },
    hasCustomer: team.stripeCustomerId !== null,
  };
}

/**
 * GET /api/billing/pricing: the plans on sale, from the mirrored catalog (active products whose
 * metadata names a plan, with their active recurring prices), cheapest plan first. Billing off
 * (entitlements say so): only the self-hosted plan.
 */
export async function pricing(db: Db, entitlements?: Pick<Entitlements, 'billingEnabled' | 'plan'>): Promise<PricingBody> {
  if (entitlements && !entitlements.billingEnabled) {
    const plan = entitlements.plan('self-hosted');
    return { billing: 'off', plans: [{ ...plan, productName: null, description: null, prices: [] }], defaultPlan: plan };
  }
  const byPlan = new Map<PlanKey, PricingBody['plans'][number]>();
  for (const row of await sellablePrices(db)) {
    const key = planOfProductMetadata(row.metadata);
    if (!key) continue;
    const entry = byPlan.get(key) ?? { ...PLANS[key], productName: row.productName, description: row.description, prices: [] as PriceBody[] };
    entry.prices.push({ id: row.stripePriceId, unitAmount: row.unitAmount, currency: row.currency, interval: row.interval, trialPeriodDays: row.trialPeriodDays });
    byPlan.set(key, entry);
  }
  const plans = [...byPlan.values()].sort((a, b) => planRank(a.key) - planRank(b.key));
  return { billing: 'on', plans, defaultPlan: PLANS.free };
}

