import type { Job, JobsOptions } from 'bullmq';
import pino from 'pino';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { JobQueues, createWorkerConnection, defineHandler, fixedClock, type JobHandler, type JobName, type JobPayload } from '@tickerbell/jobs';
import { SEEDS, runSeeds } from '@tickerbell/jobs/seeds';
import { alertsBarDemand, closeAlertIndexes } from '@tickerbell/jobs/alerts';
import {
  PriceFetchError,
  PriceSourceError,
  createPricesHandlers,
  loadPricesConfig,
  priceSourcesFromConfig,
  type PriceSource,
  type PriceSources,
} from '@tickerbell/jobs/prices';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl, waitForQueuesIdle } from '@tickerbell/jobs/testing/test-redis';
import { startWorkers, type WorkersRuntime } from '../../src/runtime';

const logger = pino({ level: 'silent' });

/** The poll's queue dependency, refusing the next `refuse` batches of evaluation jobs (as Redis would in a blip). */
class RefusingQueues extends JobQueues {
  refuse = 0;
  refused = 0;
  override async addBulk<N extends JobName>(items: { name: N; data: JobPayload<N>; options?: JobsOptions }[]): Promise<Job[]> {
    if (this.refuse > 0 && items.some((item) => item.name === 'alerts.evaluate')) {
      this.refuse--;
      this.refused++;
      throw new Error('injected: the evaluation jobs could not be queued');
    }
    return super.addBulk(items);
  }
}

