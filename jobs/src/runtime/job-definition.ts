import type { JobsOptions } from 'bullmq';
import type { z } from 'zod';
import type { QueueName } from '../queues';
import type { JobName } from '../registry';

export interface JobDefinition<S extends z.ZodType = z.ZodType> {
  queue: QueueName;
  description: string;
  /** The payload's schema: checked when a job is added and again when a worker takes it. */
  payload: S;
  /** Overrides of DEFAULT_JOB_OPTIONS for this job. */
  options?: JobsOptions;
}

export function defineJob<S extends z.ZodType>(definition: JobDefinition<S>): JobDefinition<S> {
  return definition;
}

const HOUR = 3600;

/**
 * Defaults for every job: retries with exponential backoff for transient failures, and bounded
 * retention so completed and failed jobs never fill Redis (and old failed ids never block re-adds).
 */
export const DEFAULT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 2000 },
  removeOnComplete: { age: 24 * HOUR, count: 1000 },
  removeOnFail: { age: 7 * 24 * HOUR, count: 5000 },
};

/**
 * The one format of a deterministic job id: the job's name and its natural key, `name/part/part`.
 * Equal work gets an equal id, so BullMQ adds it once (while the earlier one is retained). Parts
 * are percent-encoded, so a `/` in a key cannot collide and a `:` (BullMQ refuses it in ids) never appears.
 */
export function jobId(name: JobName, ...parts: (string | number)[]): string {
  return [name, ...parts.map((part) => encodeURIComponent(String(part)))].join('/');
}
