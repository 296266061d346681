import type { DataSource, EntityManager } from 'typeorm';
import type Stripe from 'stripe';
import type { Clock } from '../runtime/clock';
import type { Logger } from '../runtime/logger';
import type { JobQueues } from '../runtime/job-queues';
import { planOfProductMetadata } from './plans';
import {
  billingTeam,
  deactivatePricesExcept,
  deactivateProductsExcept,
  isLiveStatus,
  lockStripeObject,
  logBillingActivity,
  memberCount,
  productByStripeId,
  setPriceActive,
  setProductActive,
  teamByCustomer,
  teamBySubscription,
  teamOwnerIds,
  teamsToResync,
  upsertPrice,
  upsertProduct,
  upsertSubscription,
  writeMembersSubscription,
  writeTeamBilling,
  type BillingTeamRow,
  type SubscriptionSnapshot,
} from './billing.store';

/**
 * Billing's state follows Stripe's, never an event's copy of it: a subscription is re-fetched from
 * Stripe and written whole (subscriptions row, the team's fields, every member's users fields and
 * an activity row) in the caller's transaction. Two writers of one subscription are serialised by
 * an advisory lock taken BEFORE the fetch, so the later writer always fetched the later state,
 * whatever order the events arrived in. The catalog (products, prices) is mirrored likewise.
 */

const date = (seconds: number | null | undefined): Date | null => (typeof seconds === 'number' ? new Date(seconds * 1000) : null);
const idOf = (value: string | { id: string } | null | undefined): string | null => (value == null ? null : typeof value === 'string' ? value : value.id);

/** Tickerbell's view of a Stripe subscription (pure). `plan` is filled by the caller from the product. */
export function snapshotOf(subscription: Stripe.Subscription, plan: string | null): SubscriptionSnapshot {
  const item = subscription.items?.data?.[0];
  const metadata = Object.fromEntries(Object.entries(subscription.metadata ?? {}).map(([k, v]) => [k, String(v)]));
  const live = isLiveStatus(subscription.status);
  return {
    stripeSubscriptionId: subscription.id,
    stripeCustomerId: idOf(subscription.customer as string | { id: string }) as string,
    status: subscription.status,
    stripePriceId: item?.price?.id ?? null,
    stripeProductId: idOf(item?.price?.product as string | { id: string } | undefined),
    plan,
    quantity: item?.quantity ?? 1,
    currentPeriodStart: date(item?.current_period_start),
    currentPeriodEnd: date(item?.current_period_end),
    trialStart: date(subscription.trial_start),
    trialEnd: date(subscription.trial_end),
    // The portal may schedule a cancellation as cancel_at rather than cancel_at_period_end.
    cancelAtPeriodEnd: live && (subscription.cancel_at_period_end || subscription.cancel_at !== null),
    canceledAt: date(subscription.canceled_at),
    startedAt: date(subscription.start_date),
    metadata,
  };
}

export interface SyncDeps {
  dataSource: DataSource;
  stripe: Stripe;
  clock: Clock;
  logger?: Logger;
}

/** What a subscription refresh did. */
export interface RefreshOutcome {
  stripeSubscriptionId: string;
  teamId: number | null;
  subscriptionRowId: number | null;
  status: string;
  plan: string | null;
  /** false: the team kept another, live subscription (this one is only recorded). */
  teamUpdated: boolean;
  previousStatus: string | null;
  note?: string;
}

// ---- catalog ------------------------------------------------------------------------------------

async function storeProduct(db: DataSource | EntityManager, product: Stripe.Product): Promise<number> {
  const metadata = Object.fromEntries(Object.entries(product.metadata ?? {}).map(([k, v]) => [k, String(v)]));
  return upsertProduct(db, { stripeProductId: product.id, name: product.name, description: product.description ?? null, active: product.active, metadata });
}

async function storePrice(db: DataSource | EntityManager, stripe: Stripe, price: Stripe.Price): Promise<number> {
  const productId = idOf(price.product as string | { id: string }) as string;
  let product = await productByStripeId(db, productId);
  if (!product) {
    await storeProduct(db, await stripe.products.retrieve(productId));
    product = await productByStripeId(db, productId);
  }
  return upsertPrice(db, {
    stripePriceId: price.id,
    productId: (product as { id: number }).id,
    unitAmount: price.unit_amount ?? null,
    currency: price.currency,
    interval: price.recurring?.interval ?? null,
    trialPeriodDays: price.recurring?.trial_period_days ?? null,
    active: price.active,
  });
}

