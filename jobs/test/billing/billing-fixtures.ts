import Redis from 'ioredis';
import pino from 'pino';
import type Stripe from 'stripe';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { createUser } from '../../src/accounts/accounts.store';
import { fixedClock } from '../../src/runtime/clock';
import { JobQueues } from '../../src/runtime/job-queues';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';
import { startFakeStripe, type FakeStripe, type FakeSubscription, type StripeObject } from '../../src/testing/fake-stripe';
import { createStripeClient } from '../../src/billing/stripe.client';
import { createEntitlements } from '../../src/billing/entitlements';
import { receiveWebhook } from '../../src/billing/billing-webhook';
import { processStripeEvent, type ProcessDeps } from '../../src/billing/billing-webhook';
import { billingEnvSchema } from '../../src/billing/billing.config';

/**
 * One billing world per test file: a real PostgreSQL database, Redis under a prefix of its own, a
 * fake Stripe server and the official client pointed at it, a fixed clock. Teams and users are made
 * through the accounts store (a user comes with the personal team they own).
 */
export interface BillingWorld {
  db: TestDatabase;
  redis: Redis;
  queues: JobQueues;
  prefix: string;
  fake: FakeStripe;
  stripe: Stripe;
  clock: ReturnType<typeof fixedClock>;
  config: ReturnType<typeof billingEnvSchema.parse>;
  processDeps: ProcessDeps;
  q<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

export const NOW = '2026-03-02T12:00:00Z';

export async function startBillingWorld(): Promise<BillingWorld> {
  const db = await createTestDatabase();
  const prefix = testQueuePrefix();
  const redis = new Redis(testRedisUrl(), { maxRetriesPerRequest: 1 });
  const queues = new JobQueues(redis, prefix);
  const clock = fixedClock(NOW);
  const fake = await startFakeStripe({ now: () => clock.now() });
  const config = billingEnvSchema.parse({ STRIPE_SECRET_KEY: 'sk_test_tickerbell', STRIPE_WEBHOOK_SECRET: fake.webhookSecret, STRIPE_API_URL: fake.url });
  const stripe = createStripeClient(config) as Stripe;
  const logger = pino({ level: 'silent' });
  const processDeps: ProcessDeps = { dataSource: db.dataSource, stripe, queues, redis, clock, logger, graceDays: config.BILLING_GRACE_DAYS };
  return {
    db,
    redis,
    queues,
    prefix,
    fake,
    stripe,
    clock,
    config,
    processDeps,
    q: (sql, params = []) => db.dataSource.query(sql, params),
    async close() {
      await fake.close();
      await queues.close();
      redis.disconnect();
      await deleteKeysWithPrefix(testRedisUrl(), prefix);
      await db.drop();
    },
  };
}

export const entitlements = createEntitlements({ billingEnabled: true, graceDays: 7 });

let users = 0;
/** A user with their personal team; `members` more users join it as members. */
export async function newTeam(world: BillingWorld, members = 0): Promise<{ teamId: number; ownerId: number; memberIds: number[] }> {
  const make = async () => {
    users++;
    const user = await createUser(world.db.dataSource, { email: `billing-${users}-${Date.now()}@example.com`, name: `User ${users}`, passwordHash: null, isVerified: true }, null);
    return user.id;
  };
  const ownerId = await make();
  const [{ teamId }] = await world.q<{ teamId: number }>(`SELECT team_id AS "teamId" FROM team_members WHERE user_id = $1`, [ownerId]);
  const memberIds: number[] = [];
  for (let i = 0; i < members; i++) {
    const id = await make();
    await world.q(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, 'member')`, [teamId, id]);
    memberIds.push(id);
  }
  return { teamId, ownerId, memberIds };
}

/** A plan on sale: a product naming the plan and a monthly price. */
export function addPlan(world: BillingWorld, plan: 'pro' | 'team', unitAmount = plan === 'pro' ? 1500 : 4900, trialPeriodDays: number | null = null) {
  const product = world.fake.addProduct({ name: plan === 'pro' ? 'Tickerbell Pro' : 'Tickerbell Team', plan });
  const price = world.fake.addPrice({ product: product.id, unitAmount, trialPeriodDays });
  return { product, price };
}

/** A subscription of the team in the fake (as if its checkout completed), its customer stored on the team. */
export async function subscribeInStripe(world: BillingWorld, teamId: number, priceId: string, options: { quantity?: number; trialDays?: number } = {}): Promise<FakeSubscription> {
  const [{ customer }] = await world.q<{ customer: string | null }>(`SELECT stripe_customer_id AS customer FROM teams WHERE id = $1`, [teamId]);
  const customerId = customer ?? world.fake.addCustomer({ metadata: { teamId: String(teamId) } }).id;
  if (!customer) await world.q(`UPDATE teams SET stripe_customer_id = $2 WHERE id = $1`, [teamId, customerId]);
  return world.fake.createSubscription({ customer: customerId, price: priceId, quantity: options.quantity ?? 1, metadata: { teamId: String(teamId) }, trialDays: options.trialDays ?? 0 });
}

/** Signs and receives an event as the api would (the event is built around `object`). */
export async function receive(world: BillingWorld, type: string, object: StripeObject, extra?: { created?: number; previousAttributes?: StripeObject }) {
  const event = world.fake.buildEvent(type, object, extra);
  const { body, header } = world.fake.sign(event);
  const received = await receiveWebhook({ dataSource: world.db.dataSource, stripe: world.stripe, queues: world.queues, config: world.config }, body, header);
  return { event, received };
}

/** Receives and processes an event (the job run inline). */
export async function deliverAndProcess(world: BillingWorld, type: string, object: StripeObject, extra?: { created?: number; previousAttributes?: StripeObject }) {
  const { event } = await receive(world, type, object, extra);
  return processStripeEvent(world.processDeps, event.id);
}

export async function teamRow(world: BillingWorld, teamId: number) {
  const [row] = await world.q<{
    status: string | null;
    plan: string | null;
    subscription: string | null;
    seats: number | null;
    pastDueSince: Date | null;
    cancelAtPeriodEnd: boolean;
    trialEnd: Date | null;
    currentPeriodEnd: Date | null;
  }>(
    `SELECT subscription_status AS status, plan_name AS plan, stripe_subscription_id AS subscription, seat_quantity AS seats, past_due_since AS "pastDueSince",
            cancel_at_period_end AS "cancelAtPeriodEnd", trial_end AS "trialEnd", current_period_end AS "currentPeriodEnd"
       FROM teams WHERE id = $1`,
    [teamId],
  );
  return row;
}
