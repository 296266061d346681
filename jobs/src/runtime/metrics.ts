import type { Job } from 'bullmq';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import type { DataSource } from 'typeorm';
import { listSourceHealth } from '../sources/source-health';
import type { JobQueues } from './job-queues';
import type { Logger } from './logger';

/**
 * Prometheus metrics (prom-client). What happens in a process (jobs run, deliveries finished,
 * requests answered) is counted on module-level metrics in `processMetrics`, so the code that
 * counts needs no handle; what is stored elsewhere (queue depth in Redis, source health in
 * PostgreSQL) is read when scraped. Each process serves `createMetricsRegistry(...)`: the api at
 * `GET /metrics`, the workers on their health port. Names and labels are listed in the README.
 */

export const METRICS_PREFIX = 'tickerbell_';

/** This process's own metrics: the default process metrics and every counter below. */
export const processMetrics = new Registry();

export type DeliveryChannel = 'push' | 'email' | 'webhook' | 'telegram';
/**
 * How a delivery finished: `sent`; `retry` (a transient failure, tried again later); `failed`
 * (given up: refused for good or out of attempts); `gone` (push: the subscription no longer
 * exists, deleted; telegram: the chat blocked the bot, unlinked); `expired` (push: older than its
 * TTL by the time it was sent).
 */
export type DeliveryOutcome = 'sent' | 'retry' | 'failed' | 'gone' | 'expired';

export const deliveryOutcomes = new Counter({
  name: `${METRICS_PREFIX}deliveries_total`,
  help: 'Push, email, webhook and Telegram deliveries by how they finished (one per target and attempt)',
  labelNames: ['channel', 'outcome'] as const,
  registers: [processMetrics],
});

/** Counts `count` deliveries of a channel that finished with this outcome. */
export function countDeliveries(channel: DeliveryChannel, outcome: DeliveryOutcome, count = 1): void {
  if (count > 0) deliveryOutcomes.inc({ channel, outcome }, count);
}

/**
 * The outcome of a delivery attempt that failed: `failed` when it is permanent or the job's last
 * attempt, else `retry` (BullMQ tries again). Without a job (a direct call), the caller decides: `retry`.
 */
export function failedDeliveryOutcome(job: Pick<Job, 'opts' | 'attemptsMade'> | undefined, permanent = false): DeliveryOutcome {
  if (permanent) return 'failed';
  if (!job) return 'retry';
  return (job.opts.attempts ?? 1) - (job.attemptsMade + 1) <= 0 ? 'failed' : 'retry';
}

/** delayed: the job moved itself to later (BullMQ's DelayedError, e.g. a 429's retry_after), which uses no attempt. */
export type JobOutcome = 'completed' | 'failed' | 'delayed';

export const jobDuration = new Histogram({
  name: `${METRICS_PREFIX}job_duration_seconds`,
  help: 'Time a job attempt ran in a worker, by queue, job name and outcome',
  labelNames: ['queue', 'job', 'outcome'] as const,
  // From a quick claim to a yearly COT import.
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  registers: [processMetrics],
});

export const jobsTotal = new Counter({
  name: `${METRICS_PREFIX}jobs_total`,
  help: 'Job attempts run by a worker, by queue, job name and outcome (a retried failure counts once per attempt)',
  labelNames: ['queue', 'job', 'outcome'] as const,
  registers: [processMetrics],
});

/** One job attempt: its duration and its outcome. */
export function recordJob(labels: { queue: string; job: string; outcome: JobOutcome }, seconds: number): void {
  jobDuration.observe(labels, seconds);
  jobsTotal.inc(labels);
}

export const scrapeErrors = new Counter({
  name: `${METRICS_PREFIX}scrape_errors_total`,
  help: 'Scrapes whose collector could not read its store (its samples were left out of that scrape)',
  labelNames: ['collector'] as const,
  registers: [processMetrics],
});

let defaultsCollected = false;

/** The default process metrics (CPU, memory, event loop, GC), once per process. */
function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ register: processMetrics, prefix: METRICS_PREFIX });
}

/** Every state BullMQ counts a job in. */
export const QUEUE_JOB_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized', 'waiting-children'] as const;

export interface MetricsSources {
  /** Queue depth of every queue (`tickerbell_queue_jobs`). */
  queues?: JobQueues;
  /** Source health from `source_health` (`tickerbell_source_up`, `tickerbell_source_last_success_seconds`). */
  dataSource?: DataSource;
  logger?: Logger;
}

