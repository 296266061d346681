import { hostname } from 'node:os';
import { UnrecoverableError, Worker, type Job } from 'bullmq';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import {
  HANDLERS,
  InvalidJobError,
  JOBS,
  QUEUES,
  QUEUE_NAMES,
  SCHEDULES,
  isJobName,
  parseJobPayload,
  systemClock,
  type Clock,
  type JobHandler,
  type JobQueues,
  type Logger,
  type Mailer,
  type QueueDefinition,
  type QueueName,
  type ScheduleDefinition,
} from '@tickerbell/jobs';
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
  /** Stops taking jobs, waits for the running ones, closes the workers. */
  close(): Promise<void>;
}

/** The BullMQ processor shared by every queue: validate, dispatch to the job's handler. */
export function createProcessor(
  handlers: Map<string, JobHandler>,
  context: Omit<WorkersRuntimeOptions, 'connection' | 'handlers' | 'schedules' | 'queueNames'> & { clock: Clock },
) {
  return async (job: Job): Promise<unknown> => {
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
    return handler.run(payload, { ...context, logger, job });
  };
}

export async function startWorkers(options: WorkersRuntimeOptions): Promise<WorkersRuntime> {
  const handlers = indexHandlers(options.handlers ?? HANDLERS);
  const clock = options.clock ?? systemClock;
  const queueNames = (options.queueNames ?? QUEUE_NAMES).filter((q) =>
    Object.values(JOBS).some((job) => job.queue === q),
  );
  const processor = createProcessor(handlers, { ...options, clock });
  const id = `${hostname()}:${process.pid}`;

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
    worker.on('error', (error) => options.logger.error({ queue: queueName, err: error.message }, 'worker error'));
    return worker;
  });
  await Promise.all(workers.map((w) => w.waitUntilReady()));

  const schedules = await registerSchedules(options.queues, options.schedules ?? SCHEDULES, queueNames);
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
    },
  };
}
