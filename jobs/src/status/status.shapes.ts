/** GET /api/status: the public system status behind the /status page. */

export interface QueueStatus {
  name: string;
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
  /** Live worker processes serving this queue (from their heartbeats). */
  workers: number;
}

export interface SourceStatus {
  source: string;
  healthy: boolean;
  lastSuccessAt: string | null;
  lastErrorAt: string | null;
  /** Newest data the source delivered: its freshness. */
  lastDataAt: string | null;
  consecutiveFailures: number;
}

export interface SystemStatus {
  status: 'operational' | 'degraded';
  checkedAt: string;
  queues: QueueStatus[];
  sources: SourceStatus[];
}