/** The plan a product sells; the product is fetched and stored when it is not mirrored yet. */
async function planOfProduct(db: DataSource | EntityManager, stripe: Stripe, productId: string | null): Promise<string | null> {
  if (!productId) return null;
  let product = await productByStripeId(db, productId);
  if (!product) {
    await storeProduct(db, await stripe.products.retrieve(productId));
    product = await productByStripeId(db, productId);
  }
  return planOfProductMetadata(product?.metadata ?? null);
}

/** `npm run cli -- billing sync` and the catalog job: every product and price Stripe lists. */
export async function syncCatalog(deps: Pick<SyncDeps, 'dataSource' | 'stripe'>): Promise<{ products: number; prices: number; deactivated: number }> {
  const { dataSource, stripe } = deps;
  const products: Stripe.Product[] = [];
  for await (const product of stripe.products.list({ limit: 100 })) products.push(product);
  const prices: Stripe.Price[] = [];
  for await (const price of stripe.prices.list({ limit: 100 })) prices.push(price);
  return dataSource.transaction(async (manager) => {
    for (const product of products) await storeProduct(manager, product);
    for (const price of prices) await storePrice(manager, stripe, price);
    const deactivated = await deactivateProductsExcept(manager, products.map((p) => p.id));
    await deactivatePricesExcept(manager, prices.map((p) => p.id));
    return { products: products.length, prices: prices.length, deactivated };
  });
}

/** A product.* or price.* event: the object re-fetched (deleted ones are marked inactive). */
export async function refreshCatalogObject(manager: EntityManager, stripe: Stripe, kind: 'product' | 'price', id: string, deleted: boolean): Promise<void> {
  await lockStripeObject(manager, id);
  if (deleted) {
    if (kind === 'product') await setProductActive(manager, id, false);
    else await setPriceActive(manager, id, false);
    return;
  }
  if (kind === 'product') await storeProduct(manager, await stripe.products.retrieve(id));
  else await storePrice(manager, stripe, await stripe.prices.retrieve(id));
}

// ---- subscriptions ------------------------------------------------------------------------------

const isMissing = (error: unknown) => (error as { code?: string; statusCode?: number })?.code === 'resource_missing' || (error as { statusCode?: number })?.statusCode === 404;

/** The team a subscription pays for: by its customer, else by the team id in its metadata, else by the stored subscription. */
async function teamOf(db: EntityManager, snapshot: SubscriptionSnapshot): Promise<BillingTeamRow | null> {
  const byCustomer = await teamByCustomer(db, snapshot.stripeCustomerId);
  if (byCustomer) return byCustomer;
  const metaTeam = Number(snapshot.metadata.teamId);
  if (Number.isInteger(metaTeam) && metaTeam > 0) {
    const team = await billingTeam(db, metaTeam);
    if (team && team.stripeCustomerId === null) return team;
  }
  return teamBySubscription(db, snapshot.stripeSubscriptionId);
}

/**
 * Re-fetches one subscription from Stripe and writes it, inside `manager`'s transaction. `fallback`
 * (the event's copy) is used only when Stripe no longer knows the subscription.
 */
export async function refreshSubscription(
  manager: EntityManager,
  deps: Pick<SyncDeps, 'stripe' | 'clock'>,
  stripeSubscriptionId: string,
  context: { source: string; fallback?: Stripe.Subscription | null; actorId?: number | null },
): Promise<RefreshOutcome> {
  await lockStripeObject(manager, stripeSubscriptionId);
  let subscription: Stripe.Subscription;
  try {
    subscription = await deps.stripe.subscriptions.retrieve(stripeSubscriptionId);
  } catch (error) {
    if (!isMissing(error) || !context.fallback) throw error;
    subscription = context.fallback;
  }
  return writeSubscription(manager, deps, subscription, context);
}

