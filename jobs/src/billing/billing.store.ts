import type { DataSource, EntityManager } from 'typeorm';
import type { ActivityAction, TeamRole } from '@tickerbell/entities';

/**
 * Every query of billing's jobs and services: the ledger of received Stripe events, the mirrored
 * catalog (products, prices), subscriptions, and the teams' and members' billing fields. Functions
 * take a DataSource or an EntityManager so a caller can run them inside its transaction.
 */

type Db = DataSource | EntityManager;

/** The activity logged when a team's subscription changes (webhook or resync). */
export const BILLING_ACTIVITY_ACTION = 'UPDATE_SUBSCRIPTION' as ActivityAction;

/** Subscription statuses that keep a subscription the team's current one (it may still pay or be resumed). */
export const LIVE_SUBSCRIPTION_STATUSES = ['trialing', 'active', 'past_due', 'unpaid', 'paused'] as const;
export const isLiveStatus = (status: string | null | undefined): boolean => (LIVE_SUBSCRIPTION_STATUSES as readonly string[]).includes(status ?? '');

// ---- the event ledger ---------------------------------------------------------------------------

export interface StoredEvent {
  id: number;
  stripeEventId: string;
  eventType: string;
  eventData: Record<string, unknown>;
  processedAt: Date | null;
  attempts: number;
}

const EVENT_COLUMNS = `id, stripe_event_id AS "stripeEventId", event_type AS "eventType", event_data AS "eventData", processed_at AS "processedAt", attempts`;

/**
 * Stores a received event whole (the verified body's JSON) once: a second delivery of the same
 * Stripe event id inserts nothing. Answers whether this call inserted it and, either way, whether
 * it is processed yet.
 */
export async function storeEvent(db: Db, event: { id: string; type: string }): Promise<{ inserted: boolean; processedAt: Date | null }> {
  const inserted: { id: number }[] = await db.query(
    `INSERT INTO subscription_events (stripe_event_id, event_type, event_data) VALUES ($1, $2, $3)
     ON CONFLICT (stripe_event_id) DO NOTHING RETURNING id`,
    [event.id, event.type.slice(0, 100), event],
  );
  if (inserted.length) return { inserted: true, processedAt: null };
  const [existing]: { processedAt: Date | null }[] = await db.query(`SELECT processed_at AS "processedAt" FROM subscription_events WHERE stripe_event_id = $1`, [event.id]);
  return { inserted: false, processedAt: existing?.processedAt ?? null };
}

/** A stored event; `lock` holds its row until the transaction ends (one processing at a time). */
export async function storedEvent(db: Db, stripeEventId: string, lock = false): Promise<StoredEvent | null> {
  const rows: StoredEvent[] = await db.query(`SELECT ${EVENT_COLUMNS} FROM subscription_events WHERE stripe_event_id = $1${lock ? ' FOR UPDATE' : ''}`, [stripeEventId]);
  return rows[0] ?? null;
}

export async function markEventProcessed(db: Db, stripeEventId: string, links: { teamId: number | null; subscriptionId: number | null; note?: string | null }, now: Date): Promise<void> {
  await db.query(
    `UPDATE subscription_events SET processed_at = $2, team_id = $3, subscription_id = $4, attempts = attempts + 1, last_error = $5 WHERE stripe_event_id = $1`,
    [stripeEventId, now, links.teamId, links.subscriptionId, links.note ?? null],
  );
}

/** A failed attempt (outside the rolled-back transaction): counted, with its error. */
export async function recordEventFailure(db: Db, stripeEventId: string, error: string): Promise<void> {
  await db.query(`UPDATE subscription_events SET attempts = attempts + 1, last_error = $2 WHERE stripe_event_id = $1 AND processed_at IS NULL`, [stripeEventId, error.slice(0, 2000)]);
}

/** Events stored but not processed (received while the workers were down, or failed for good). */
export async function unprocessedEventIds(db: Db, olderThan: Date, limit = 500): Promise<string[]> {
  const rows: { id: string }[] = await db.query(
    `SELECT stripe_event_id AS id FROM subscription_events WHERE processed_at IS NULL AND created_at < $1 ORDER BY id LIMIT $2`,
    [olderThan, limit],
  );
  return rows.map((r) => r.id);
}

