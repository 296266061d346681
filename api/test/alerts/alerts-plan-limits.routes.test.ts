import { ALERTS_NOW, AlertsHarness, createAlert, patchAlert, type AlertsUser } from '../support/alerts-support';

const DAY_MS = 86_400_000;

/**
 * Active alerts and webhooks as the plan of the user's team allows them, with billing ON (both
 * Stripe keys set; nothing here calls Stripe: STRIPE_API_URL points at a closed port). The teams'
 * billing state (plan_name, subscription_status, past_due_since) is written in the database as the
 * billing webhooks' job would leave it, and so are the alerts that bring a user to a limit (one
 * created through the api, copied with SQL): 250 requests would only make the test slow.
 */
describe('alerts entitlements, billing on (real app, PostgreSQL)', () => {
  const harness = new AlertsHarness({
    STRIPE_SECRET_KEY: 'sk_test_entitlements',
    STRIPE_WEBHOOK_SECRET: 'whsec_entitlements',
    STRIPE_API_URL: 'http://127.0.0.1:9',
    BILLING_GRACE_DAYS: '7',
  });
  const now = new Date(ALERTS_NOW);
  const condition = { type: 'greater_than', value: '100' };
  let n = 0;

  const create = (user: AlertsUser, extra: Record<string, unknown> = {}) => createAlert(user, { name: `alert ${++n}`, symbol: 'AAPL', condition, ...extra });
  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> => harness.db.dataSource.query(sql, params);

  async function activeCount(userId: number): Promise<number> {
    const [row] = await q<{ n: number }>('SELECT count(*)::int AS n FROM alerts WHERE user_id = $1 AND is_active', [userId]);
    return row.n;
  }

  /** The user's own team (every account has one) as billing leaves it. */
  async function teamOf(userId: number): Promise<number> {
    const [row] = await q<{ team_id: number }>('SELECT team_id FROM team_members WHERE user_id = $1 ORDER BY team_id LIMIT 1', [userId]);
    return row.team_id;
  }
  async function setBilling(userId: number, planName: string | null, status: string | null, pastDueSince: Date | null = null): Promise<number> {
    const teamId = await teamOf(userId);
    await q('UPDATE teams SET plan_name = $2, subscription_status = $3, past_due_since = $4 WHERE id = $1', [teamId, planName, status, pastDueSince]);
    return teamId;
  }

  /** Built in the database: one alert created through the api, copied until the user has `total` active alerts. */
  async function fillActiveAlerts(user: AlertsUser, total: number): Promise<void> {
    const first = (await create(user).expect(201)).body.alert.id as number;
    const copies = total - (await activeCount(user.id));
    const [{ cols }] = await q<{ cols: string }>(
      `SELECT string_agg(quote_ident(column_name), ', ') AS cols FROM information_schema.columns
        WHERE table_schema = current_schema() AND table_name = 'alerts' AND column_name <> 'id'`,
    );
    await q(`INSERT INTO alerts (${cols}) SELECT ${cols} FROM alerts, generate_series(1, $2) WHERE id = $1`, [first, copies]);
    expect(await activeCount(user.id)).toBe(total);
  }

  beforeAll(async () => {
    await harness.start();
  }, 60000);

  afterAll(async () => {
    await harness.stop();
  });

  it('holds a free account to 25 active alerts with a 403 naming the limit, the plan and the upgrade path', async () => {
    const dana = await harness.user('dana-limits@example.com');
    await fillActiveAlerts(dana, 25);
    const refused = await create(dana).expect(403);
    expect(refused.body.error).toEqual({
      code: 'plan_limit',
      message: 'Your Free plan allows 25 active alerts (you have 25): remove one, or upgrade on the pricing page',
      details: { plan: 'free', limit: 'activeAlerts', max: 25, used: 25, upgradeUrl: '/pricing' },
      requestId: expect.any(String),
    });
    expect(await activeCount(dana.id)).toBe(25);

    // An inactive alert is free to keep; re-activating it counts; an edit that keeps it inactive does not.
    const parked = (await create(dana, { isActive: false }).expect(201)).body.alert.id as number;
    expect((await patchAlert(dana, parked, { isActive: true }).expect(403)).body.error.details).toMatchObject({ limit: 'activeAlerts', used: 25 });
    await patchAlert(dana, parked, { name: 'still parked' }).expect(200);
    const [{ id: some }] = await q<{ id: number }>('SELECT min(id) AS id FROM alerts WHERE user_id = $1 AND is_active', [dana.id]);
    await patchAlert(dana, some, { isActive: false }).expect(200);
    await patchAlert(dana, parked, { isActive: true, name: 'active again' }).expect(200);
    expect(await activeCount(dana.id)).toBe(25);

    // Alerts past their expiry do not count (the sweep deactivates them).
    await q('UPDATE alerts SET expires_at = $2 WHERE id = (SELECT min(id) FROM alerts WHERE user_id = $1 AND is_active)', [dana.id, new Date(now.getTime() - 3_600_000)]);
    await create(dana).expect(201);
  });

  it("gives a pro team's members 250 (active or trialing), keeps it during past_due's grace, and is free again when canceled", async () => {
    const erin = await harness.user('erin-limits@example.com');
    await fillActiveAlerts(erin, 26);
    expect((await create(erin).expect(403)).body.error.details).toMatchObject({ plan: 'free', max: 25, used: 26 });

    const teamId = await setBilling(erin.id, 'pro', 'trialing');
    await create(erin).expect(201);
    await setBilling(erin.id, 'pro', 'active');
    await fillActiveAlerts(erin, 250);
    const refused = await create(erin).expect(403);
    expect(refused.body.error).toMatchObject({
      code: 'plan_limit',
      message: 'Your Pro plan allows 250 active alerts (you have 250): remove one, or upgrade in Settings → Billing',
      details: { plan: 'pro', limit: 'activeAlerts', max: 250, used: 250, upgradeUrl: `/dashboard/settings/billing?team=${teamId}` },
    });

    // Past due for 3 days of the 7 of grace: still Pro.
    await setBilling(erin.id, 'pro', 'past_due', new Date(now.getTime() - 3 * DAY_MS));
    await q('UPDATE alerts SET is_active = false WHERE id = (SELECT min(id) FROM alerts WHERE user_id = $1 AND is_active)', [erin.id]);
    await create(erin).expect(201);

    // Canceled: back to free (the alerts are kept, no new active one past 25); an inactive one is still allowed.
    await setBilling(erin.id, 'pro', 'canceled');
    expect((await create(erin).expect(403)).body.error.details).toMatchObject({ plan: 'free', max: 25, used: 250 });
    await create(erin, { isActive: false }).expect(201);
    expect(await activeCount(erin.id)).toBe(250);
  });

  it('turns read-only (402) once past_due outlasts BILLING_GRACE_DAYS, and when unpaid: reads work, creating does not', async () => {
    const frank = await harness.user('frank-limits@example.com');
    const kept = (await create(frank).expect(201)).body.alert.id as number;
    const parked = (await create(frank, { isActive: false }).expect(201)).body.alert.id as number;

    const teamId = await setBilling(frank.id, 'pro', 'past_due', new Date(now.getTime() - 8 * DAY_MS));
    const late = await create(frank).expect(402);
    expect(late.body.error).toEqual({
      code: 'read_only',
      message: 'Your Pro subscription is past due and its grace period has ended: the account is read-only until the payment goes through (Settings → Billing)',
      details: { plan: 'pro', upgradeUrl: `/dashboard/settings/billing?team=${teamId}` },
      requestId: expect.any(String),
    });
    // Creating an inactive alert and re-activating one are writes that create tracked items too.
    await create(frank, { isActive: false }).expect(402);
    await patchAlert(frank, parked, { isActive: true }).expect(402);
    // Reads, edits and deletions still work.
    await frank.agent.get('/api/alerts').expect(200);
    await patchAlert(frank, kept, { name: 'renamed while read-only' }).expect(200);
    await frank.agent.delete(`/api/alerts/${parked}`).set('x-csrf-token', frank.csrf).expect(204);

    await setBilling(frank.id, 'pro', 'unpaid');
    expect((await create(frank).expect(402)).body.error).toMatchObject({
      code: 'read_only',
      message: 'Your Pro subscription is unpaid: the account is read-only until it is paid or resumed (Settings → Billing)',
    });

    await setBilling(frank.id, 'pro', 'active');
    await create(frank).expect(201);
  });

  it('keeps webhooks for plans that have them: free answers 403 feature_off, pro accepts', async () => {
    const gina = await harness.user('gina-limits@example.com');
    const webhook = { webhookUrl: 'https://hooks.example.com/tickerbell' };
    const refused = await create(gina, webhook).expect(403);
    expect(refused.body.error).toMatchObject({
      code: 'feature_off',
      message: 'The Free plan does not include alert webhooks: upgrade on the pricing page',
      details: { plan: 'free', feature: 'webhooks', upgradeUrl: '/pricing' },
    });
    const plain = (await create(gina).expect(201)).body.alert.id as number;
    await patchAlert(gina, plain, webhook).expect(403);

    await setBilling(gina.id, 'pro', 'active');
    const hooked = (await create(gina, webhook).expect(201)).body.alert.id as number;
    // Back on free, an alert keeps the webhook it has while it is edited; a new URL is refused.
    await setBilling(gina.id, 'pro', 'canceled');
    await patchAlert(gina, hooked, { name: 'still hooked' }).expect(200);
    await patchAlert(gina, hooked, { webhookUrl: 'https://hooks.example.com/other' }).expect(403);
  });

  it('lets exactly one of two concurrent creates through at limit - 1', async () => {
    for (let round = 0; round < 3; round++) {
      const user = await harness.user(`race-${round}@example.com`);
      await fillActiveAlerts(user, 24);
      const results = await Promise.all([create(user), create(user)]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 403]);
      expect(await activeCount(user.id)).toBe(25);
    }
  });

  it('lets exactly one of four concurrent re-activations through at limit - 1', async () => {
    const hugo = await harness.user('hugo-limits@example.com');
    await fillActiveAlerts(hugo, 24);
    const parked: number[] = [];
    for (let i = 0; i < 4; i++) parked.push((await create(hugo, { isActive: false }).expect(201)).body.alert.id);
    const results = await Promise.all(parked.map((id) => patchAlert(hugo, id, { isActive: true })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 403, 403, 403]);
    expect(await activeCount(hugo.id)).toBe(25);
  });
});
