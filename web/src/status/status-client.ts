// GET /api/status (status api): each data source's freshness, read by the /status page; and the
// round trip of a request as the browser measures it (the api cannot time its own distance to you).
import type { SourceStatus, SystemStatus } from '@tickerbell/jobs/status/shapes';
import { apiRequest, isRecord } from '../api/client';

/** The status page's probes give up sooner than ordinary calls: a slow answer is itself the news. */
const STATUS_TIMEOUT_MS = 5_000;

function isoOrNull(value: unknown, field: string): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) throw new TypeError(`status: ${field} is not an instant`);
  return value;
}

function parseSource(value: unknown, index: number): SourceStatus {
  if (!isRecord(value) || typeof value.source !== 'string' || typeof value.healthy !== 'boolean') {
    throw new TypeError(`status: sources[${index}] needs a source name and healthy`);
  }
  return {
    source: value.source,
    healthy: value.healthy,
    lastSuccessAt: isoOrNull(value.lastSuccessAt, `sources[${index}].lastSuccessAt`),
    lastErrorAt: isoOrNull(value.lastErrorAt, `sources[${index}].lastErrorAt`),
    lastDataAt: isoOrNull(value.lastDataAt, `sources[${index}].lastDataAt`),
    consecutiveFailures: typeof value.consecutiveFailures === 'number' ? value.consecutiveFailures : 0,
  };
}

/** Only what the page shows is checked: the sources. Queues are read by the admin views. */
export function parseSystemStatus(body: unknown): Pick<SystemStatus, 'checkedAt' | 'sources'> {
  if (!isRecord(body) || !Array.isArray(body.sources) || typeof body.checkedAt !== 'string') {
    throw new TypeError('status: expected { checkedAt, sources: [...] }');
  }
  return { checkedAt: body.checkedAt, sources: body.sources.map(parseSource) };
}

export function getSystemStatus(signal?: AbortSignal): Promise<Pick<SystemStatus, 'checkedAt' | 'sources'>> {
  return apiRequest('/api/status', { signal, timeoutMs: STATUS_TIMEOUT_MS, parse: parseSystemStatus });
}

/** Runs a request and measures its round trip in milliseconds (monotonic clock). */
export async function timed<T>(request: () => Promise<T>, now: () => number = () => performance.now()): Promise<{ value: T; latencyMs: number }> {
  const started = now();
  const value = await request();
  return { value, latencyMs: now() - started };
}
