import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import pino from 'pino';
import type Stripe from 'stripe';
import { runMigrations } from '@tickerbell/entities';
import { JobQueues, createProducerConnection, systemClock } from '@tickerbell/jobs';
import { billingEnvSchema, createStripeClient, entitlementsFromConfig, processStripeEvent } from '@tickerbell/jobs/billing';
import { deleteKeysWithPrefix } from '@tickerbell/jobs/testing/test-redis';
import { startFakeStripe, type FakeSubscription } from '@tickerbell/jobs/testing/fake-stripe';
import { createApp } from '../api/src/app';
import { loadApiConfig } from '../api/src/config';
import { benchDatabase, type Benchmark, type BenchRow } from './bench';

// `npm run bench -- billing`: the figures the billing issue asks for.
// 1. Webhook acknowledgement: signed Stripe events POSTed over HTTP to the real Express app's
//    POST /api/billing/webhook (signature verified on the raw body, the event stored once, its
//    processing job queued in a real Redis), 8 at a time on keep-alive connections; p50 / p99.
//    The sender and the app share this process (one event loop), as a worst case.
// 2. Redeliveries of events already stored: acknowledged, stored once (checked), queued nothing new.
// 3. Processing: each stored event processed as the `billing.process-event` job does it (the
//    subscription re-fetched from the fake Stripe server over local HTTP, one transaction writing
//    the subscription, the team, its members and the activity row), 4 at a time as the queue runs.
// The events are built by the fake Stripe server from Stripe's own fixture shapes: subscriptions
// of TEAMS teams moving between active, past_due and active again (made-up ids and values).

const TEAMS = 200;
const EVENTS = 2_000;
const REDELIVERED = 500;
const SEND_CONCURRENCY = 8;
const PROCESS_CONCURRENCY = 4;
const ACK_TARGET_P99_MS = 100;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

function post(agent: http.Agent, port: number, body: Buffer, signature: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { agent, host: '127.0.0.1', port, method: 'POST', path: '/api/billing/webhook', headers: { 'content-type': 'application/json', 'content-length': body.length, 'stripe-signature': signature } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function pool<T>(items: T[], concurrency: number, run: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    for (let i = next++; i < items.length; i = next++) await run(items[i]);
  }));
}

