import type { Job } from 'bullmq';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import type { Mailer } from '../mail/mailer';
import type { JobName, JobPayload } from '../registry';
import type { Clock } from './clock';
import type { JobQueues } from './job-queues';
import type { Logger } from './logger';

/** What a processor gets besides its payload: its dependencies, injected so tests can run it. */
export interface JobContext {
  dataSource: DataSource;
  queues: JobQueues;
  /** Plain Redis commands (claims, pub/sub, the price store): the connection the queues use. */
  redis: Redis;
  clock: Clock;
  logger: Logger;
  /** Outgoing mail (mail.send); workers always have one, a processor called directly may not. */
  mailer?: Mailer;
  /** The BullMQ job (progress, attempts); absent when a processor is called directly. */
  job?: Job;
}

export interface JobHandler<N extends JobName = JobName> {
  name: N;
  // Method syntax on purpose: a list of handlers for different jobs is a JobHandler[].
  run(payload: JobPayload<N>, context: JobContext): Promise<unknown>;
}

export function defineHandler<N extends JobName>(
  name: N,
  run: (payload: JobPayload<N>, context: JobContext) => Promise<unknown>,
): JobHandler<N> {
  return { name, run };
}
