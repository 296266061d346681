import pino from 'pino';
import { billingStatus, pricing, startCheckout, startPortal, type BillingDeps } from '../../src/billing/billing-service';
import { requestSeatSync, syncSeats } from '../../src/billing/billing-seats';
import { refreshSubscription, resyncSubscriptions, syncCatalog } from '../../src/billing/billing-sync';
import { billingJobIds } from '../../src/billing/billing.jobs';
import { createEntitlements } from '../../src/billing/entitlements';
import { processStripeEvent, receiveWebhook } from '../../src/billing/billing-webhook';
import { addPlan, entitlements, newTeam, startBillingWorld, subscribeInStripe, teamRow, type BillingWorld } from './billing-fixtures';

// What the api and the workers ask of billing besides webhooks: checkout and portal sessions,
// the status and pricing answers, seat syncs, the resync and the catalog sync, against the fake
// Stripe server with the official client, on a real PostgreSQL and Redis.

describe('billing services and jobs (fake Stripe, real PostgreSQL and Redis)', () => {
  let w: BillingWorld;
  let deps: BillingDeps;
  let pro: ReturnType<typeof addPlan>;
  let team: ReturnType<typeof addPlan>;

  beforeAll(async () => {
    w = await startBillingWorld();
    pro = addPlan(w, 'pro', 1500, 14);
    team = addPlan(w, 'team', 4900);
    w.fake.addProduct({ name: 'Sticker pack' }); // no plan in its metadata: not on sale
    deps = { dataSource: w.db.dataSource, stripe: w.stripe, queues: w.queues, entitlements, config: w.config, clock: w.clock, logger: pino({ level: 'silent' }), publicUrl: 'https://tickerbell.test' };
    expect(await syncCatalog(deps as { dataSource: BillingDeps['dataSource']; stripe: NonNullable<BillingDeps['stripe']> })).toEqual({ products: 3, prices: 2, deactivated: 0 });
  });
  afterAll(() => w.close());

  it('answers the plans on sale from the mirrored catalog, or the self-hosted plan with billing off', async () => {
    const body = await pricing(w.db.dataSource, entitlements);
    expect(body.billing).toBe('on');
    expect(body.plans.map((p) => [p.key, p.productName, p.prices.map((x) => [x.id, x.unitAmount, x.interval, x.trialPeriodDays])])).toEqual([
      ['pro', 'Tickerbell Pro', [[pro.price.id, '1500', 'month', 14]]],
      ['team', 'Tickerbell Team', [[team.price.id, '4900', 'month', null]]],
    ]);
    expect(body.defaultPlan.key).toBe('free');
    const off = await pricing(w.db.dataSource, createEntitlements({ billingEnabled: false, graceDays: 7, selfHostedLimits: { seats: 5 } }));
    expect(off).toMatchObject({ billing: 'off', plans: [{ key: 'self-hosted', prices: [] }], defaultPlan: { key: 'self-hosted' } });
    expect(off.defaultPlan.limits.seats).toBe(5);
  });

  it('checkout: owners and admins only, a known price, the customer created once, quantity = members, the trial, promotion codes', async () => {
    const { teamId, ownerId, memberIds } = await newTeam(w, 2);
    await w.q(`UPDATE team_members SET role = 'admin' WHERE user_id = $1`, [memberIds[0]]);
    const input = { teamId, userId: ownerId, priceId: pro.price.id };
    expect(await startCheckout(deps, { ...input, userId: memberIds[1] }).catch((e) => e.code)).toBe('forbidden');
    const stranger = await newTeam(w);
    expect(await startCheckout(deps, { ...input, userId: stranger.ownerId }).catch((e) => e.code)).toBe('not_found');
    expect(await startCheckout(deps, { ...input, priceId: 'price_unknown' }).catch((e) => [e.code, e.field])).toEqual(['unknown_price', 'priceId']);
    expect(await startCheckout({ ...deps, stripe: null }, input).catch((e) => e.code)).toBe('billing_off');

    const first = await startCheckout(deps, input);
    const second = await startCheckout(deps, { ...input, userId: memberIds[0] });
    expect(first.url).toMatch(new RegExp(`^${w.fake.url}/checkout/cs_test_`));
    expect(w.fake.state.customers.size).toBe(1);
    const customerCalls = w.fake.state.requests.filter((r) => r.method === 'POST' && r.path === '/v1/customers');
    expect(customerCalls.map((r) => r.idempotencyKey)).toEqual([`tickerbell-team-customer-${teamId}`]);
    const [customer] = [...w.fake.state.customers.values()];
    expect((await w.q(`SELECT stripe_customer_id AS c FROM teams WHERE id = $1`, [teamId]))[0].c).toBe(customer.id);

    const sessionId = first.url.split('/').pop() as string;
    const { session, lineItems, subscriptionData } = w.fake.state.checkoutSessions.get(sessionId)!;
    expect(session).toMatchObject({
      mode: 'subscription',
      customer: customer.id,
      client_reference_id: String(teamId),
      metadata: { teamId: String(teamId), userId: String(ownerId) },
      allow_promotion_codes: true,
      success_url: 'https://tickerbell.test/dashboard/settings/billing?checkout=success&session_id={CHECKOUT_SESSION_ID}',
      cancel_url: 'https://tickerbell.test/pricing?checkout=canceled',
    });
    expect(lineItems).toEqual([{ price: pro.price.id, quantity: 3 }]);
    expect(subscriptionData).toMatchObject({ trial_period_days: '14', metadata: { teamId: String(teamId) } });
    expect(second.url).not.toBe(first.url);

    // Paying on the hosted page: the subscription (trialing), the two webhooks, processed.
    const subscription = await w.fake.completeCheckout(sessionId);
    expect(subscription).toMatchObject({ status: 'trialing', customer: customer.id });
    const events = w.fake.state.events.slice(-2);
    expect(events.map((e) => e.type)).toEqual(['checkout.session.completed', 'customer.subscription.created']);
    for (const event of events) {
      const { body, header } = w.fake.sign(event);
      await receiveWebhook(deps, body, header);
      await processStripeEvent(w.processDeps, event.id);
    }
    expect(await teamRow(w, teamId)).toMatchObject({ status: 'trialing', plan: 'pro', seats: 3, subscription: subscription.id });

    const status = await billingStatus(deps, { teamId, userId: memberIds[1] });
    expect(status).toMatchObject({
      teamId,
      role: 'member',
      canManage: false,
      hasCustomer: true,
      seatsUsed: 3,
      subscription: { status: 'trialing', priceId: pro.price.id, seats: 3, cancelAtPeriodEnd: false, trialEnd: new Date(subscription.trial_end! * 1000).toISOString() },
      entitlements: { plan: 'pro', mode: 'full', billing: 'on' },
      usage: { seats: 3, activeAlerts: 0 },
    });
    expect((await billingStatus(deps, { teamId, userId: ownerId })).canManage).toBe(true);
    expect(await billingStatus(deps, { teamId, userId: stranger.ownerId }).catch((e) => e.code)).toBe('not_found');

    // A live subscription changes plan in the portal, never a second subscription (nor a second trial).
    const again = await startCheckout(deps, { ...input, priceId: team.price.id });
    expect(again.url).toMatch(new RegExp(`^${w.fake.url}/portal/bps_`));
  });

  it('portal: owners and admins, a team with a customer; Stripe down answers stripe_unavailable', async () => {
    const { teamId, ownerId, memberIds } = await newTeam(w, 1);
    expect(await startPortal(deps, { teamId, userId: ownerId }).catch((e) => e.code)).toBe('no_customer');
    await subscribeInStripe(w, teamId, pro.price.id);
    expect(await startPortal(deps, { teamId, userId: memberIds[0] }).catch((e) => e.code)).toBe('forbidden');
    const { url } = await startPortal(deps, { teamId, userId: ownerId });
    const portal = w.fake.state.portalSessions.get(url.split('/').pop() as string);
    expect(portal?.return_url).toBe(`https://tickerbell.test/dashboard/settings/billing?team=${teamId}`);
    w.fake.failNext(1, 503);
    expect(await startPortal(deps, { teamId, userId: ownerId }).catch((e) => e.code)).toBe('stripe_unavailable');
  });

  it('seat sync: the subscription quantity follows the members, prorated; queued once per team and count', async () => {
    const { teamId } = await newTeam(w, 1);
    const subscription = await subscribeInStripe(w, teamId, team.price.id, { quantity: 2 });
    await w.db.dataSource.transaction((m) => refreshSubscription(m, w.processDeps, subscription.id, { source: 'test' }));
    expect(await syncSeats(w.processDeps, teamId)).toMatchObject({ skipped: 'unchanged' });

    const extra = await newTeam(w);
    await w.q(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, 'member')`, [teamId, extra.ownerId]);
    await requestSeatSync(w.queues, teamId, 3);
    await requestSeatSync(w.queues, teamId, 3);
    const jobs = (await w.queues.queue('billing').getJobs(['waiting'])).filter((j) => j.name === 'billing.sync-seats');
    expect(jobs.map((j) => j.id)).toEqual([billingJobIds.syncSeats(teamId, 3, new Date())]);

    expect(await syncSeats(w.processDeps, teamId, { idempotencyKey: 'seats-test-1' })).toEqual({ teamId, from: 2, to: 3 });
    expect(w.fake.state.subscriptions.get(subscription.id)!.items.data[0].quantity).toBe(3);
    const update = w.fake.state.requests.filter((r) => r.method === 'POST' && r.path === `/v1/subscriptions/${subscription.id}`).pop();
    expect(update?.body).toMatchObject({ proration_behavior: 'create_prorations', items: [{ id: subscription.items.data[0].id, quantity: '3' }] });
    expect(await teamRow(w, teamId)).toMatchObject({ seats: 3 });
    expect((await w.q(`SELECT quantity FROM subscriptions WHERE stripe_subscription_id = $1`, [subscription.id]))[0].quantity).toBe(3);

    const none = await newTeam(w);
    expect(await syncSeats(w.processDeps, none.teamId)).toMatchObject({ skipped: 'no subscription' });
  });

  it('resync: catches up changes whose webhooks never came, including a checkout never reported', async () => {
    const stale = await newTeam(w);
    const subscription = await subscribeInStripe(w, stale.teamId, pro.price.id);
    await w.db.dataSource.transaction((m) => refreshSubscription(m, w.processDeps, subscription.id, { source: 'test' }));
    w.fake.setSubscriptionStatus(subscription.id, 'unpaid');
    const missed = await newTeam(w);
    const unreported = await subscribeInStripe(w, missed.teamId, team.price.id); // customer stored, no event at all

    const one = await resyncSubscriptions({ ...w.processDeps }, { teamId: stale.teamId });
    expect(one).toMatchObject({ teams: 1, refreshed: 1, changed: 1, failed: [] });
    expect(await teamRow(w, stale.teamId)).toMatchObject({ status: 'unpaid' });
    expect(await teamRow(w, missed.teamId)).toMatchObject({ status: null });

    const all = await resyncSubscriptions({ ...w.processDeps });
    expect(all.failed).toEqual([]);
    expect(await teamRow(w, missed.teamId)).toMatchObject({ status: 'active', plan: 'team', subscription: unreported.id });
    expect(await entitlements.ofTeam(w.db.dataSource, stale.teamId, w.clock.now())).toMatchObject({ mode: 'read_only' });
  });

  it('catalog sync: a product Stripe no longer lists becomes inactive and leaves the pricing', async () => {
    w.fake.state.products.delete(team.product.id);
    w.fake.state.prices.delete(team.price.id);
    expect(await syncCatalog({ dataSource: w.db.dataSource, stripe: w.stripe })).toMatchObject({ deactivated: 1 });
    expect((await pricing(w.db.dataSource, entitlements)).plans.map((p) => p.key)).toEqual(['pro']);
  });
});
