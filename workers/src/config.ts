import { z } from 'zod';
import { commonEnvSchema, mailEnvSchema, parseEnv, pushEnvSchema, readPushEnv, QUEUE_NAMES, type QueueName } from '@tickerbell/jobs';

export const workersEnvSchema = commonEnvSchema.extend({
  ...mailEnvSchema.shape,
  ...pushEnvSchema.shape,
  WORKER_QUEUES: z
    .string()
    .transform((value) => value.split(',').map((q) => q.trim()).filter(Boolean))
    .pipe(z.array(z.enum(QUEUE_NAMES as [QueueName, ...QueueName[]])).min(1))
    .optional(),
  WORKER_HEALTH_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  WORKER_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(30000),
});

export type WorkersConfig = z.infer<typeof workersEnvSchema>;

export function loadWorkersConfig(env: Record<string, string | undefined> = process.env): WorkersConfig {
  const config = parseEnv(workersEnvSchema, env, 'workers');
  readPushEnv(env, 'workers');
  return config;
}
