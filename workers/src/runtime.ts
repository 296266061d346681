import { hostname } from 'node:os';
import { DelayedError, UnrecoverableError, Worker, type Job } from 'bullmq';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { InvalidJobError, JOBS, QUEUES, QUEUE_NAMES, SCHEDULES, defaultDomainConfigs, isJobName, parseJobPayload, recordJob, repeatingErrorLog, startDomains, systemClock, type Clock, type DomainConfigs, type JobHandler, type JobQueues, type Logger, type QueueDefinition, type QueueName, type ScheduleDefinition } from '@tickerbell/jobs';
import { type Mailer } from '@tickerbell/jobs/mail';
import { indexHandlers } from './handlers-check';
import { registerSchedules, type ScheduleRegistration } from './schedules';

export interface WorkersRuntimeOptions {
  dataSource: DataSource;
  /** A connection with maxRetriesPerRequest: null (createWorkerConnection). */
  connection: Redis;
  queues: JobQueues;
  logger: Logger;
  clock?: Clock;
  /** Outgoing mail for mail.send (createMailer); without one, mail jobs fail for good. */
  mailer?: Mailer;
  /**
   * Every domain's configuration (loadWorkersConfig); default: each domain's defaults. The runtime
   * starts the domains (their handlers, built once) and closes them when it closes.
   */
  domains?: DomainConfigs;
  /** Handlers that replace the domains' handlers of the same jobs (tests: a fake source, a crashing job). */
  overrides?: JobHandler[];
  /** An explicit list of handlers instead of the domains' (the runtime's own tests). */
  handlers?: JobHandler[];
  schedules?: ScheduleDefinition[];
  /** The queues this process works on (default: all). */
  queueNames?: QueueName[];
}

export interface WorkersRuntime {
  workers: Worker[];
  schedules: ScheduleRegistration;
  /** Identity of this process in health reports. */
  id: string;
  /** Stops taking jobs, waits for the running ones, closes the workers, then every domain's resources. */
  close(): Promise<void>;
}

/** The BullMQ processor shared by every queue: validate, dispatch to the job's handler. */
export function createProcessor(
  handlers: Map<string, JobHandler>,
  context: Pick<WorkersRuntimeOptions, 'dataSource' | 'queues' | 'logger' | 'mailer'> & { clock: Clock },
) {
  const run = async (job: Job): Promise<unknown> => {
    if (!isJobName(job.name)) throw new UnrecoverableError(`Unknown job "${job.name}"`);
    let payload;
    try {
      payload = parseJobPayload(job.name, job.data);
    } catch (error) {
      // Bad data never gets better by retrying: fail for good, with the reason on the job.
      if (error instanceof InvalidJobError) throw new UnrecoverableError(error.message);
      throw error;
    }
    const handler = handlers.get(job.name)!;
    const logger = context.logger.child({ job: job.name, jobId: job.id, attempt: job.attemptsMade + 1 });
    return handler.run(payload, { ...context, redis: context.queues.redis, logger, job });
  };
  // Every attempt timed and counted by queue and job (tickerbell_job_duration_seconds, tickerbell_jobs_total).
  return async (job: Job): Promise<unknown> => {
    // A name no producer of ours writes is one label, not one per stray name.
    const labels = { queue: job.queueName, job: isJobName(job.name) ? job.name : 'unknown' };
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    try {
      const result = await run(job);
      recordJob({ ...labels, outcome: 'completed' }, seconds());
      return result;
    } catch (error) {
      recordJob({ ...labels, outcome: error instanceof DelayedError ? 'delayed' : 'failed' }, seconds());
      throw error;
    }
  };
}

export async function startWorkers(options: WorkersRuntimeOptions): Promise<WorkersRuntime> {
  const clock = options.clock ?? systemClock;
  const domainConfigs = options.domains ?? defaultDomainConfigs();
  const domains = options.handlers
    ? undefined
    : startDomains(domainConfigs, { dataSource: options.dataSource, queues: options.queues, clock, logger: options.logger });
  const replaced = new Set((options.overrides ?? []).map((h) => h.name));
  const handlers = indexHandlers([
    ...(options.handlers ?? domains!.handlers).filter((h) => !replaced.has(h.name)),
    ...(options.overrides ?? []),
  ]);
  const queueNames = (options.queueNames ?? QUEUE_NAMES).filter((q) =>
    Object.values(JOBS).some((job) => job.queue === q),
  );
  const processor = createProcessor(handlers, { ...options, clock });
  const id = `${hostname()}:${process.pid}`;

  const workerErrors = repeatingErrorLog(options.logger, 'error');
  const workers = queueNames.map((queueName) => {
    const definition: QueueDefinition = QUEUES[queueName];
    const worker = new Worker(queueName, processor, {
      connection: options.connection,
      prefix: options.queues.prefix,
      concurrency: definition.concurrency,
      limiter: definition.limiter,
      name: id,
    });
    worker.on('failed', (job, error) => {
      options.logger.warn(
        { queue: queueName, job: job?.name, jobId: job?.id, attempts: job?.attemptsMade, err: error.message },
        'job failed',
      );
    });
    // During a Redis outage each blocking call fails every second or so: logged once per 30 s.
    worker.on('error', (error) => workerErrors({ queue: queueName }, error, 'worker error'));
    return worker;
  });
  await Promise.all(workers.map((w) => w.waitUntilReady()));

  const wanted = (options.schedules ?? SCHEDULES).filter((schedule) => schedule.enabled?.(domainConfigs) ?? true);
  const schedules = await registerSchedules(options.queues, wanted, queueNames);
  options.logger.info(
    { queues: queueNames, schedules: schedules.registered, removedSchedules: schedules.removed },
    'workers ready',
  );

  return {
    workers,
    schedules,
    id,
    async close() {
      await Promise.all(workers.map((w) => w.close()));
      await domains?.close();
    },
  };
}
