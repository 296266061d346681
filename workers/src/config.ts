import { z } from 'zod';
import { commonEnvSchema, loadProcessConfig, QUEUE_NAMES, type QueueName } from '@tickerbell/jobs';

/** The workers' own variables; each domain's (cot, prices, mail, push, ...) come from its domain. */
export const workersEnvSchema = commonEnvSchema.extend({
  WORKER_QUEUES: z
    .string()
    .transform((value) => value.split(',').map((q) => q.trim()).filter(Boolean))
    .pipe(z.array(z.enum(QUEUE_NAMES as [QueueName, ...QueueName[]])).min(1))
    .optional(),
  WORKER_HEALTH_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  WORKER_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(30000),
});

/** The workers' and every domain's configuration, validated together: a ConfigError names every bad variable. */
export function loadWorkersConfig(env: Record<string, string | undefined> = process.env) {
  return loadProcessConfig(workersEnvSchema, env, 'workers');
}

export type WorkersConfig = ReturnType<typeof loadWorkersConfig>['config'];
