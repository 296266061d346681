import { join } from 'node:path';
import type { Job } from 'bullmq';
import pino from 'pino';
import request from 'supertest';
import { createDataSource } from '@tickerbell/entities';
import { JobQueues, createWorkerConnection, defineHandler, fixedClock } from '@tickerbell/jobs';
import { alertChangesChannel, alertsBarDemand, closeAlertIndexes } from '@tickerbell/jobs/alerts';
import { createPricesHandlers, loadPricesConfig, priceSourcesFromConfig, type PriceSources } from '@tickerbell/jobs/prices';
import { SEEDS, runSeeds } from '@tickerbell/jobs/seeds';
import { testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers } from '../../../workers/src/runtime';
import { AccountsHarness, csrfOf, signedInUser, type Agent } from '../support/accounts-harness';

const logger = pino({ level: 'silent' });
const RECORDINGS = join(__dirname, '..', '..', '..', 'jobs', 'test', 'fixtures', 'prices');
// The instant of the recorded BTCUSDT quote (60,740): the replay source answers it.
const NOW = '2021-10-22T23:30:00Z';

/**
 * Issue 21, defect 1, end to end: a signed-in user with an every-time BTCUSDT alert that the next
 * price meets deletes the account through the api (DELETE /api/user); a real prices poll then
 * evaluates the price on real workers (their own data source, so their own alert index, built
 * before the deletion). Nothing may reach the deleted user: no firing, no notification, no push,
 * email or webhook. A second user with the same alert is the control: the poll did fire for them.
 */
