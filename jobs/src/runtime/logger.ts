import pino, { type Logger } from 'pino';

export type { Logger };

export function createLogger(name: string, level = 'info'): Logger {
  return pino({
    name,
    level,
    // Secrets never reach the logs, whatever a caller passes in.
    redact: {
      paths: ['password', '*.password', 'token', '*.token', 'authorization', '*.authorization', 'headers.cookie'],
      censor: '[redacted]',
    },
  });
}

/**
 * A log line for errors that repeat while an outage lasts (a Redis connection retried every
 * second, each worker's blocking call): the first of each message is logged, the repeats within
 * `windowMs` are counted and reported with the next one logged.
 */
export function repeatingErrorLog(logger: Logger, level: 'warn' | 'error' = 'warn', windowMs = 30_000) {
  const seen = new Map<string, { at: number; repeats: number }>();
  return (fields: Record<string, unknown>, error: Error, message: string): void => {
    const key = `${message}|${JSON.stringify(fields)}|${error.message}`;
    const now = Date.now();
    const last = seen.get(key);
    if (last && now - last.at < windowMs) {
      last.repeats++;
      return;
    }
    seen.set(key, { at: now, repeats: 0 });
    logger[level]({ ...fields, err: error.message, ...(last?.repeats ? { repeatsSinceLast: last.repeats } : {}) }, message);
  };
}

/** Logs a connection's errors (at most once per message every 30 s): an ioredis client without an error listener prints each retry to stderr. */
export function logConnectionErrors(redis: { on(event: 'error', listener: (error: Error) => void): unknown }, logger: Logger, name: string): void {
  const log = repeatingErrorLog(logger);
  redis.on('error', (error) => log({ connection: name }, error, 'redis connection error'));
}