/** Writes a subscription object fetched from Stripe (the caller holds the object's lock). */
export async function writeSubscription(
  manager: EntityManager,
  deps: Pick<SyncDeps, 'stripe' | 'clock'>,
  subscription: Stripe.Subscription,
  context: { source: string; actorId?: number | null },
): Promise<RefreshOutcome> {
  const now = deps.clock.now();
  const productId = idOf(subscription.items?.data?.[0]?.price?.product as string | { id: string } | undefined);
  const snapshot = snapshotOf(subscription, await planOfProduct(manager, deps.stripe, productId));
  const found = await teamOf(manager, snapshot);
  const base = { stripeSubscriptionId: snapshot.stripeSubscriptionId, status: snapshot.status, plan: snapshot.plan };
  if (!found) return { ...base, teamId: null, subscriptionRowId: null, teamUpdated: false, previousStatus: null, note: 'no team has this customer' };
  // The team's row lock serialises this write with member changes and the seat check.
  const team = (await billingTeam(manager, found.id, true)) as BillingTeamRow;
  const metaUser = Number(snapshot.metadata.userId);
  const owners = await teamOwnerIds(manager, team.id);
  const userId = Number.isInteger(metaUser) && metaUser > 0 && (await userExists(manager, metaUser)) ? metaUser : (context.actorId ?? owners[0]);
  if (!userId) return { ...base, teamId: team.id, subscriptionRowId: null, teamUpdated: false, previousStatus: team.subscriptionStatus, note: 'the team has no owner' };
  const subscriptionRowId = await upsertSubscription(manager, snapshot, team.id, userId);

  // A dead subscription never replaces the team's other, live one (an old subscription's late events).
  const other = team.stripeSubscriptionId !== null && team.stripeSubscriptionId !== snapshot.stripeSubscriptionId;
  const teamUpdated = !(other && isLiveStatus(team.subscriptionStatus) && !isLiveStatus(snapshot.status));
  if (teamUpdated) {
    await writeTeamBilling(manager, team.id, snapshot, now);
    await writeMembersSubscription(manager, team.id);
    const changed =
      team.stripeSubscriptionId !== snapshot.stripeSubscriptionId ||
      team.subscriptionStatus !== snapshot.status ||
      team.planName !== snapshot.plan ||
      team.seatQuantity !== snapshot.quantity ||
      team.cancelAtPeriodEnd !== snapshot.cancelAtPeriodEnd;
    if (changed) {
      await logBillingActivity(manager, team.id, context.actorId ?? null, {
        source: context.source,
        subscription: snapshot.stripeSubscriptionId,
        status: snapshot.status,
        previousStatus: team.subscriptionStatus,
        plan: snapshot.plan,
        seats: snapshot.quantity,
        cancelAtPeriodEnd: snapshot.cancelAtPeriodEnd,
      });
    }
  }
  return { ...base, teamId: team.id, subscriptionRowId, teamUpdated, previousStatus: team.subscriptionStatus };
}

async function userExists(db: EntityManager, userId: number): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM users WHERE id = $1`, [userId]);
  return rows.length > 0;
}

/** The subscription a team should show among a customer's: the newest live one, else the newest. */
export function currentSubscription(subscriptions: Stripe.Subscription[]): Stripe.Subscription | null {
  const newest = [...subscriptions].sort((a, b) => b.created - a.created);
  return newest.find((s) => isLiveStatus(s.status)) ?? newest[0] ?? null;
}

export interface ResyncOutcome {
  teams: number;
  refreshed: number;
  changed: number;
  failed: { teamId: number; error: string }[];
  seatSyncs: number;
}

/**
 * `npm run cli -- billing resync [--team <id>]` and the daily job: for each team with a Stripe
 * customer (or the one team), the customer's subscriptions are listed and the current one is
 * re-fetched and written, so missed or failed webhooks are caught up. A team whose paid seats
 * differ from its members gets a seat sync.
 */
export async function resyncSubscriptions(
  deps: SyncDeps & { queues?: JobQueues; requestSeatSync?: (queues: JobQueues, teamId: number, members?: number) => Promise<unknown> },
  options: { teamId?: number } = {},
): Promise<ResyncOutcome> {
  const teams = await teamsToResync(deps.dataSource, options.teamId);
  const outcome: ResyncOutcome = { teams: teams.length, refreshed: 0, changed: 0, failed: [], seatSyncs: 0 };
  for (const team of teams) {
    try {
      let target: string | null = team.stripeSubscriptionId;
      if (team.stripeCustomerId) {
        const listed: Stripe.Subscription[] = [];
        for await (const s of deps.stripe.subscriptions.list({ customer: team.stripeCustomerId, status: 'all', limit: 100 })) listed.push(s);
        target = currentSubscription(listed)?.id ?? target;
      }
      if (!target) continue;
      const id = target;
      const result = await deps.dataSource.transaction((manager) => refreshSubscription(manager, deps, id, { source: 'resync' }));
      outcome.refreshed++;
      if (result.previousStatus !== result.status) outcome.changed++;
      if (result.teamId !== null && result.teamUpdated && isLiveStatus(result.status) && deps.queues && deps.requestSeatSync) {
        const members = await memberCount(deps.dataSource, result.teamId);
        const seats = (await billingTeam(deps.dataSource, result.teamId))?.seatQuantity;
        if (seats !== members) {
          await deps.requestSeatSync(deps.queues, result.teamId, members);
          outcome.seatSyncs++;
        }
      }
    } catch (error) {
      deps.logger?.warn({ teamId: team.id, err: (error as Error).message }, 'billing: resync of a team failed');
      outcome.failed.push({ teamId: team.id, error: (error as Error).message });
    }
  }
  return outcome;
}