/**
 * The registry a process serves. Its `metrics()` (a scrape) first reads what other stores hold
 * (queue depth, source health), all of them before any metric is written out, so a store that
 * failed is already counted in `tickerbell_scrape_errors_total` of the same scrape.
 */
export class MetricsRegistry extends Registry {
  private readonly reads: (() => Promise<void>)[] = [];

  /** A read of a store that sets its gauges before each scrape. */
  beforeScrape(read: () => Promise<void>): void {
    this.reads.push(read);
  }

  override async metrics(): Promise<string> {
    await Promise.all(this.reads.map((read) => read()));
    return super.metrics();
  }
}

/** A store that hangs (an unreachable host) fails its read instead of the whole scrape (Prometheus' own timeout is 10 s). */
const SCRAPE_READ_TIMEOUT_MS = 3000;

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A gauge set from a store at scrape time. A failing store leaves this gauge's samples out of
 * the scrape (and counts a scrape error) instead of failing the whole scrape with a 500.
 */
function scrapedGauge<L extends string, T>(
  registry: MetricsRegistry,
  logger: Logger | undefined,
  config: { name: string; help: string; labelNames: readonly L[] },
  read: () => Promise<T>,
  write: (gauge: Gauge<L>, value: T) => void,
): void {
  const gauge = new Gauge<L>({ ...config, name: `${METRICS_PREFIX}${config.name}`, registers: [registry] });
  registry.beforeScrape(async () => {
    let value: T;
    try {
      value = await withTimeout(read(), SCRAPE_READ_TIMEOUT_MS, `${config.name}: no answer in ${SCRAPE_READ_TIMEOUT_MS} ms`);
    } catch (error) {
      gauge.reset();
      scrapeErrors.inc({ collector: config.name });
      logger?.warn({ collector: config.name, err: error instanceof Error ? error.message : String(error) }, 'metrics: a store could not be read, its samples are left out');
      return;
    }
    // Reset and set together, after the read: a scrape never sees a half-written gauge.
    gauge.reset();
    write(gauge, value);
  });
}

/**
 * The registry a process serves: this process's metrics (processMetrics), plus gauges of what
 * `sources` hold, read on each scrape. Metrics registered on the result (the api's request
 * histogram) are this registry's alone.
 */
export function createMetricsRegistry(sources: MetricsSources = {}): MetricsRegistry {
  collectProcessMetrics();
  const registry = new MetricsRegistry();
  // As Registry.merge does: the metric objects themselves, typed as plain objects by prom-client.
  for (const metric of processMetrics.getMetricsAsArray()) registry.registerMetric(metric as unknown as Metric);
  const { queues, dataSource, logger } = sources;
  if (queues) {
    scrapedGauge(
      registry,
      logger,
      { name: 'queue_jobs', help: 'Jobs in each queue by state, read from BullMQ when scraped', labelNames: ['queue', 'state'] },
      () => Promise.all(queues.all().map(async (queue) => ({ queue: queue.name, counts: await queue.getJobCounts(...QUEUE_JOB_STATES) }))),
      (gauge, all) => {
        for (const { queue, counts } of all) for (const state of QUEUE_JOB_STATES) gauge.set({ queue, state }, counts[state] ?? 0);
      },
    );
  }
  if (dataSource) {
    // source_health holds a row per source: reading it twice a scrape costs nothing.
    const read = () => listSourceHealth(dataSource);
    scrapedGauge(
      registry,
      logger,
      { name: 'source_up', help: "1 when a data source's last call succeeded, 0 while it is failing (source_health)", labelNames: ['source'] },
      read,
      (gauge, rows) => {
        for (const row of rows) gauge.set({ source: row.source }, row.consecutiveFailures === 0 && row.lastSuccessAt ? 1 : 0);
      },
    );
    scrapedGauge(
      registry,
      logger,
      { name: 'source_last_success_seconds', help: "Unix time of a data source's last successful call (source_health; absent before its first success)", labelNames: ['source'] },
      read,
      (gauge, rows) => {
        for (const row of rows) if (row.lastSuccessAt) gauge.set({ source: row.source }, row.lastSuccessAt.getTime() / 1000);
      },
    );
  }
  return registry;
}
