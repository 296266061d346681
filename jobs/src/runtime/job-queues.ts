import { Queue, type Job, type JobsOptions } from 'bullmq';
import type Redis from 'ioredis';
import { QUEUE_NAMES, type QueueName } from '../queues';
import { JOBS, isJobName, type JobName, type JobPayload } from '../registry';
import { DEFAULT_JOB_OPTIONS } from './job-definition';

/** A payload that does not match its job's schema, or a job name that does not exist. */
export class InvalidJobError extends Error {
  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'InvalidJobError';
  }
}

/** Checks a payload against its job's schema; returns the parsed payload. */
export function parseJobPayload<N extends JobName>(name: N, data: unknown): JobPayload<N> {
  if (!isJobName(name)) throw new InvalidJobError(`Unknown job "${String(name)}"`);
  const result = JOBS[name].payload.safeParse(data);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join('.') || '(payload)'}: ${i.message}`);
    throw new InvalidJobError(`Invalid payload for job "${name}": ${issues.join('; ')}`, result.error.issues);
  }
  return result.data as JobPayload<N>;
}

export function jobOptions(name: JobName, overrides?: JobsOptions): JobsOptions {
  return { ...DEFAULT_JOB_OPTIONS, ...JOBS[name].options, ...overrides };
}

/**
 * The producer side of every queue. Validates payloads before they reach Redis, applies each
 * job's default options, and routes each job to its queue.
 */
export class JobQueues {
  private readonly queues = new Map<QueueName, Queue>();

  /**
   * `redis` is also the runtime's plain Redis access for processors (claims, pub/sub publish, the
   * price store): the ioredis instance itself, not BullMQ's client, which is a proxy that
   * reinterprets some commands in its structured form (its pipeline's hset(key, field, value)
   * writes the field's characters and drops the value).
   */
  constructor(
    readonly redis: Redis,
    readonly prefix: string,
  ) {}

  queue(name: QueueName): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.redis, prefix: this.prefix });
      // A Queue repeats its connection's errors and, with no listener, prints each to stderr: the
      // connection's owner logs them (logConnectionErrors).
      queue.on('error', () => undefined);
      this.queues.set(name, queue);
    }
    return queue;
  }

  all(): Queue[] {
    return QUEUE_NAMES.map((name) => this.queue(name));
  }

  async add<N extends JobName>(name: N, data: JobPayload<N>, options?: JobsOptions): Promise<Job> {
    const payload = parseJobPayload(name, data);
    return this.queue(JOBS[name].queue).add(name, payload, jobOptions(name, options));
  }

  /** Adds many jobs, one round trip per queue. */
  async addBulk<N extends JobName>(items: { name: N; data: JobPayload<N>; options?: JobsOptions }[]): Promise<Job[]> {
    const byQueue = new Map<QueueName, { name: string; data: unknown; opts: JobsOptions }[]>();
    for (const item of items) {
      const queueName = JOBS[item.name].queue;
      const list = byQueue.get(queueName) ?? [];
      list.push({ name: item.name, data: parseJobPayload(item.name, item.data), opts: jobOptions(item.name, item.options) });
      byQueue.set(queueName, list);
    }
    const added = await Promise.all([...byQueue].map(([queueName, jobs]) => this.queue(queueName).addBulk(jobs)));
    return added.flat();
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((q) => q.close()));
    this.queues.clear();
  }
}
