import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type Stripe from 'stripe';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createWorkerConnection, fixedClock } from '@tickerbell/jobs';
import { billingEnvSchema, createBillingHandlers, createStripeClient, receiveWebhook } from '@tickerbell/jobs/billing';
import { createUser } from '@tickerbell/jobs/accounts';
import { startFakeStripe, type FakeStripe } from '@tickerbell/jobs/testing/fake-stripe';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers, type WorkersRuntime } from '../../src/runtime';
import { runCliCaptured } from '../cli-capture';

// Billing through real workers and the CLI: the fake Stripe server's hosted checkout delivers
// signed webhooks over HTTP to a receiver that does what the api does (verify, store, queue); the
// billing queue's worker processes them. Then `billing sync` and `billing resync` as an operator runs them.

describe('billing: workers and CLI (fake Stripe, PostgreSQL, Redis)', () => {
  let db: TestDatabase;
  let fake: FakeStripe;
  let receiver: Server;
  let runtime: WorkersRuntime;
  let stripe: Stripe;
  const prefix = testQueuePrefix();
  const connection = createWorkerConnection(testRedisUrl());
  const queueConnection = createWorkerConnection(testRedisUrl());
  const queues = new JobQueues(queueConnection, prefix);
  const saved = { ...process.env };
  const q = (sql: string, params: unknown[] = []) => db.dataSource.query(sql, params);

  beforeAll(async () => {
    db = await createTestDatabase();
    fake = await startFakeStripe();
    const config = billingEnvSchema.parse({ STRIPE_SECRET_KEY: 'sk_test_cli', STRIPE_WEBHOOK_SECRET: fake.webhookSecret, STRIPE_API_URL: fake.url });
    stripe = createStripeClient(config) as Stripe;
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        receiveWebhook({ dataSource: db.dataSource, stripe, queues, config }, Buffer.concat(chunks), req.headers['stripe-signature'] as string | undefined)
          .then(() => res.writeHead(200).end('{"received":true}'))
          .catch((error: Error) => res.writeHead(400).end(error.message));
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    fake.setWebhookUrl(`http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/billing/webhook`);
    runtime = await startWorkers({
      dataSource: db.dataSource,
      connection,
      queues,
      logger: pino({ level: 'silent' }),
      clock: fixedClock(new Date()),
      overrides: createBillingHandlers({ stripe, config }),
      schedules: [],
      queueNames: ['billing'],
    });
    Object.assign(process.env, { STRIPE_SECRET_KEY: 'sk_test_cli', STRIPE_WEBHOOK_SECRET: fake.webhookSecret, STRIPE_API_URL: fake.url });
  });
  afterAll(async () => {
    process.env = saved;
    await runtime?.close();
    await fake.close();
    await new Promise((resolve) => receiver.close(resolve));
    await queues.close();
    connection.disconnect();
    queueConnection.disconnect();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
    await db.drop();
  });

  const cli = (args: string[]) => runCliCaptured(args, db.url, prefix);

  it('syncs the catalog, then a hosted checkout paid on the fake page is processed by the worker', async () => {
    const product = fake.addProduct({ name: 'Tickerbell Pro', plan: 'pro' });
    const price = fake.addPrice({ product: product.id, unitAmount: 1500 });
    expect(await cli(['billing', 'sync'])).toEqual({ code: 0, out: 'Stripe catalog: 1 product, 1 price mirrored; 0 deactivated\n', err: '' });
    expect(await q(`SELECT name, active FROM products`)).toEqual([{ name: 'Tickerbell Pro', active: true }]);

    const user = await createUser(db.dataSource, { email: 'payer@example.com', name: 'Payer', passwordHash: null, isVerified: true }, null);
    const [{ teamId }] = await q(`SELECT team_id AS "teamId" FROM team_members WHERE user_id = $1`, [user.id]);
    const customer = fake.addCustomer();
    await q(`UPDATE teams SET stripe_customer_id = $2 WHERE id = $1`, [teamId, customer.id]);
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      customer: customer.id,
      client_reference_id: String(teamId),
      line_items: [{ price: price.id, quantity: 1 }],
      subscription_data: { metadata: { teamId: String(teamId) } },
      success_url: 'http://app.test/done?session_id={CHECKOUT_SESSION_ID}',
    });
    const page = await fetch(session.url as string);
    expect(await page.text()).toContain('<button type="submit">Pay</button>');
    const paid = await fetch(`${session.url}/pay`, { method: 'POST', redirect: 'manual' });
    expect([paid.status, paid.headers.get('location')]).toEqual([303, `http://app.test/done?session_id=${session.id}`]);

    await waitForQueuesIdle([queues.queue('billing')]);
    const events = await q(`SELECT event_type AS type, processed_at IS NOT NULL AS processed FROM subscription_events ORDER BY id`);
    expect(events).toEqual([
      { type: 'checkout.session.completed', processed: true },
      { type: 'customer.subscription.created', processed: true },
    ]);
    expect(await q(`SELECT subscription_status AS status, plan_name AS plan FROM teams WHERE id = $1`, [teamId])).toEqual([{ status: 'active', plan: 'pro' }]);

    // Missed webhooks: Stripe says past_due, nothing was sent; the resync of that team catches up.
    const [{ sub }] = await q(`SELECT stripe_subscription_id AS sub FROM teams WHERE id = $1`, [teamId]);
    fake.setSubscriptionStatus(sub, 'past_due');
    expect(await cli(['billing', 'resync', '--team', String(teamId)])).toEqual({ code: 0, out: 'resynced 1 subscription of 1 team: 1 changed status, 0 seat syncs queued\n', err: '' });
    expect(await q(`SELECT subscription_status AS status FROM teams WHERE id = $1`, [teamId])).toEqual([{ status: 'past_due' }]);
    expect((await cli(['billing', 'resync', '--team', 'x'])).err).toBe('error: --team: "x" is not a team id\n');
    expect((await cli(['billing', 'resync', '--team', '999999'])).err).toBe('error: no team 999999\n');
  });

  it('says billing is off and exits 1 without the Stripe keys', async () => {
    delete process.env.STRIPE_SECRET_KEY;
    delete process.env.STRIPE_WEBHOOK_SECRET;
    for (const args of [['billing', 'sync'], ['billing', 'resync']]) {
      const result = await cli(args);
      expect(result).toEqual({ code: 1, out: '', err: 'error: billing is off on this install (self-hosted): set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to use the billing commands\n' });
    }
    process.env.STRIPE_SECRET_KEY = 'sk_test_cli';
    expect((await cli(['billing', 'sync'])).err).toMatch(/STRIPE_WEBHOOK_SECRET/);
  });
});
