import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { billingEnvSchema, createEntitlements, EntitlementError, entitlementsFromConfig, teamStateOf } from '../../src/billing';

// The entitlements: the status table (pure), a user's best plan over their teams, the limit,
// feature, read-only and seat checks. Teams' billing states are built in the database (what the
// webhook processing writes there): no Stripe here.

const NOW = new Date('2026-11-20T12:00:00Z');
const DAY = 86_400_000;

describe('teamStateOf: the status table', () => {
  const state = (planName: string | null, status: string | null, pastDueSince: Date | null = null) => teamStateOf({ planName, status, pastDueSince }, NOW, 7);

  it('gives the plan to trialing and active, the free plan to ended or unstarted subscriptions', () => {
    expect(state('pro', 'active')).toEqual({ plan: 'pro', status: 'active', mode: 'full', graceEndsAt: null });
    expect(state('team', 'trialing')).toMatchObject({ plan: 'team', mode: 'full' });
    for (const status of ['canceled', 'incomplete', 'incomplete_expired', null]) expect(state('pro', status)).toMatchObject({ plan: 'free', mode: 'full' });
    // A status Stripe may add later, or a product without a plan: free, never a guess.
    expect(state('pro', 'something_new')).toMatchObject({ plan: 'free', status: null });
    expect(state(null, 'active')).toMatchObject({ plan: 'free', status: 'active' });
  });

  it('keeps past_due working for the grace period, then read-only; unpaid and paused are read-only', () => {
    expect(state('pro', 'past_due', new Date(NOW.getTime() - 6 * DAY))).toMatchObject({ plan: 'pro', mode: 'grace', graceEndsAt: new Date(NOW.getTime() + DAY) });
    expect(state('pro', 'past_due', new Date(NOW.getTime() - 7 * DAY))).toMatchObject({ plan: 'pro', mode: 'read_only' });
    expect(state('pro', 'past_due', null)).toMatchObject({ mode: 'grace' });
    expect(state('team', 'unpaid')).toMatchObject({ plan: 'team', mode: 'read_only' });
    expect(state('team', 'paused')).toMatchObject({ plan: 'team', mode: 'read_only' });
  });
});

describe('billing variables', () => {
  it('refuses one Stripe key without the other and names the missing one', () => {
    const result = billingEnvSchema.safeParse({ STRIPE_SECRET_KEY: 'sk_test_x' });
    expect(result.success).toBe(false);
    expect(result.error!.issues.map((i) => i.path.join('.'))).toEqual(['STRIPE_WEBHOOK_SECRET']);
    expect(billingEnvSchema.safeParse({ STRIPE_WEBHOOK_SECRET: 'whsec_x' }).error!.issues[0].path).toEqual(['STRIPE_SECRET_KEY']);
  });

  it('reads the self-hosted limits and refuses a limit it does not know', () => {
    const config = billingEnvSchema.parse({ BILLING_SELF_HOSTED_LIMITS: 'activeAlerts=3, seats=unlimited' });
    expect(config.BILLING_SELF_HOSTED_LIMITS).toEqual({ activeAlerts: 3, seats: null });
    const bad = billingEnvSchema.safeParse({ BILLING_SELF_HOSTED_LIMITS: 'alerts=3' });
    expect(bad.error!.issues[0].message).toMatch(/"alerts" is not a limit/);
  });
});