/** Serialises the processing of one Stripe object (a subscription, a product) until the transaction ends. */
export async function lockStripeObject(manager: EntityManager, stripeId: string): Promise<void> {
  await manager.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`billing:${stripeId}`]);
}

// ---- teams -------------------------------------------------------------------------------------

export interface BillingTeamRow {
  id: number;
  name: string;
  stripeCustomerId: string | null;
  stripeSubscriptionId: string | null;
  stripeProductId: string | null;
  stripePriceId: string | null;
  planName: string | null;
  subscriptionStatus: string | null;
  seatQuantity: number | null;
  currentPeriodEnd: Date | null;
  trialEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  pastDueSince: Date | null;
  billingUpdatedAt: Date | null;
}

const TEAM_COLUMNS = `t.id, t.name, t.stripe_customer_id AS "stripeCustomerId", t.stripe_subscription_id AS "stripeSubscriptionId",
  t.stripe_product_id AS "stripeProductId", t.stripe_price_id AS "stripePriceId", t.plan_name AS "planName",
  t.subscription_status AS "subscriptionStatus", t.seat_quantity AS "seatQuantity", t.current_period_end AS "currentPeriodEnd",
  t.trial_end AS "trialEnd", t.cancel_at_period_end AS "cancelAtPeriodEnd", t.past_due_since AS "pastDueSince", t.billing_updated_at AS "billingUpdatedAt"`;

export async function billingTeam(db: Db, teamId: number, lock = false): Promise<BillingTeamRow | null> {
  const rows: BillingTeamRow[] = await db.query(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.id = $1${lock ? ' FOR UPDATE' : ''}`, [teamId]);
  return rows[0] ?? null;
}

export async function teamByCustomer(db: Db, customerId: string): Promise<BillingTeamRow | null> {
  const rows: BillingTeamRow[] = await db.query(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.stripe_customer_id = $1`, [customerId]);
  return rows[0] ?? null;
}

