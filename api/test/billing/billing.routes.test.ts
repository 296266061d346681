import http from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import request from 'supertest';
import { z } from 'zod';
import { createWorkerConnection, loadProcessConfig } from '@tickerbell/jobs';
import { createStripeClient, syncCatalog } from '@tickerbell/jobs/billing';
import { startFakeStripe, type FakeStripe } from '@tickerbell/jobs/testing/fake-stripe';
import { testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { JobQueues } from '@tickerbell/jobs';
import { startWorkers, type WorkersRuntime } from '../../../workers/src/runtime';
import { AlertsHarness, type AlertsUser } from '../support/alerts-support';

/**
 * The billing routes through the real app, PostgreSQL, Redis and the billing workers, with Stripe
 * played by the fake Stripe server (its objects built from Stripe's fixtures, its webhooks signed
 * with the library's test header helper): checkout for owners and admins only, the portal, the
 * webhook's signature check on the raw body, duplicates stored and processed once, and the team's
 * plan once the events are processed. Billing off (no keys) is its own block below.
 */
const logger = pino({ level: 'silent' });
const SECRET_KEY = 'sk_test_tickerbellBillingRoutes';

const post = (user: AlertsUser, path: string, body: unknown) => user.agent.post(path).set('x-csrf-token', user.csrf).send(body as object);
const team = async (owner: AlertsUser, name: string): Promise<number> => (await post(owner, '/api/teams', { name }).expect(201)).body.id as number;

describe('billing routes with billing on (fake Stripe, real app, PostgreSQL, Redis, billing workers)', () => {
  const env: Record<string, string> = {};
  const harness = new AlertsHarness(env);
  let fake: FakeStripe;
  let server: http.Server;
  let workers: WorkersRuntime;
  const workerConnection = createWorkerConnection(testRedisUrl());
  const workerQueuesConnection = createWorkerConnection(testRedisUrl());
  let workerQueues: JobQueues;
  let owner: AlertsUser;
  let admin: AlertsUser;
  let member: AlertsUser;
  let stranger: AlertsUser;
  let teamId: number;
  let proMonthly: string;

  const events = async (): Promise<{ stripe_event_id: string; processed_at: Date | null; attempts: number }[]> =>
    harness.db.dataSource.query('SELECT stripe_event_id, processed_at, attempts FROM subscription_events ORDER BY id');
  const idle = () => waitForQueuesIdle([harness.queues.queue('billing'), harness.queues.queue('notifications')], 20_000);

  beforeAll(async () => {
    fake = await startFakeStripe();
    Object.assign(env, { STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_WEBHOOK_SECRET: fake.webhookSecret, STRIPE_API_URL: fake.url, BILLING_GRACE_DAYS: '7' });
    await harness.start();
    server = http.createServer(harness.api).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    fake.setWebhookUrl(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/billing/webhook`);

    const pro = fake.addProduct({ name: 'Tickerbell Pro', plan: 'pro', description: 'More alerts, webhooks and Telegram' });
    proMonthly = fake.addPrice({ product: pro.id, unitAmount: 1200, interval: 'month', trialPeriodDays: 14 }).id;
    fake.addPrice({ product: pro.id, unitAmount: 12000, interval: 'year', trialPeriodDays: 14 });
    const other = fake.addProduct({ name: 'Not a plan' });
    fake.addPrice({ product: other.id, unitAmount: 500, interval: 'month' });
    await syncCatalog({ dataSource: harness.db.dataSource, stripe: createStripeClient(env)! });

    // The billing workers, as a worker process runs them (with the same billing variables).
    workerQueues = new JobQueues(workerQueuesConnection, harness.prefix);
    workers = await startWorkers({
      dataSource: harness.db.dataSource,
      connection: workerConnection,
      queues: workerQueues,
      logger,
      domains: loadProcessConfig(z.object({}), env, 'billing test workers').domains,
      queueNames: ['billing', 'notifications'],
      schedules: [],
    });

    owner = await harness.user('owner@example.com');
    admin = await harness.user('admin@example.com');
    member = await harness.user('member@example.com');
    stranger = await harness.user('stranger@example.com');
    teamId = await team(owner, 'Morning desk');
    // Members as an accepted invitation leaves them (the invitation flow is the accounts tests').
    await harness.db.dataSource.query(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, 'admin'), ($1, $3, 'member')`, [teamId, admin.id, member.id]);
  });

  afterAll(async () => {
    await workers?.close();
    await workerQueues?.close();
    workerQueuesConnection.disconnect();
    workerConnection.disconnect();
    await new Promise((resolve) => server.close(resolve));
    await harness.stop();
    await fake?.close();
  });

  it('lists the plans on sale from the synced catalog; anyone may read it', async () => {
    const res = await request(harness.api).get('/api/billing/pricing').expect(200);
    expect(res.body.billing).toBe('on');
    expect(res.body.defaultPlan).toMatchObject({ key: 'free', limits: { activeAlerts: 25 } });
    expect(res.body.plans).toHaveLength(1);
    expect(res.body.plans[0]).toMatchObject({ key: 'pro', productName: 'Tickerbell Pro', limits: { activeAlerts: 250 } });
    expect(res.body.plans[0].prices).toEqual(
      expect.arrayContaining([
        { id: proMonthly, unitAmount: '1200', currency: 'usd', interval: 'month', trialPeriodDays: 14 },
        expect.objectContaining({ unitAmount: '12000', interval: 'year' }),
      ]),
    );
  });

  it('refuses bad checkout input with a 400 naming the field, and no Stripe call', async () => {
    const before = fake.state.requests.length;
    const cases: [unknown, string][] = [
      [{ teamId }, 'priceId'],
      [{ teamId, priceId: '' }, 'priceId'],
      [{ teamId, priceId: 'price with spaces' }, 'priceId'],
      [{ teamId: 'abc', priceId: proMonthly }, 'teamId'],
      [{ teamId: 2147483648, priceId: proMonthly }, 'teamId'],
      [{ teamId, priceId: proMonthly, extra: 1 }, ''],
    ];
    for (const [body, field] of cases) {
      const res = await post(owner, '/api/billing/checkout', body);
      expect([res.status, res.body.error.code]).toEqual([400, 'validation_failed']);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    // A price that is not on sale: 400 naming priceId.
    const unknown = await post(owner, '/api/billing/checkout', { teamId, priceId: 'price_NotOnSale' });
    expect([unknown.status, unknown.body.error.code, unknown.body.error.message]).toEqual([400, 'validation_failed', 'Invalid input: priceId']);
    expect(fake.state.requests.filter((r) => r.path.startsWith('/v1/checkout')).length).toBe(0);
    expect(fake.state.requests.length - before).toBeLessThanOrEqual(0);
  });

  it('lets only the owner or an admin open Checkout; a member gets 403, a stranger 404', async () => {
    const byMember = await post(member, '/api/billing/checkout', { teamId, priceId: proMonthly });
    expect([byMember.status, byMember.body.error.code]).toEqual([403, 'forbidden']);
    const byStranger = await post(stranger, '/api/billing/checkout', { teamId, priceId: proMonthly });
    expect([byStranger.status, byStranger.body.error.code]).toEqual([404, 'not_found']);
    const signedOut = await request(harness.api).post('/api/billing/checkout').send({ teamId, priceId: proMonthly });
    expect(signedOut.status).toBe(401);
    expect(fake.state.checkoutSessions.size).toBe(0);

    const byAdmin = await post(admin, '/api/billing/checkout', { teamId, priceId: proMonthly }).expect(200);
    expect(byAdmin.body.url).toMatch(new RegExp(`^${fake.url}/checkout/cs_`));
    const byOwner = await post(owner, '/api/billing/checkout', { teamId, priceId: proMonthly }).expect(200);
    // The team's customer is created once; each session is for three seats, with the price's trial.
    expect(fake.state.customers.size).toBe(1);
    const [{ stripe_customer_id: customerId }]: { stripe_customer_id: string }[] = await harness.db.dataSource.query('SELECT stripe_customer_id FROM teams WHERE id = $1', [teamId]);
    expect(fake.state.customers.has(customerId)).toBe(true);
    const session = [...fake.state.checkoutSessions.values()].pop()!;
    expect(session.session).toMatchObject({ mode: 'subscription', client_reference_id: String(teamId), customer: customerId, allow_promotion_codes: true });
    expect(session.lineItems).toEqual([{ price: proMonthly, quantity: 3 }]);
    expect(byOwner.body.url).not.toBe(byAdmin.body.url);
  });

  it('refuses a plan whose seats the team already outnumbers, before any Stripe call', async () => {
    // Three more members built in the database (six in all; Pro has five seats), removed afterwards.
    const extra: number[] = [];
    for (let i = 0; i < 3; i++) {
      const [{ id }]: { id: number }[] = await harness.db.dataSource.query(`INSERT INTO users (email, name) VALUES ($1, 'Extra') RETURNING id`, [`seat-extra-${i}-${Date.now()}@example.com`]);
      extra.push(id);
    }
    await harness.db.dataSource.query(`INSERT INTO team_members (team_id, user_id, role) SELECT $1, unnest($2::int[]), 'member'`, [teamId, extra]);
    try {
      const sessionsBefore = fake.state.checkoutSessions.size;
      const res = await post(owner, '/api/billing/checkout', { teamId, priceId: proMonthly });
      expect([res.status, res.body.error.code, res.body.error.message]).toEqual([
        409,
        'too_many_members',
        'The Pro plan has 5 seats and this team has 6 members: choose a larger plan or remove members first',
      ]);
      expect(fake.state.checkoutSessions.size).toBe(sessionsBefore);
    } finally {
      await harness.db.dataSource.query(`DELETE FROM team_members WHERE team_id = $1 AND user_id = ANY($2::int[])`, [teamId, extra]);
    }
  });

  it('refuses a webhook whose signature is missing, wrong or too old with 400, storing nothing', async () => {
    const event = fake.buildEvent('customer.subscription.updated', { id: 'sub_NotStored', object: 'subscription', status: 'active' });
    const signed = fake.sign(event);
    const attempts: [string, Buffer, Record<string, string>][] = [
      ['no header', signed.body, {}],
      ['another secret', signed.body, { 'stripe-signature': fake.sign(event, { secret: 'whsec_someoneElse' }).header }],
      ['too old', signed.body, { 'stripe-signature': fake.sign(event, { timestamp: Math.floor(Date.now() / 1000) - 301 }).header }],
      ['body changed', Buffer.from(signed.body.toString('utf8').replace('"active"', '"canceled"')), { 'stripe-signature': signed.header }],
      ['garbage header', signed.body, { 'stripe-signature': 't=abc,v1=zz' }],
    ];
    for (const [label, body, headers] of attempts) {
      const res = await request(harness.api).post('/api/billing/webhook').set({ 'content-type': 'application/json', ...headers }).send(body.toString('utf8'));
      expect([label, res.status, res.body.error?.code]).toEqual([label, 400, 'bad_signature']);
      expect(res.body.error.requestId).toEqual(expect.any(String));
    }
    const wrongType = await request(harness.api).post('/api/billing/webhook').set({ 'content-type': 'text/plain', 'stripe-signature': signed.header }).send(signed.body.toString('utf8'));
    expect([wrongType.status, wrongType.body.error.code]).toEqual([415, 'unsupported_media_type']);
    expect(await events()).toEqual([]);
  });

  it('stores a redelivered event once and processes it once; answers 200 both times', async () => {
    const customer = fake.addCustomer({ email: 'dup@example.com' });
    const subscription = fake.createSubscription({ customer: customer.id, price: proMonthly, status: 'active', metadata: { teamId: '999999' } });
    const event = fake.buildEvent('customer.subscription.updated', subscription);
    const { body, header } = fake.sign(event);
    const send = () => request(harness.api).post('/api/billing/webhook').set({ 'content-type': 'application/json', 'stripe-signature': header }).send(body.toString('utf8'));
    const first = await send();
    expect([first.status, first.body]).toEqual([200, { received: true, duplicate: false }]);
    const second = await send();
    expect([second.status, second.body]).toEqual([200, { received: true, duplicate: true }]);
    await idle();
    const third = await send();
    expect([third.status, third.body]).toEqual([200, { received: true, duplicate: true }]);
    await idle();
    const rows = (await events()).filter((row) => row.stripe_event_id === event.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.processed_at).not.toBeNull();
    expect(rows[0]!.attempts).toBe(1);
  });

  it('a completed checkout upgrades the team: its status, seats, trial and limits as members see them', async () => {
    const before = await member.agent.get(`/api/billing/teams/${teamId}`).expect(200);
    expect(before.body).toMatchObject({ teamId, role: 'member', canManage: false, subscription: null, seatsUsed: 3, entitlements: { billing: 'on', plan: 'free' } });
    const noPortal = await post(owner, '/api/billing/portal', { teamId: 2147483647 });
    expect(noPortal.status).toBe(404);

    const { body } = await post(owner, '/api/billing/checkout', { teamId, priceId: proMonthly }).expect(200);
    const sessionId = new URL(body.url).pathname.split('/').pop()!;
    await fake.completeCheckout(sessionId);
    await idle();
    const processed: { event_type: string; processed_at: Date | null; last_error: string | null }[] = await harness.db.dataSource.query('SELECT event_type, processed_at, last_error FROM subscription_events WHERE stripe_event_id = ANY($1) ORDER BY id', [fake.state.events.slice(-2).map((e) => e.id)]);
    expect(processed.map((row) => [row.event_type, row.processed_at !== null, row.last_error])).toEqual(
      [
        ['checkout.session.completed', true, null],
        ['customer.subscription.created', true, null],
      ],
    );

    const after = await owner.agent.get(`/api/billing/teams/${teamId}`).expect(200);
    expect(after.body).toMatchObject({
      teamId,
      teamName: 'Morning desk',
      role: 'owner',
      canManage: true,
      hasCustomer: true,
      seatsUsed: 3,
      entitlements: { billing: 'on', plan: 'pro', status: 'trialing', mode: 'full', limits: { activeAlerts: 250, seats: 5 }, features: { webhooks: true } },
      subscription: { status: 'trialing', priceId: proMonthly, seats: 3, cancelAtPeriodEnd: false },
    });
    expect(Date.parse(after.body.subscription.trialEnd) - Date.now()).toBeGreaterThan(13 * 86_400_000);
    const mine = await member.agent.get('/api/billing/entitlements').expect(200);
    expect(mine.body).toMatchObject({ billing: 'on', plan: 'pro', planName: 'Pro', teamId, status: 'trialing', mode: 'full' });
    const strangers = await stranger.agent.get('/api/billing/entitlements').expect(200);
    expect(strangers.body).toMatchObject({ plan: 'free', teamId: null, limits: { activeAlerts: 25 } });
    const hidden = await stranger.agent.get(`/api/billing/teams/${teamId}`);
    expect([hidden.status, hidden.body.error.code]).toEqual([404, 'not_found']);

    // The portal: owners and admins, once the team has a customer.
    const portal = await post(owner, '/api/billing/portal', { teamId }).expect(200);
    expect(portal.body.url).toEqual(expect.stringMatching(/^https?:\/\//));
    const memberPortal = await post(member, '/api/billing/portal', { teamId });
    expect([memberPortal.status, memberPortal.body.error.code]).toEqual([403, 'forbidden']);
  });

  it('answers the portal with 409 for a team without a Stripe customer', async () => {
    const other = await team(stranger, 'Lonely desk');
    const res = await post(stranger, '/api/billing/portal', { teamId: other });
    expect([res.status, res.body.error.code]).toEqual([409, 'no_customer']);
    expect(res.body.error.message).toEqual(expect.any(String));
  });

  it('answers 503 (not 500) when Stripe fails, and Checkout can be retried', async () => {
    const other = await team(admin, 'Retry desk');
    fake.failNext(10, 500);
    const res = await post(admin, '/api/billing/checkout', { teamId: other, priceId: proMonthly });
    expect([res.status, res.body.error.code]).toEqual([503, 'stripe_unavailable']);
    fake.failNext(0);
    await post(admin, '/api/billing/checkout', { teamId: other, priceId: proMonthly }).expect(200);
  });
});

describe('billing routes with billing off (self-hosted: no Stripe keys)', () => {
  const harness = new AlertsHarness({ BILLING_SELF_HOSTED_LIMITS: 'activeAlerts=100,seats=5' });
  let owner: AlertsUser;
  let teamId: number;

  beforeAll(async () => {
    await harness.start();
    owner = await harness.user('self-hosted@example.com');
    teamId = await team(owner, 'Home desk');
  });
  afterAll(() => harness.stop());

  it('prices the self-hosted plan with the operator’s limits', async () => {
    const res = await request(harness.api).get('/api/billing/pricing').expect(200);
    expect(res.body).toMatchObject({ billing: 'off', defaultPlan: { key: 'self-hosted', limits: { activeAlerts: 100, seats: 5, watchlists: null } } });
    expect(res.body.plans).toEqual([expect.objectContaining({ key: 'self-hosted', prices: [] })]);
    const mine = await owner.agent.get('/api/billing/entitlements').expect(200);
    expect(mine.body).toMatchObject({ billing: 'off', plan: 'self-hosted', mode: 'full', limits: { activeAlerts: 100 } });
    const status = await owner.agent.get(`/api/billing/teams/${teamId}`).expect(200);
    expect(status.body).toMatchObject({ teamId, canManage: true, subscription: null, hasCustomer: false, entitlements: { billing: 'off', plan: 'self-hosted' } });
  });

  it('answers checkout, the portal and the webhook with 409 billing_off and a clear message', async () => {
    for (const [path, body] of [
      ['/api/billing/checkout', { teamId, priceId: 'price_Anything' }],
      ['/api/billing/portal', { teamId }],
    ] as const) {
      const res = await post(owner, path, body);
      expect([path, res.status, res.body.error.code]).toEqual([path, 409, 'billing_off']);
      expect(res.body.error.message).toMatch(/Billing is off on this install/);
    }
    const hook = await request(harness.api).post('/api/billing/webhook').set({ 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' }).send('{"id":"evt_1"}');
    expect([hook.status, hook.body.error.code]).toEqual([409, 'billing_off']);
    const [{ count }]: { count: string }[] = await harness.db.dataSource.query('SELECT count(*) FROM subscription_events');
    expect(Number(count)).toBe(0);
    // Bad input is still a 400 naming the field, billing or not.
    const bad = await post(owner, '/api/billing/checkout', { teamId: 'x' });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'validation_failed']);
  });
});
