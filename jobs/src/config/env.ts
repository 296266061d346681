import { z } from 'zod';

/** A configuration that failed validation; its message names every bad variable. */
export class ConfigError extends Error {
  constructor(
    readonly issues: { variable: string; message: string }[],
    processName: string,
  ) {
    super(
      `Invalid configuration for ${processName}:\n` +
        issues.map((i) => `  ${i.variable}: ${i.message}`).join('\n') +
        '\nSee .env.example for every variable and its meaning.',
    );
    this.name = 'ConfigError';
  }
}

/** Parses process.env (or another record) with a schema; throws ConfigError naming each bad variable. */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
  processName: string,
): z.infer<S> {
  return parseEnvs([schema], env, processName)[0] as z.infer<S>;
}

/**
 * Parses the environment with several schemas (a process's own and each domain's) and throws one
 * ConfigError naming every bad variable of all of them; returns each schema's result in order.
 */
export function parseEnvs(schemas: readonly z.ZodType[], env: Record<string, string | undefined>, processName: string): unknown[] {
  // Empty strings count as unset, as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const issues = new Map<string, { variable: string; message: string }>();
  const results = schemas.map((schema) => {
    const result = schema.safeParse(cleaned);
    if (result.success) return result.data;
    for (const issue of result.error.issues) {
      const variable = issue.path.map(String).join('.') || '(root)';
      // Shared variables (NODE_ENV) are in several schemas: name each problem once.
      issues.set(`${variable}\n${issue.message}`, { variable, message: issue.message });
    }
    return undefined;
  });
  if (issues.size) throw new ConfigError([...issues.values()], processName);
  return results;
}

/** For a process's main: load its configuration, or print the ConfigError and exit 1. */
export function loadConfigOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
}

const url = (protocols: string[]) =>
  z.string().refine((value) => {
    try {
      return protocols.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}`);

/** Variables every process shares. Each is described in .env.example. */
export const commonEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DATABASE_URL: url(['postgres:', 'postgresql:']),
  REDIS_URL: url(['redis:', 'rediss:']),
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9{}_-]+$/, 'letters, digits, _, - and {} (a Redis Cluster hash tag) only')
    .default('tb'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
});

export type CommonEnv = z.infer<typeof commonEnvSchema>;
