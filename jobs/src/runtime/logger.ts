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