describe('entitlements on a database', () => {
  let db: TestDatabase;
  let userIds: number[];
  const on = createEntitlements({ billingEnabled: true, graceDays: 7 });

  async function team(name: string, planName: string | null, status: string | null, members: number[], pastDueSince: Date | null = null): Promise<number> {
    const [{ id }] = await db.dataSource.query(
      `INSERT INTO teams (name, plan_name, subscription_status, past_due_since) VALUES ($1, $2, $3, $4) RETURNING id`,
      [name, planName, status, pastDueSince],
    );
    for (const userId of members) await db.dataSource.query(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, 'member')`, [id, userId]);
    return id;
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    userIds = [];
    for (let i = 0; i < 5; i++) {
      const [{ id }] = await db.dataSource.query(`INSERT INTO users (email, name) VALUES ($1, $2) RETURNING id`, [`ent${i}@example.test`, `User ${i}`]);
      userIds.push(id);
    }
  });
  afterAll(() => db.drop());

  it('is the self-hosted plan with the configured limits when billing is off', async () => {
    const off = entitlementsFromConfig(billingEnvSchema.parse({ BILLING_SELF_HOSTED_LIMITS: 'watchlists=2' }));
    const e = await off.ofUser(db.dataSource, userIds[0], NOW);
    expect(e).toMatchObject({ billing: 'off', plan: 'self-hosted', mode: 'full', features: { webhooks: true, telegram: true } });
    expect(e.limits.watchlists).toBe(2);
    expect(e.limits.activeAlerts).toBeNull();
    await db.dataSource.transaction((m) => off.checkLimit(m, userIds[0], 'watchlists', 1, NOW));
    const refusal = await db.dataSource.transaction((m) => off.checkLimit(m, userIds[0], 'watchlists', 2, NOW)).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(EntitlementError);
    expect((refusal as EntitlementError).status).toBe(403);
    expect((refusal as EntitlementError).body()).toMatchObject({ error: 'plan_limit', limit: 'watchlists', plan: 'self-hosted', max: 2, used: 2, upgradeUrl: '/contact' });
  });

  it("gives a user the best plan of their teams, a read-only team only when nothing better is left", async () => {
    const [a, b, c] = userIds;
    const pro = await team('Pro desk', 'pro', 'active', [a, b]);
    await team('Team desk', 'team', 'unpaid', [a, c]);
    await team('Free club', null, null, [a]);
    expect(await on.ofUser(db.dataSource, a, NOW)).toMatchObject({ plan: 'pro', teamId: pro, mode: 'full' });
    expect(await on.ofUser(db.dataSource, c, NOW)).toMatchObject({ plan: 'team', mode: 'read_only', status: 'unpaid' });
    expect(await on.ofUser(db.dataSource, userIds[4], NOW)).toMatchObject({ plan: 'free', teamId: null, mode: 'full', features: { webhooks: false } });
  });

  it('refuses writes with 402 when read-only, features the plan lacks with 403, and names the way out', async () => {
    const c = userIds[2];
    const readOnly = await on.checkWritable(db.dataSource, c, NOW).catch((err: unknown) => err as EntitlementError);
    expect(readOnly).toBeInstanceOf(EntitlementError);
    expect(readOnly!.status).toBe(402);
    expect(readOnly!.body()).toMatchObject({ error: 'read_only', plan: 'team' });
    expect(readOnly!.message).toMatch(/unpaid.*read-only/);
    const feature = await on.checkFeature(db.dataSource, userIds[4], 'webhooks', NOW).catch((err: unknown) => err as EntitlementError);
    expect(feature!.body()).toMatchObject({ error: 'feature_off', feature: 'webhooks', plan: 'free', upgradeUrl: '/pricing' });
    await expect(on.checkFeature(db.dataSource, userIds[0], 'webhooks', NOW)).resolves.toBeUndefined();
  });

  it('counts seats against the plan of the team', async () => {
    const members = userIds.slice(0, 3);
    const free = await team('Three friends', null, null, members);
    const full = await db.dataSource.transaction((m) => on.checkSeat(m, free, NOW)).catch((err: unknown) => err as EntitlementError);
    expect(full!.body()).toMatchObject({ error: 'plan_limit', limit: 'seats', plan: 'free', max: 3, used: 3 });
    const pro = await team('Pro three', 'pro', 'trialing', members);
    await expect(db.dataSource.transaction((m) => on.checkSeat(m, pro, NOW, 2))).resolves.toBeUndefined();
  });
});