describe('prices.poll retried on real workers: a tick stored by a failed attempt is evaluated once (simulated prices, fixed clock)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const T0 = '2026-11-23T10:00:00Z';
  const T1 = '2026-11-23T10:00:10Z';
  const clock = fixedClock(T0);
  const producer = createWorkerConnection(testRedisUrl());
  const queues = new JobQueues(producer, prefix);
  const workerConnection = createWorkerConnection(testRedisUrl());
  const workerQueuesConnection = createWorkerConnection(testRedisUrl());
  const workerQueues = new JobQueues(workerQueuesConnection, prefix);
  const pollQueues = new RefusingQueues(workerQueuesConnection, prefix);
  const config = loadPricesConfig({ PRICES_SOURCE: 'simulated', PRICES_SIMULATED_SEED: '7' });
  let runtime: WorkersRuntime;
  let alertId: number;
  let p0: string;
  let p1: string;
  /** Thrown by the next quotes call of the simulated source (as a provider's answer would be). */
  let providerFails: Error | null = null;

  beforeAll(async () => {
    db = await createTestDatabase();
    await runSeeds(db.dataSource, SEEDS.filter((s) => s.name === '2026-11-markets'));
    // The simulated walk's first two prices (a function of seed, symbol and step: any instance gives them).
    const walk = priceSourcesFromConfig(config, { clock, lastPrices: {} }).crypto!;
    [{ price: p0 }] = await walk.quotes(['BTCUSDT']);
    clock.set(T1);
    [{ price: p1 }] = await walk.quotes(['BTCUSDT']);
    clock.set(T0);
    expect(p1).not.toBe(p0);
    // A crossing between them: it fires only on the tick p0 -> p1, so only if that tick is evaluated with its previous price.
    const up = Number(p1) > Number(p0);
    const level = ((Number(p0) + Number(p1)) / 2).toFixed(2);
    const [{ id: userId }] = await db.dataSource.query(`INSERT INTO users (email) VALUES ('retry@example.test') RETURNING id`);
    [{ id: alertId }] = await db.dataSource.query(
      `INSERT INTO alerts (user_id, market_id, name, condition, value, params, frequency)
       SELECT $1, id, 'crossing', $2, $3, $4::jsonb, 'every_time' FROM markets WHERE symbol = 'BTCUSDT' RETURNING id`,
      [userId, up ? 'crossing_up' : 'crossing_down', level, JSON.stringify({ type: up ? 'crossing_up' : 'crossing_down', value: level })],
    );

    let sources: PriceSources | undefined;
    const handlers = createPricesHandlers({
      sources: async (context) => {
        if (sources) return sources;
        const built = priceSourcesFromConfig(config, { clock: context.clock, lastPrices: {} });
        const walk = built.crypto!;
        const failing: PriceSource = {
          name: walk.name,
          kind: walk.kind,
          quotes: (symbols) => {
            const error = providerFails;
            providerFails = null;
            return error ? Promise.reject(error) : walk.quotes(symbols);
          },
          candles: (symbol, interval, limit) => walk.candles(symbol, interval, limit),
        };
        return (sources = { ...built, crypto: failing, cryptoFallback: failing });
      },
      barDemand: [alertsBarDemand],
    });
    const poll = handlers.find((h) => h.name === 'prices.poll') as JobHandler<'prices.poll'>;
    runtime = await startWorkers({
      dataSource: db.dataSource,
      connection: workerConnection,
      queues: workerQueues,
      logger,
      clock,
      queueNames: ['prices', 'alerts'],
      schedules: [],
      overrides: [
        // The production poll handler, its queue dependency able to refuse the evaluation jobs.
        defineHandler('prices.poll', (payload, context) => poll.run(payload, { ...context, queues: pollQueues })),
        ...handlers.filter((h) => h.name !== 'prices.poll'),
      ],
    });
  });

  afterAll(async () => {
    await runtime.close();
    await closeAlertIndexes(db.dataSource);
    await pollQueues.close();
    await workerQueues.close();
    await queues.close();
    workerConnection.disconnect();
    workerQueuesConnection.disconnect();
    producer.disconnect();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  /** Waits until the job has completed, or failed with no attempt left (its retries are delayed jobs). */
  async function finished(job: Job): Promise<{ state: string; attemptsMade: number; returnvalue: unknown }> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      // The state first, the job read after it: a job read while its retry runs would show the earlier attempt count.
      const state = await queues.queue('prices').getJobState(job.id!);
      if (state === 'completed' || state === 'failed') {
        const current = (await queues.queue('prices').getJob(job.id!))!;
        return { state, attemptsMade: current.attemptsMade, returnvalue: current.returnvalue };
      }
      if (Date.now() > deadline) throw new Error(`prices.poll still ${state}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  const logs = async (): Promise<{ value: string }[]> =>
    db.dataSource.query(`SELECT trim_scale(value)::text AS value FROM alert_logs WHERE alert_id = $1`, [alertId]);

  it('the first attempt stores p1 and cannot queue its evaluation; the retry queues it; the crossing fires once', async () => {
    const first = await queues.add('prices.poll', { kind: 'crypto' });
    expect(await finished(first)).toMatchObject({ state: 'completed' });
    await waitForQueuesIdle([queues.queue('alerts')]);
    expect(await logs()).toEqual([]);

    clock.set(T1);
    pollQueues.refuse = 1;
    const second = await queues.add('prices.poll', { kind: 'crypto' });
    // Before: one attempt, failed, and the tick p0 -> p1 was never evaluated.
    expect(await finished(second)).toMatchObject({ state: 'completed', attemptsMade: 2, returnvalue: { updated: 0, caughtUp: 1 } });
    expect(pollQueues.refused).toBe(1);
    await waitForQueuesIdle([queues.queue('alerts')]);
    expect(await logs()).toEqual([{ value: String(Number(p1)) }]);

    // Polls at the same instant (a retry, a late scheduled poll) evaluate nothing again.
    const third = await queues.add('prices.poll', { kind: 'crypto' });
    expect(await finished(third)).toMatchObject({ state: 'completed', returnvalue: { updated: 0, caughtUp: 0, evaluateJobs: 0 } });
    await waitForQueuesIdle([queues.queue('alerts')]);
    const evaluations = (await queues.queue('alerts').getJobs(['completed'])).filter((j) => j.name === 'alerts.evaluate').sort((a, b) => a.timestamp - b.timestamp);
    expect(evaluations.map((j) => (j.data.ticks as { previous: string | null; current: string }[]).map((t) => [t.previous, t.current]))).toEqual([[[null, p0]], [[p0, p1]]]);
    expect(await logs()).toHaveLength(1);
  });

  it('a transient provider failure is retried; a refused request is not (the next scheduled poll asks again)', async () => {
    providerFails = new PriceFetchError('HTTP 503 from the provider', 503);
    const transient = await queues.add('prices.poll', { kind: 'crypto' });
    expect(await finished(transient)).toMatchObject({ state: 'completed', attemptsMade: 2 });

    providerFails = new PriceSourceError('HTTP 403 from the provider', 403);
    const refused = await queues.add('prices.poll', { kind: 'crypto' });
    expect(await finished(refused)).toMatchObject({ state: 'failed', attemptsMade: 1 });
    expect((await queues.queue('prices').getJob(refused.id!))!.failedReason).toContain('HTTP 403');
  });
});
