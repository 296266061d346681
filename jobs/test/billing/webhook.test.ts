import { BillingError } from '../../src/billing/billing-service';
import { processStripeEvent, receiveWebhook } from '../../src/billing/billing-webhook';
import { billingJobIds } from '../../src/billing/billing.jobs';
import { SUBSCRIPTION_STATUSES } from '../../src/billing/billing.shapes';
import { addPlan, deliverAndProcess, entitlements, newTeam, receive, startBillingWorld, subscribeInStripe, teamRow, type BillingWorld } from './billing-fixtures';

// Webhooks end to end below the HTTP layer: the official client against the fake Stripe server,
// a real PostgreSQL and Redis. Events are signed with Stripe's test header helper, received as the
// api does (verify, store once, queue) and processed as the job does (re-fetch, one transaction).

const DAY_MS = 86_400_000;

describe('billing webhooks (fake Stripe, real PostgreSQL and Redis)', () => {
  let w: BillingWorld;
  let pro: ReturnType<typeof addPlan>;
  const eventRows = (stripeEventId?: string) =>
    w.q<{ id: string; processed: boolean; attempts: number; teamId: number | null }>(
      `SELECT stripe_event_id AS id, processed_at IS NOT NULL AS processed, attempts, team_id AS "teamId" FROM subscription_events ${stripeEventId ? 'WHERE stripe_event_id = $1' : ''} ORDER BY subscription_events.id`,
      stripeEventId ? [stripeEventId] : [],
    );
  const activity = (teamId: number) =>
    w.q<{ details: Record<string, unknown> }>(`SELECT details FROM activity_logs WHERE team_id = $1 AND action = 'UPDATE_SUBSCRIPTION' ORDER BY id`, [teamId]);

  beforeAll(async () => {
    w = await startBillingWorld();
    pro = addPlan(w, 'pro');
  });
  afterAll(() => w.close());

  it('refuses a missing, wrong, tampered or stale signature and stores nothing', async () => {
    const { teamId } = await newTeam(w);
    const subscription = await subscribeInStripe(w, teamId, pro.price.id);
    const event = w.fake.buildEvent('customer.subscription.created', subscription);
    const good = w.fake.sign(event);
    const deps = { dataSource: w.db.dataSource, stripe: w.stripe, queues: w.queues, config: w.config };
    const attempts: [string, Buffer, string | undefined][] = [
      ['no header', good.body, undefined],
      ['another secret', good.body, w.fake.sign(event, { secret: 'whsec_not_ours' }).header],
      ['a tampered body', Buffer.from(good.body.toString().replace('"active"', '"trialing"')), good.header],
      ['older than 300 s', good.body, w.fake.sign(event, { timestamp: Math.floor(Date.now() / 1000) - 301 }).header],
    ];
    for (const [why, body, header] of attempts) {
      const error = await receiveWebhook(deps, body, header).catch((e: unknown) => e);
      expect([why, error instanceof BillingError && error.code]).toEqual([why, 'bad_signature']);
    }
    expect(await eventRows()).toEqual([]);
    expect(await w.queues.queue('billing').getJobCountByTypes('waiting', 'delayed', 'active')).toBe(0);

    // The same event, well signed, is taken (within the tolerance: 299 s old).
    const fresh = w.fake.sign(event, { timestamp: Math.floor(Date.now() / 1000) - 299 });
    expect(await receiveWebhook(deps, fresh.body, fresh.header)).toMatchObject({ duplicate: false, eventId: event.id });
    expect(await eventRows()).toHaveLength(1);
    // Billing off: no webhook is expected at all.
    const off = await receiveWebhook({ ...deps, stripe: null }, fresh.body, fresh.header).catch((e: unknown) => e);
    expect(off).toMatchObject({ code: 'billing_off' });
  });

  it('stores a redelivered event once, queues it once under its id and processes it once', async () => {
    const { teamId, ownerId } = await newTeam(w, 1);
    const subscription = await subscribeInStripe(w, teamId, pro.price.id, { quantity: 2 });
    const event = w.fake.buildEvent('customer.subscription.created', subscription);
    const deps = { dataSource: w.db.dataSource, stripe: w.stripe, queues: w.queues, config: w.config };
    const send = () => {
      const { body, header } = w.fake.sign(event);
      return receiveWebhook(deps, body, header);
    };
    expect(await send()).toMatchObject({ duplicate: false });
    expect(await send()).toMatchObject({ duplicate: true });
    expect(await eventRows(event.id)).toEqual([{ id: event.id, processed: false, attempts: 0, teamId: null }]);
    const job = await w.queues.queue('billing').getJob(billingJobIds.processEvent(event.id));
    expect(job?.data).toEqual({ stripeEventId: event.id });
    expect(await w.queues.queue('billing').getJobCountByTypes('waiting')).toBe(2); // this one and the first test's

    // Two workers take it at once: the event row's lock lets one write, the other finds it processed.
    const [a, b] = await Promise.all([processStripeEvent(w.processDeps, event.id), processStripeEvent(w.processDeps, event.id)]);
    expect([a.result, b.result].sort()).toEqual(['already processed', 'processed']);
    expect(await send()).toMatchObject({ duplicate: true });
    expect(await processStripeEvent(w.processDeps, event.id)).toMatchObject({ result: 'already processed' });

    expect(await eventRows(event.id)).toEqual([{ id: event.id, processed: true, attempts: 1, teamId }]);
    expect(await activity(teamId)).toHaveLength(1);
    expect(await teamRow(w, teamId)).toMatchObject({ status: 'active', plan: 'pro', subscription: subscription.id, seats: 2 });
    const subs = await w.q(`SELECT team_id AS "teamId", user_id AS "userId", status, quantity, plan_name AS plan FROM subscriptions WHERE stripe_subscription_id = $1`, [subscription.id]);
    expect(subs).toEqual([{ teamId, userId: ownerId, status: 'active', quantity: 2, plan: 'pro' }]);
    // Every member's users fields follow the team.
    const members = await w.q(`SELECT u.subscription_status AS status, u.subscription_plan AS plan, u.subscription_id AS sub FROM users u JOIN team_members m ON m.user_id = u.id WHERE m.team_id = $1`, [teamId]);
    expect(members).toEqual([
      { status: 'active', plan: 'pro', sub: subscription.id },
      { status: 'active', plan: 'pro', sub: subscription.id },
    ]);
  });

  it('ends right whatever the order: updated before created, deleted before updated', async () => {
    const { teamId } = await newTeam(w);
    const subscription = await subscribeInStripe(w, teamId, pro.price.id);
    const created = w.fake.buildEvent('customer.subscription.created', subscription);
    const pastDue = w.fake.setSubscriptionStatus(subscription.id, 'past_due');
    const updated = w.fake.buildEvent('customer.subscription.updated', pastDue, { previousAttributes: { status: 'active' } });

    // The later event first, then the earlier one, whose copy says "active": Stripe says past_due.
    for (const event of [updated, created]) {
      const { body, header } = w.fake.sign(event);
      await receiveWebhook({ dataSource: w.db.dataSource, stripe: w.stripe, queues: w.queues, config: w.config }, body, header);
      await processStripeEvent(w.processDeps, event.id);
      expect(await teamRow(w, teamId)).toMatchObject({ status: 'past_due', plan: 'pro' });
    }
    const since = (await teamRow(w, teamId)).pastDueSince;
    expect(since).toEqual(new Date(w.clock.now()));

    // Canceled in Stripe; the deleted event is processed before an older "updated" (copy: active).
    const stale = w.fake.buildEvent('customer.subscription.updated', { ...pastDue, status: 'active' });
    const canceled = w.fake.setSubscriptionStatus(subscription.id, 'canceled');
    const deleted = w.fake.buildEvent('customer.subscription.deleted', canceled);
    for (const event of [deleted, stale]) {
      const { body, header } = w.fake.sign(event);
      await receiveWebhook({ dataSource: w.db.dataSource, stripe: w.stripe, queues: w.queues, config: w.config }, body, header);
      await processStripeEvent(w.processDeps, event.id);
    }
    expect(await teamRow(w, teamId)).toMatchObject({ status: 'canceled', pastDueSince: null });
    expect(await entitlements.ofTeam(w.db.dataSource, teamId, w.clock.now())).toMatchObject({ plan: 'free', mode: 'full', status: 'canceled' });
  });

  it('handles every status of the table (plan, mode, grace period, users fields)', async () => {
    const { teamId, memberIds } = await newTeam(w, 1);
    const subscription = await subscribeInStripe(w, teamId, pro.price.id, { quantity: 2 });
    await deliverAndProcess(w, 'customer.subscription.created', subscription);
    const expected: Record<string, { plan: string; mode: string }> = {
      trialing: { plan: 'pro', mode: 'full' },
      active: { plan: 'pro', mode: 'full' },
      past_due: { plan: 'pro', mode: 'grace' },
      unpaid: { plan: 'pro', mode: 'read_only' },
      paused: { plan: 'pro', mode: 'read_only' },
      incomplete: { plan: 'free', mode: 'full' },
      incomplete_expired: { plan: 'free', mode: 'full' },
      canceled: { plan: 'free', mode: 'full' },
    };
    expect(Object.keys(expected).sort()).toEqual([...SUBSCRIPTION_STATUSES].sort());
    for (const status of ['trialing', 'active', 'past_due', 'unpaid', 'paused', 'incomplete', 'active', 'incomplete_expired', 'active', 'canceled']) {
      // Canceled ends a subscription for good in Stripe; the fake lets the test walk the table on one.
      const object = w.fake.setSubscriptionStatus(subscription.id, status, status === 'active' ? { ended_at: null, canceled_at: null } : {});
      const outcome = await deliverAndProcess(w, 'customer.subscription.updated', object);
      expect(outcome).toMatchObject({ result: 'processed', teamId, status });
      const team = await teamRow(w, teamId);
      expect([status, team.status, team.pastDueSince !== null]).toEqual([status, status, status === 'past_due']);
      const e = await entitlements.ofTeam(w.db.dataSource, teamId, w.clock.now());
      expect([status, e.plan, e.mode]).toEqual([status, expected[status].plan, expected[status].mode]);
      const [member] = await w.q(`SELECT subscription_status AS status FROM users WHERE id = $1`, [memberIds[0]]);
      expect([status, member.status]).toEqual([status, status]);
    }

    // past_due: grace for BILLING_GRACE_DAYS from when it became past due, then read-only; staying past due keeps the start.
    // (A canceled subscription revived: only the fake allows it.)
    const pastDue = w.fake.setSubscriptionStatus(subscription.id, 'past_due', { ended_at: null, canceled_at: null });
    await deliverAndProcess(w, 'customer.subscription.updated', pastDue);
    const start = (await teamRow(w, teamId)).pastDueSince as Date;
    w.clock.advance(3 * DAY_MS);
    await deliverAndProcess(w, 'invoice.payment_failed', w.fake.invoiceFor(subscription.id));
    expect((await teamRow(w, teamId)).pastDueSince).toEqual(start);
    expect(await entitlements.ofTeam(w.db.dataSource, teamId, w.clock.now())).toMatchObject({ mode: 'grace' });
    const later = new Date(start.getTime() + 7 * DAY_MS + 1000);
    expect(await entitlements.ofTeam(w.db.dataSource, teamId, later)).toMatchObject({ plan: 'pro', mode: 'read_only' });

    // cancel_at_period_end is kept on the team.
    const cancelling = w.fake.setSubscriptionStatus(subscription.id, 'active', { cancel_at_period_end: true });
    await deliverAndProcess(w, 'customer.subscription.updated', cancelling);
    expect(await teamRow(w, teamId)).toMatchObject({ status: 'active', cancelAtPeriodEnd: true, pastDueSince: null });
  });

  it("never lets an old subscription's late events replace the team's live one", async () => {
    const { teamId } = await newTeam(w);
    const old = await subscribeInStripe(w, teamId, pro.price.id);
    await deliverAndProcess(w, 'customer.subscription.created', old);
    const canceledOld = w.fake.setSubscriptionStatus(old.id, 'canceled');
    const replacement = await subscribeInStripe(w, teamId, pro.price.id);
    await deliverAndProcess(w, 'customer.subscription.created', replacement);
    await deliverAndProcess(w, 'customer.subscription.deleted', canceledOld);
    expect(await teamRow(w, teamId)).toMatchObject({ status: 'active', subscription: replacement.id });
    const rows = await w.q(`SELECT stripe_subscription_id AS id, status FROM subscriptions WHERE team_id = $1 ORDER BY subscriptions.id`, [teamId]);
    expect(rows).toEqual([
      { id: old.id, status: 'canceled' },
      { id: replacement.id, status: 'active' },
    ]);
  });

  it("tells the team's owners (not its members) that the trial ends and that a payment failed, once per event", async () => {
    const { teamId, ownerId, memberIds } = await newTeam(w, 1);
    const subscription = await subscribeInStripe(w, teamId, pro.price.id, { trialDays: 14 });
    await deliverAndProcess(w, 'customer.subscription.created', subscription);
    expect(await teamRow(w, teamId)).toMatchObject({ status: 'trialing' });

    const { event } = await receive(w, 'customer.subscription.trial_will_end', subscription);
    expect(await processStripeEvent(w.processDeps, event.id)).toMatchObject({ result: 'processed', notified: 1 });
    await processStripeEvent(w.processDeps, event.id);
    const notices = () =>
      w.q<{ userId: number; title: string; message: string; type: string; dedupeKey: string }>(
        `SELECT user_id AS "userId", title, message, type, dedupe_key AS "dedupeKey" FROM notifications WHERE user_id = ANY($1::int[]) ORDER BY id`,
        [[ownerId, ...memberIds]],
      );
    const trialEnd = new Date(subscription.trial_end! * 1000).toISOString().slice(0, 10);
    expect(await notices()).toEqual([
      { userId: ownerId, title: 'Your trial ends soon', message: expect.stringContaining(`ends on ${trialEnd}`), type: 'warning', dedupeKey: `billing:${event.id}` },
    ]);
    // The owner gets the email whatever their email preference.
    const mails = await w.queues.queue('mail').getJobs(['waiting']);
    expect(mails.filter((job) => job.data.userId === ownerId).map((job) => job.data.subject)).toEqual(['Your trial ends soon']);

    const failed = w.fake.setSubscriptionStatus(subscription.id, 'past_due', { trial_end: null });
    const invoiceEvent = await receive(w, 'invoice.payment_failed', w.fake.invoiceFor(failed.id));
    expect(await processStripeEvent(w.processDeps, invoiceEvent.event.id)).toMatchObject({ status: 'past_due', notified: 1 });
    expect((await notices()).map((n) => [n.userId, n.title])).toEqual([
      [ownerId, 'Your trial ends soon'],
      [ownerId, 'A payment failed'],
    ]);
    expect((await notices())[1].message).toContain('within 7 days');
  });

  it('mirrors product and price events, re-fetched; deleted ones become inactive; unknown events are marked ignored', async () => {
    const product = w.fake.addProduct({ name: 'Tickerbell Team', plan: 'team' });
    const price = w.fake.addPrice({ product: product.id, unitAmount: 4900, trialPeriodDays: 14 });
    // The price's event first: its product is fetched and stored with it.
    await deliverAndProcess(w, 'price.created', price);
    await deliverAndProcess(w, 'product.created', product);
    const rows = () =>
      w.q(
        `SELECT p.name, p.active AS "productActive", p.metadata, pr.unit_amount::text AS amount, pr.interval, pr.trial_period_days AS trial, pr.active
           FROM prices pr JOIN products p ON p.id = pr.product_id WHERE pr.stripe_price_id = $1`,
        [price.id],
      );
    expect(await rows()).toEqual([{ name: 'Tickerbell Team', productActive: true, metadata: { tickerbell_plan: 'team' }, amount: '4900', interval: 'month', trial: 14, active: true }]);
    product.name = 'Tickerbell Desk';
    w.fake.state.products.get(product.id)!.name = 'Tickerbell Desk';
    await deliverAndProcess(w, 'product.updated', { ...product, name: 'stale copy' });
    await deliverAndProcess(w, 'price.deleted', price);
    await deliverAndProcess(w, 'product.deleted', product);
    expect(await rows()).toEqual([expect.objectContaining({ name: 'Tickerbell Desk', productActive: false, active: false })]);

    const other = await deliverAndProcess(w, 'customer.created', w.fake.addCustomer());
    expect(other).toMatchObject({ result: 'ignored' });
    expect(await eventRows(other.stripeEventId)).toEqual([expect.objectContaining({ processed: true })]);
  });

  it('counts a failed attempt (Stripe down) and leaves the event for the retry', async () => {
    const { teamId } = await newTeam(w);
    const subscription = await subscribeInStripe(w, teamId, pro.price.id);
    const { event } = await receive(w, 'customer.subscription.created', subscription);
    w.fake.failNext(1, 500);
    await expect(processStripeEvent(w.processDeps, event.id)).rejects.toThrow();
    const [row] = await w.q(`SELECT processed_at AS "processedAt", attempts, last_error AS "lastError" FROM subscription_events WHERE stripe_event_id = $1`, [event.id]);
    expect(row).toMatchObject({ processedAt: null, attempts: 1, lastError: expect.any(String) });
    expect(await teamRow(w, teamId)).toMatchObject({ status: null });
    expect(await processStripeEvent(w.processDeps, event.id)).toMatchObject({ result: 'processed', status: 'active' });
  });
});
