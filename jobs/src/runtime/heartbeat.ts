/** What each worker process writes to Redis every few seconds; the api's status page reads it. */
export interface WorkerHeartbeat {
  id: string;
  queues: string[];
  startedAt: string;
  at: string;
  running: boolean;
}

export const HEARTBEAT_TTL_SECONDS = 30;

export function heartbeatKey(prefix: string, id: string): string {
  return `${prefix}:workers:${id}`;
}

export function heartbeatPattern(prefix: string): string {
  return `${prefix}:workers:*`;
}