describe('accounts: a deleted account stops alerting at once (api, real prices poll and alert workers)', () => {
  const harness = new AccountsHarness();
  const clock = fixedClock(NOW);
  const closers: (() => Promise<void> | void)[] = [];

  beforeAll(async () => {
    await harness.start();
    await runSeeds(harness.db.dataSource, SEEDS.filter((s) => s.name === '2026-11-markets'));
  });

  afterAll(async () => {
    for (const close of closers.splice(0).reverse()) await close();
    await harness.stop();
  });

  /** A worker "process" for prices and alerts, with replay price sources; webhooks are recorded, not sent. */
  async function alertWorkers(webhooks: string[]) {
    const dataSource = createDataSource({ url: harness.db.url, poolSize: 5, applicationName: 'tickerbell-test-alert-worker' });
    await dataSource.initialize();
    const connection = createWorkerConnection(testRedisUrl());
    const queuesConnection = createWorkerConnection(testRedisUrl());
    const queues = new JobQueues(queuesConnection, harness.prefix);
    let sources: PriceSources | undefined;
    const runtime = await startWorkers({
      dataSource,
      connection,
      queues,
      logger,
      clock,
      queueNames: ['prices', 'alerts'],
      schedules: [],
      overrides: [
        ...createPricesHandlers({
          sources: async (context) =>
            (sources ??= priceSourcesFromConfig(loadPricesConfig({ PRICES_SOURCE: 'replay', PRICES_REPLAY_DIR: RECORDINGS }), { clock: context.clock })),
          barDemand: [alertsBarDemand],
        }),
        defineHandler('alerts.webhook', async (payload) => {
          webhooks.push(payload.alertLogId);
          return 'recorded';
        }),
      ],
    });
    closers.push(async () => {
      await runtime.close();
      await closeAlertIndexes(dataSource);
      await queues.close();
      connection.disconnect();
      queuesConnection.disconnect();
      await dataSource.destroy();
    });
  }

  /** A signed-up user with a browser subscribed to pushes and an every-time alert on BTCUSDT above 1,000 (push, email, webhook). */
  async function trader(app: ReturnType<AccountsHarness['app']>, email: string, n: number) {
    const agent: Agent = request.agent(app);
    const id = await signedInUser(harness, agent, email);
    const csrf = await csrfOf(agent);
    const keys = { p256dh: Buffer.alloc(65, 4).toString('base64url'), auth: Buffer.alloc(16, 7).toString('base64url') };
    const subscription = await agent.post('/api/push/subscriptions').set('x-csrf-token', csrf).send({ endpoint: `http://127.0.0.1:9/push/${n}`, keys }).expect(201);
    const created = await agent
      .post('/api/alerts')
      .set('x-csrf-token', csrf)
      .send({
        name: `BTC above 1000 #${n}`,
        symbol: 'BTCUSDT',
        condition: { type: 'greater_than', value: '1000' },
        frequency: 'every_time',
        notifyPush: true,
        notifyEmail: true,
        webhookUrl: 'http://127.0.0.1:9/hook',
      })
      .expect(201);
    return { agent, csrf, id, email, alertId: created.body.alert.id as number, subscriptionId: subscription.body.id as number, name: `BTC above 1000 #${n}` };
  }

  it('deleting the account from settings leaves no firing, notification, push, email or webhook for the user', async () => {
    const app = harness.app({}, clock);
    const leaver = await trader(app, 'leaver@example.com', 1);
    const stayer = await trader(app, 'stayer@example.com', 2);
    const webhooks: string[] = [];
    await alertWorkers(webhooks);

    // The workers build their alert index (both alerts) on a first evaluation, of another symbol.
    await harness.queues.add('alerts.evaluate', { ticks: [{ symbol: 'ETHUSDT', previous: null, current: '1', at: new Date(NOW).toISOString() }] });
    await waitForQueuesIdle([harness.queues.queue('alerts')]);

    // Delete the account through the api, as the settings page does; the workers' index is told.
    const changes = createWorkerConnection(testRedisUrl());
    closers.push(() => changes.disconnect());
    const announced: number[] = [];
    changes.on('message', (_channel: string, text: string) => announced.push(...(JSON.parse(text) as { alertIds: number[] }).alertIds));
    await changes.subscribe(alertChangesChannel(harness.prefix));
    await leaver.agent.delete('/api/user').set('x-csrf-token', leaver.csrf).send({}).expect(204);
    const deadline = Date.now() + 5000;
    while (!announced.includes(leaver.alertId) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));

    // The next crypto poll: BTCUSDT at 60,740 meets both alerts.
    await harness.queues.add('prices.poll', { kind: 'crypto' });
    await waitForQueuesIdle([harness.queues.queue('prices'), harness.queues.queue('alerts')]);
    await harness.smtp.waitFor(stayer.email, new RegExp(stayer.name));
    await waitForQueuesIdle([harness.queues.queue('alerts'), harness.queues.queue('mail')]);

    const db = harness.db.dataSource;
    const logsOf = async (alertId: number): Promise<string[]> =>
      (await db.query('SELECT id FROM alert_logs WHERE alert_id = $1', [alertId])).map((r: { id: string }) => String(r.id));
    const notificationsOf = async (userId: number): Promise<number> =>
      (await db.query('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1', [userId]))[0].n;
    const pushJobs: Job[] = await harness.queues.queue('notifications').getJobs(['waiting', 'delayed', 'active', 'completed', 'failed']);
    const pushedTo = pushJobs.flatMap((j) => (j.data as { targets: { subscriptionId: number }[] }).targets.map((t) => t.subscriptionId));

    // The control: the poll fired the live user's alert and delivered it on every channel.
    const stayerLogs = await logsOf(stayer.alertId);
    expect(stayerLogs).toHaveLength(1);
    expect(await notificationsOf(stayer.id)).toBe(1);
    expect(pushedTo).toContain(stayer.subscriptionId);
    expect(webhooks).toEqual(stayerLogs);

    // The deleted user: nothing.
    expect(await logsOf(leaver.alertId)).toEqual([]);
    expect(await notificationsOf(leaver.id)).toBe(0);
    expect(pushedTo).not.toContain(leaver.subscriptionId);
    expect(harness.smtp.messages.filter((m) => m.to.includes(leaver.email) && m.subject.includes(leaver.name))).toEqual([]);
    // No worker index keeps the alert: the deletion announced it on the alerts change channel.
    expect(announced).toContain(leaver.alertId);
  });
});