export const billingBench: Benchmark = {
  name: 'billing',
  description: `Billing: ${EVENTS.toLocaleString('en-US')} signed Stripe webhooks acknowledged by the real app (p50 / p99, target p99 < ${ACK_TARGET_P99_MS} ms), ${REDELIVERED} redeliveries, then each event processed by re-fetching its subscription`,
  async run({ redisUrl, pgAdminUrl }) {
    const rows: BenchRow[] = [];
    const database = await benchDatabase(pgAdminUrl, 'billing', 10);
    const prefix = `tb-bench-${randomBytes(4).toString('hex')}`;
    const redis = createProducerConnection(redisUrl);
    const queues = new JobQueues(redis, prefix);
    const fake = await startFakeStripe();
    const agent = new http.Agent({ keepAlive: true, maxSockets: SEND_CONCURRENCY });
    let server: http.Server | undefined;
    try {
      const { dataSource } = database;
      await dataSource.initialize();
      await runMigrations(dataSource);
      const env = {
        NODE_ENV: 'production',
        DATABASE_URL: database.url,
        REDIS_URL: redisUrl,
        QUEUE_PREFIX: prefix,
        LOG_LEVEL: 'warn',
        SESSION_SECRET: 'billing-bench-session-secret-0123456789',
        STRIPE_SECRET_KEY: 'sk_test_bench',
        STRIPE_WEBHOOK_SECRET: fake.webhookSecret,
        STRIPE_API_URL: fake.url,
      };
      const config = loadApiConfig(env);
      const logger = pino({ level: 'warn' });
      const app = createApp({ config, dataSource, redis, queues, logger, entitlements: entitlementsFromConfig(config) });
      server = http.createServer(app);
      await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
      const port = (server.address() as AddressInfo).port;

      // Teams with a subscription each (customer on the team, as checkout leaves it).
      const product = fake.addProduct({ name: 'Tickerbell Pro', plan: 'pro' });
      const price = fake.addPrice({ product: product.id, unitAmount: 1500 });
      const subscriptions: FakeSubscription[] = [];
      for (let i = 0; i < TEAMS; i++) {
        const [{ id: teamId }] = await dataSource.query(`INSERT INTO teams (name) VALUES ($1) RETURNING id`, [`Bench team ${i}`]);
        const [{ id: userId }] = await dataSource.query(`INSERT INTO users (email, name) VALUES ($1, $2) RETURNING id`, [`owner${i}@bench.test`, `Owner ${i}`]);
        await dataSource.query(`INSERT INTO team_members (team_id, user_id, role) VALUES ($1, $2, 'owner')`, [teamId, userId]);
        const customer = fake.addCustomer({ metadata: { teamId: String(teamId) } });
        await dataSource.query(`UPDATE teams SET stripe_customer_id = $2 WHERE id = $1`, [teamId, customer.id]);
        subscriptions.push(fake.createSubscription({ customer: customer.id, price: price.id, metadata: { teamId: String(teamId) } }));
      }

      // The events: created, then updates cycling through statuses (what a month of renewals and failed payments sends).
      const statuses = ['active', 'past_due', 'active', 'past_due', 'unpaid', 'active'];
      const events: { id: string; body: Buffer; header: string }[] = [];
      for (let i = 0; i < EVENTS; i++) {
        const subscription = subscriptions[i % TEAMS];
        const round = Math.floor(i / TEAMS);
        const type = round === 0 ? 'customer.subscription.created' : 'customer.subscription.updated';
        const object = round === 0 ? subscription : fake.setSubscriptionStatus(subscription.id, statuses[round % statuses.length]);
        const event = fake.buildEvent(type, object);
        const { body, header } = fake.sign(event);
        events.push({ id: String(event.id), body, header });
      }

      // 1. Acknowledgement.
      for (const event of events.slice(0, 50)) await post(agent, port, event.body, event.header); // warm-up (stored; counted below)
      const ackMs: number[] = [];
      const statusCounts = new Map<number, number>();
      const started = performance.now();
      await pool(events.slice(50), SEND_CONCURRENCY, async (event) => {
        const t0 = performance.now();
        const status = await post(agent, port, event.body, event.header);
        ackMs.push(performance.now() - t0);
        statusCounts.set(status, (statusCounts.get(status) ?? 0) + 1);
      });
      const ackSeconds = (performance.now() - started) / 1000;
      ackMs.sort((a, b) => a - b);
      const ok = statusCounts.get(200) ?? 0;
      rows.push({
        scenario: `acknowledge ${ackMs.length.toLocaleString('en-US')} new events (${SEND_CONCURRENCY} at a time)`,
        'p50 ms': percentile(ackMs, 50).toFixed(1),
        'p99 ms': percentile(ackMs, 99).toFixed(1),
        'per second': Math.round(ackMs.length / ackSeconds),
        target: `p99 < ${ACK_TARGET_P99_MS} ms, all 200`,
        result: percentile(ackMs, 99) < ACK_TARGET_P99_MS && ok === ackMs.length ? 'pass' : `FAIL (${JSON.stringify([...statusCounts])})`,
      });

      // 2. Redeliveries.
      const redeliveries = events.slice(0, REDELIVERED);
      const redeliveryMs: number[] = [];
      let redeliveredOk = 0;
      await pool(redeliveries, SEND_CONCURRENCY, async (event) => {
        const t0 = performance.now();
        if ((await post(agent, port, event.body, event.header)) === 200) redeliveredOk++;
        redeliveryMs.push(performance.now() - t0);
      });
      redeliveryMs.sort((a, b) => a - b);
      const [{ stored }] = await dataSource.query(`SELECT count(*)::int AS stored FROM subscription_events`);
      rows.push({
        scenario: `redeliver ${REDELIVERED} stored events`,
        'p50 ms': percentile(redeliveryMs, 50).toFixed(1),
        'p99 ms': percentile(redeliveryMs, 99).toFixed(1),
        'per second': '-',
        target: `all 200, ${EVENTS} rows stored`,
        result: redeliveredOk === REDELIVERED && stored === EVENTS ? 'pass' : `FAIL (${redeliveredOk} ok, ${stored} rows)`,
      });

      // 3. Processing, in the order stored (as the queue would take them), 4 at a time.
      const stripe = createStripeClient(billingEnvSchema.parse(env)) as Stripe;
      const deps = { dataSource, stripe, queues, redis, clock: systemClock, logger, graceDays: config.BILLING_GRACE_DAYS };
      const processMs: number[] = [];
      const processStarted = performance.now();
      await pool(events, PROCESS_CONCURRENCY, async (event) => {
        const t0 = performance.now();
        await processStripeEvent(deps, event.id);
        processMs.push(performance.now() - t0);
      });
      const processSeconds = (performance.now() - processStarted) / 1000;
      processMs.sort((a, b) => a - b);
      const [{ unprocessed }] = await dataSource.query(`SELECT count(*)::int AS unprocessed FROM subscription_events WHERE processed_at IS NULL`);
      const [{ wrong }] = await dataSource.query(
        `SELECT count(*)::int AS wrong FROM teams t JOIN subscriptions s ON s.team_id = t.id WHERE t.subscription_status IS DISTINCT FROM s.status`,
      );
      rows.push({
        scenario: `process ${EVENTS.toLocaleString('en-US')} events (re-fetch + one transaction, ${PROCESS_CONCURRENCY} at a time)`,
        'p50 ms': percentile(processMs, 50).toFixed(1),
        'p99 ms': percentile(processMs, 99).toFixed(1),
        'per second': Math.round(EVENTS / processSeconds),
        target: 'all processed, teams match',
        result: unprocessed === 0 && wrong === 0 ? 'pass' : `FAIL (${unprocessed} unprocessed, ${wrong} teams differ)`,
      });
      return rows;
    } finally {
      agent.destroy();
      if (server) await new Promise((resolve) => server!.close(resolve));
      await fake.close();
      await queues.close();
      redis.disconnect();
      await deleteKeysWithPrefix(redisUrl, prefix);
      await database.drop();
    }
  },
};
