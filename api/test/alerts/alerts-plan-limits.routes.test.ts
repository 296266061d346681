import { ConfigError } from '@tickerbell/jobs';
import { parseAlertPlanLimits } from '@tickerbell/jobs/alerts';
import { loadApiConfig } from '../../src/config';
import { AlertsHarness, createAlert, patchAlert, type AlertsUser } from '../support/alerts-support';

describe('alerts plan limits (real app, PostgreSQL)', () => {
  // Small limits so the tests reach them: free 3 active alerts, pro 5.
  const harness = new AlertsHarness({ ALERTS_PLAN_LIMITS: 'free=3,pro=5,team=8' });
  const condition = { type: 'greater_than', value: '100' };
  let n = 0;

  const create = (user: AlertsUser, extra: Record<string, unknown> = {}) =>
    createAlert(user, { name: `alert ${++n}`, symbol: 'AAPL', condition, ...extra });

  async function activeCount(userId: number): Promise<number> {
    const [row]: { n: string }[] = await harness.db.dataSource.query('SELECT count(*) AS n FROM alerts WHERE user_id = $1 AND is_active', [userId]);
    return Number(row.n);
  }

  async function subscribe(userId: number, planName: string, status: string): Promise<void> {
    await harness.db.dataSource.query(
      `INSERT INTO subscriptions (user_id, stripe_subscription_id, stripe_customer_id, plan_name, status) VALUES ($1, $2, $3, $4, $5)`,
      [userId, `sub_${userId}_${planName}_${status}`, `cus_${userId}`, planName, status],
    );
  }

  beforeAll(async () => {
    await harness.start();
  }, 60000);

  afterAll(async () => {
    await harness.stop();
  });

  it('refuses an active alert beyond the free limit with a 403 that says why, and accepts an inactive one', async () => {
    const dana = await harness.user('dana-limits@example.com');
    for (let i = 0; i < 3; i++) await create(dana).expect(201);
    const refused = await create(dana).expect(403);
    expect(refused.body.error).toEqual({
      code: 'plan_limit',
      message: 'Your free plan allows 3 active alerts: deactivate or delete one, or upgrade your plan',
      details: { plan: 'free', limit: 3, active: 3 },
      requestId: expect.any(String),
    });
    expect(await activeCount(dana.id)).toBe(3);
    const parked = await create(dana, { isActive: false }).expect(201);
    expect(parked.body.alert.isActive).toBe(false);

    // Re-activating counts too; an edit of an inactive alert that keeps it inactive does not.
    const reactivate = await patchAlert(dana, parked.body.alert.id, { isActive: true }).expect(403);
    expect(reactivate.body.error.details).toEqual({ plan: 'free', limit: 3, active: 3 });
    await patchAlert(dana, parked.body.alert.id, { name: 'still parked' }).expect(200);

    const list = await dana.agent.get('/api/alerts?active=true').expect(200);
    await patchAlert(dana, list.body.alerts[0].id, { isActive: false }).expect(200);
    await patchAlert(dana, parked.body.alert.id, { isActive: true }).expect(200);
    // An active alert edited while at the limit stays editable.
    await patchAlert(dana, parked.body.alert.id, { isActive: true, name: 'active again' }).expect(200);
    expect(await activeCount(dana.id)).toBe(3);
  });

  it('does not count active alerts past their expiry (the sweep deactivates them)', async () => {
    const erin = await harness.user('erin-limits@example.com');
    for (let i = 0; i < 3; i++) await create(erin).expect(201);
    await create(erin).expect(403);
    await harness.db.dataSource.query(
      `UPDATE alerts SET expires_at = $2 WHERE id = (SELECT min(id) FROM alerts WHERE user_id = $1)`,
      [erin.id, '2026-11-21T11:00:00Z'],
    );
    await create(erin).expect(201);
  });

  it("uses the plan of the user's active or trialing subscription, free otherwise", async () => {
    const frank = await harness.user('frank-limits@example.com');
    await subscribe(frank.id, 'Pro', 'canceled');
    await subscribe(frank.id, 'Enterprise', 'active'); // not a plan the limits know
    for (let i = 0; i < 3; i++) await create(frank).expect(201);
    expect((await create(frank).expect(403)).body.error.details.plan).toBe('free');

    await subscribe(frank.id, 'Pro', 'trialing');
    await create(frank).expect(201);
    await create(frank).expect(201);
    const refused = await create(frank).expect(403);
    expect(refused.body.error).toMatchObject({
      message: 'Your pro plan allows 5 active alerts: deactivate or delete one, or upgrade your plan',
      details: { plan: 'pro', limit: 5, active: 5 },
    });

    // The most generous live plan wins.
    await subscribe(frank.id, 'TEAM', 'active');
    await create(frank).expect(201);
  });

  it('lets exactly one of two concurrent creates through at limit - 1', async () => {
    for (let round = 0; round < 5; round++) {
      const user = await harness.user(`race-${round}@example.com`);
      await create(user).expect(201);
      await create(user).expect(201);
      const results = await Promise.all([create(user), create(user)]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 403]);
      expect(await activeCount(user.id)).toBe(3);
    }
  });

  it('lets exactly one of four concurrent re-activations through at limit - 1', async () => {
    const gina = await harness.user('gina-limits@example.com');
    await create(gina).expect(201);
    await create(gina).expect(201);
    const parked: number[] = [];
    for (let i = 0; i < 4; i++) parked.push((await create(gina, { isActive: false }).expect(201)).body.alert.id);
    const results = await Promise.all(parked.map((id) => patchAlert(gina, id, { isActive: true })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 403, 403, 403]);
    expect(await activeCount(gina.id)).toBe(3);
  });
});

describe('ALERTS_PLAN_LIMITS', () => {
  const base = { DATABASE_URL: 'postgres://u@localhost/db', REDIS_URL: 'redis://localhost:6379' };

  it('defaults to free 25, pro 250, team 1000', () => {
    expect([...loadApiConfig(base).ALERTS_PLAN_LIMITS]).toEqual([
      ['free', 25],
      ['pro', 250],
      ['team', 1000],
    ]);
  });

  it('lower-cases plan names and allows spaces around the pairs', () => {
    expect([...parseAlertPlanLimits(' Free=2 , PRO = 10,')]).toEqual([
      ['free', 2],
      ['pro', 10],
    ]);
  });

  it.each([
    ['free=25,pro', /"pro" is not plan=limit/],
    ['free=-1', /"free=-1" is not plan=limit/],
    ['free=25,free=30', /plan "free" is listed twice/],
    ['pro=250', /the "free" plan needs a limit/],
  ])('refuses %s naming the variable', (value, message) => {
    try {
      loadApiConfig({ ...base, ALERTS_PLAN_LIMITS: value });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const issues = (error as ConfigError).issues;
      expect(issues.map((i) => i.variable)).toEqual(['ALERTS_PLAN_LIMITS']);
      expect(issues[0].message).toMatch(message);
    }
  });
});