export async function teamBySubscription(db: Db, subscriptionId: string): Promise<BillingTeamRow | null> {
  const rows: BillingTeamRow[] = await db.query(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.stripe_subscription_id = $1`, [subscriptionId]);
  return rows[0] ?? null;
}

/** The caller's role in the team; null when not a member. */
export async function memberRole(db: Db, teamId: number, userId: number): Promise<TeamRole | null> {
  const rows: { role: TeamRole }[] = await db.query(`SELECT role FROM team_members WHERE team_id = $1 AND user_id = $2`, [teamId, userId]);
  return rows[0]?.role ?? null;
}

export async function memberCount(db: Db, teamId: number): Promise<number> {
  const [row]: { n: number }[] = await db.query(`SELECT count(*)::int AS n FROM team_members WHERE team_id = $1`, [teamId]);
  return row.n;
}

/** The team's owners (live accounts), oldest membership first. */
export async function teamOwnerIds(db: Db, teamId: number): Promise<number[]> {
  const rows: { id: number }[] = await db.query(
    `SELECT m.user_id AS id FROM team_members m JOIN users u ON u.id = m.user_id
      WHERE m.team_id = $1 AND m.role = 'owner' AND u.deleted_at IS NULL ORDER BY m.joined_at, m.user_id`,
    [teamId],
  );
  return rows.map((r) => r.id);
}

export async function userEmail(db: Db, userId: number): Promise<string | null> {
  const rows: { email: string }[] = await db.query(`SELECT email FROM users WHERE id = $1 AND deleted_at IS NULL`, [userId]);
  return rows[0]?.email ?? null;
}

/** Stores the team's Stripe customer unless it has one; answers the one it has now. */
export async function setTeamCustomer(db: Db, teamId: number, customerId: string): Promise<string> {
  await db.query(`UPDATE teams SET stripe_customer_id = $2 WHERE id = $1 AND stripe_customer_id IS NULL`, [teamId, customerId]);
  const [row]: { id: string }[] = await db.query(`SELECT stripe_customer_id AS id FROM teams WHERE id = $1`, [teamId]);
  return row.id;
}

/** Teams whose subscription a resync re-fetches: those with a customer or a subscription (or one team). */
export async function teamsToResync(db: Db, teamId?: number): Promise<BillingTeamRow[]> {
  if (teamId !== undefined) {
    const team = await billingTeam(db, teamId);
    return team ? [team] : [];
  }
  return db.query(`SELECT ${TEAM_COLUMNS} FROM teams t WHERE t.stripe_subscription_id IS NOT NULL OR t.stripe_customer_id IS NOT NULL ORDER BY t.id`);
}

/** Whether the team ever had a subscription (a second checkout gets no new trial). */
export async function teamHadSubscription(db: Db, teamId: number): Promise<boolean> {
  const rows = await db.query(`SELECT 1 FROM subscriptions WHERE team_id = $1 LIMIT 1`, [teamId]);
  return rows.length > 0;
}

// ---- subscriptions -------------------------------------------------------------------------------

/** A subscription as Tickerbell keeps it (from Stripe's object, re-fetched). */
export interface SubscriptionSnapshot {
  stripeSubscriptionId: string;
  stripeCustomerId: string;
  status: string;
  stripePriceId: string | null;
  stripeProductId: string | null;
  /** The plan key of the product (`pro`, `team`), null when the product names none. */
  plan: string | null;
  quantity: number;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  trialStart: Date | null;
  trialEnd: Date | null;
  cancelAtPeriodEnd: boolean;
  canceledAt: Date | null;
  startedAt: Date | null;
  metadata: Record<string, string>;
}

/** Inserts or updates the subscription row (by Stripe id); answers its id. */
export async function upsertSubscription(db: Db, s: SubscriptionSnapshot, teamId: number | null, userId: number): Promise<number> {
  const [row]: { id: number }[] = await db.query(
    `INSERT INTO subscriptions (user_id, team_id, stripe_subscription_id, stripe_customer_id, stripe_price_id, plan_name, status, quantity,
                                current_period_start, current_period_end, cancel_at_period_end, trial_start, trial_end, canceled_at, metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
     ON CONFLICT (stripe_subscription_id) DO UPDATE SET
       team_id = COALESCE(EXCLUDED.team_id, subscriptions.team_id), stripe_customer_id = EXCLUDED.stripe_customer_id,
       stripe_price_id = EXCLUDED.stripe_price_id, plan_name = EXCLUDED.plan_name, status = EXCLUDED.status, quantity = EXCLUDED.quantity,
       current_period_start = EXCLUDED.current_period_start, current_period_end = EXCLUDED.current_period_end,
       cancel_at_period_end = EXCLUDED.cancel_at_period_end, trial_start = EXCLUDED.trial_start, trial_end = EXCLUDED.trial_end,
       canceled_at = EXCLUDED.canceled_at, metadata = EXCLUDED.metadata, updated_at = now()
     RETURNING id`,
    [
      userId,
      teamId,
      s.stripeSubscriptionId,
      s.stripeCustomerId,
      s.stripePriceId,
      s.plan,
      s.status.slice(0, 30),
      s.quantity,
      s.currentPeriodStart,
      s.currentPeriodEnd,
      s.cancelAtPeriodEnd,
      s.trialStart,
      s.trialEnd,
      s.canceledAt,
      s.metadata,
    ],
  );
  return row.id;
}

export async function subscriptionStatusOf(db: Db, stripeSubscriptionId: string): Promise<string | null> {
  const rows: { status: string }[] = await db.query(`SELECT status FROM subscriptions WHERE stripe_subscription_id = $1`, [stripeSubscriptionId]);
  return rows[0]?.status ?? null;
}

/**
 * Writes the subscription's state onto the team: plan, status, seats, dates; past_due_since is
 * kept while the subscription stays past due (the grace period counts from the first time) and
 * cleared otherwise.
 */
export async function writeTeamBilling(db: Db, teamId: number, s: SubscriptionSnapshot, now: Date): Promise<void> {
  await db.query(
    `UPDATE teams SET stripe_customer_id = COALESCE(stripe_customer_id, $2), stripe_subscription_id = $3, stripe_product_id = $4, stripe_price_id = $5,
            plan_name = $6, subscription_status = $7::varchar, seat_quantity = $8, current_period_end = $9, trial_end = $10, cancel_at_period_end = $11,
            past_due_since = CASE WHEN $7::varchar = 'past_due' THEN COALESCE(past_due_since, $12::timestamptz) ELSE NULL END,
            billing_updated_at = $12::timestamptz, updated_at = now()
      WHERE id = $1`,
    [teamId, s.stripeCustomerId, s.stripeSubscriptionId, s.stripeProductId, s.stripePriceId, s.plan, s.status.slice(0, 30), s.quantity, s.currentPeriodEnd, s.trialEnd, s.cancelAtPeriodEnd, now],
  );
}

/**
 * Every member's `users.subscription*` fields from the best of their teams: a live subscription
 * before a dead one, a higher plan before a lower one, the latest written first.
 */
export async function writeMembersSubscription(db: Db, teamId: number): Promise<number> {
  const rows: unknown[] = await db.query(
    `WITH best AS (
       SELECT DISTINCT ON (m.user_id) m.user_id, t.subscription_status AS status, t.plan_name AS plan, t.stripe_subscription_id AS sub_id,
              s.current_period_start AS start_date, t.current_period_end AS end_date, t.trial_end
         FROM team_members m
         JOIN teams t ON t.id = m.team_id
         LEFT JOIN subscriptions s ON s.stripe_subscription_id = t.stripe_subscription_id
        WHERE m.user_id IN (SELECT user_id FROM team_members WHERE team_id = $1)
        ORDER BY m.user_id,
                 (t.subscription_status = ANY($2::text[])) DESC NULLS LAST,
                 CASE lower(t.plan_name) WHEN 'team' THEN 2 WHEN 'pro' THEN 1 ELSE 0 END DESC,
                 t.billing_updated_at DESC NULLS LAST, t.id
     )
     UPDATE users u SET subscription_status = COALESCE(b.status, 'inactive'), subscription_plan = b.plan, subscription_id = b.sub_id,
            subscription_start_date = b.start_date, subscription_end_date = b.end_date, trial_end_date = b.trial_end
       FROM best b WHERE u.id = b.user_id
     RETURNING u.id`,
    [teamId, [...LIVE_SUBSCRIPTION_STATUSES]],
  );
  return (rows[0] as unknown[] | undefined)?.length ?? rows.length;
}

export async function logBillingActivity(db: Db, teamId: number, userId: number | null, details: Record<string, unknown>): Promise<void> {
  await db.query(`INSERT INTO activity_logs (team_id, user_id, action, details) VALUES ($1, $2, $3, $4)`, [teamId, userId, BILLING_ACTIVITY_ACTION, details]);
}

// ---- catalog ------------------------------------------------------------------------------------

export interface ProductInput {
  stripeProductId: string;
  name: string;
  description: string | null;
  active: boolean;
  metadata: Record<string, string>;
}

export async function upsertProduct(db: Db, p: ProductInput): Promise<number> {
  const [row]: { id: number }[] = await db.query(
    `INSERT INTO products (stripe_product_id, name, description, active, metadata) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (stripe_product_id) DO UPDATE SET name = EXCLUDED.name, description = EXCLUDED.description, active = EXCLUDED.active,
       metadata = EXCLUDED.metadata, updated_at = now()
     RETURNING id`,
    [p.stripeProductId, p.name.slice(0, 100), p.description, p.active, p.metadata],
  );
  return row.id;
}

export async function productByStripeId(db: Db, stripeProductId: string): Promise<{ id: number; metadata: Record<string, unknown> | null; active: boolean } | null> {
  const rows: { id: number; metadata: Record<string, unknown> | null; active: boolean }[] = await db.query(
    `SELECT id, metadata, active FROM products WHERE stripe_product_id = $1`,
    [stripeProductId],
  );
  return rows[0] ?? null;
}

export interface PriceInput {
  stripePriceId: string;
  productId: number;
  unitAmount: number | null;
  currency: string;
  interval: string | null;
  trialPeriodDays: number | null;
  active: boolean;
}

export async function upsertPrice(db: Db, p: PriceInput): Promise<number> {
  const [row]: { id: number }[] = await db.query(
    `INSERT INTO prices (stripe_price_id, product_id, unit_amount, currency, interval, trial_period_days, active) VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (stripe_price_id) DO UPDATE SET product_id = EXCLUDED.product_id, unit_amount = EXCLUDED.unit_amount, currency = EXCLUDED.currency,
       interval = EXCLUDED.interval, trial_period_days = EXCLUDED.trial_period_days, active = EXCLUDED.active, updated_at = now()
     RETURNING id`,
    [p.stripePriceId, p.productId, p.unitAmount === null ? null : String(p.unitAmount), p.currency.slice(0, 3), p.interval, p.trialPeriodDays, p.active],
  );
  return row.id;
}

/** Marks products (and their prices) that Stripe no longer lists as inactive. */
export async function deactivateProductsExcept(db: Db, keep: string[]): Promise<number> {
  const rows: unknown[] = await db.query(`UPDATE products SET active = false, updated_at = now() WHERE active AND NOT (stripe_product_id = ANY($1::text[])) RETURNING id`, [keep]);
  return (rows[0] as unknown[] | undefined)?.length ?? rows.length;
}

export async function deactivatePricesExcept(db: Db, keep: string[]): Promise<void> {
  await db.query(`UPDATE prices SET active = false, updated_at = now() WHERE active AND NOT (stripe_price_id = ANY($1::text[]))`, [keep]);
}

export async function setProductActive(db: Db, stripeProductId: string, active: boolean): Promise<void> {
  await db.query(`UPDATE products SET active = $2, updated_at = now() WHERE stripe_product_id = $1`, [stripeProductId, active]);
}

export async function setPriceActive(db: Db, stripePriceId: string, active: boolean): Promise<void> {
  await db.query(`UPDATE prices SET active = $2, updated_at = now() WHERE stripe_price_id = $1`, [stripePriceId, active]);
}

export interface SellablePriceRow {
  stripePriceId: string;
  unitAmount: string | null;
  currency: string;
  interval: string | null;
  trialPeriodDays: number | null;
  stripeProductId: string;
  productName: string;
  description: string | null;
  metadata: Record<string, unknown> | null;
}

/** Active recurring prices of active products, cheapest first. */
export function sellablePrices(db: Db): Promise<SellablePriceRow[]> {
  return db.query(
    `SELECT pr.stripe_price_id AS "stripePriceId", pr.unit_amount::text AS "unitAmount", pr.currency, pr.interval, pr.trial_period_days AS "trialPeriodDays",
            p.stripe_product_id AS "stripeProductId", p.name AS "productName", p.description, p.metadata
       FROM prices pr JOIN products p ON p.id = pr.product_id
      WHERE pr.active AND p.active AND pr.interval IS NOT NULL
      ORDER BY pr.unit_amount NULLS LAST, pr.id`,
  );
}

/** A price on sale (active, recurring, of an active product), with its product's metadata. */
export async function sellablePrice(db: Db, stripePriceId: string): Promise<SellablePriceRow | null> {
  const rows: SellablePriceRow[] = await db.query(
    `SELECT pr.stripe_price_id AS "stripePriceId", pr.unit_amount::text AS "unitAmount", pr.currency, pr.interval, pr.trial_period_days AS "trialPeriodDays",
            p.stripe_product_id AS "stripeProductId", p.name AS "productName", p.description, p.metadata
       FROM prices pr JOIN products p ON p.id = pr.product_id
      WHERE pr.stripe_price_id = $1 AND pr.active AND p.active AND pr.interval IS NOT NULL`,
    [stripePriceId],
  );
  return rows[0] ?? null;
}

/** What the user has of each counted thing (the settings screen's "limits in use"; seats are the team's). */
export async function usageOfUser(db: Db, userId: number): Promise<Record<string, number>> {
  const [row]: Record<string, number>[] = await db.query(
    `SELECT (SELECT count(*)::int FROM alerts WHERE user_id = $1 AND is_active) AS "activeAlerts",
            (SELECT count(*)::int FROM watchlists WHERE user_id = $1) AS "watchlists",
            (SELECT count(*)::int FROM user_watchlists WHERE user_id = $1) AS "whaleWatches",
            (SELECT count(*)::int FROM yield_alerts WHERE user_id = $1 AND is_active) AS "yieldAlerts",
            (SELECT count(*)::int FROM lockup_follows WHERE user_id = $1) AS "lockupFollows",
            (SELECT count(*)::int FROM insider_follows WHERE user_id = $1) AS "insiderFollows",
            (SELECT count(*)::int FROM chat_rooms WHERE created_by = $1) AS "chatRoomsCreated"`,
    [userId],
  );
  return row;
}
