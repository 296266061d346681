import type { SourceStatus } from '@tickerbell/jobs/status/shapes';
import type { Health, Readiness } from '../api/client';

export type ComponentState = 'up' | 'down';

export interface ComponentStatus {
  id: string;
  label: string;
  state: ComponentState;
  latencyMs?: number;
  /** Why a component is down, as reported by the api or the client. */
  detail?: string;
}

export type StatusSummary =
  | { kind: 'unreachable'; message: string }
  | { kind: 'reported'; overall: 'operational' | 'degraded'; components: ComponentStatus[] };

const CHECK_LABELS: Record<string, string> = {
  database: 'Database',
  redis: 'Redis',
};

function labelFor(checkId: string): string {
  return CHECK_LABELS[checkId] ?? checkId.charAt(0).toUpperCase() + checkId.slice(1);
}

function messageOf(reason: unknown): string {
  return reason instanceof Error && reason.message !== '' ? reason.message : 'Unknown error';
}

function apiComponent(health: PromiseSettledResult<Health>, latencyMs: number | undefined): ComponentStatus {
  const base = { id: 'api', label: 'API' };
  if (health.status === 'rejected') return { ...base, state: 'down', detail: messageOf(health.reason) };
  const measured = latencyMs === undefined ? {} : { latencyMs };
  if (health.value.status !== 'ok') {
    return { ...base, state: 'down', ...measured, detail: `Reported status "${health.value.status}"` };
  }
  return { ...base, state: 'up', ...measured };
}

function checkComponents(ready: PromiseSettledResult<Readiness>): ComponentStatus[] {
  if (ready.status === 'rejected') {
    return [{ id: 'readiness', label: 'Readiness checks', state: 'down', detail: messageOf(ready.reason) }];
  }
  return Object.entries(ready.value.checks).map(([id, check]) => ({
    id,
    label: labelFor(id),
    state: check.ok ? 'up' : 'down',
    ...(check.latencyMs === undefined ? {} : { latencyMs: check.latencyMs }),
    ...(check.ok ? {} : { detail: check.error ?? 'Check failed' }),
  }));
}

/**
 * Combines the two probes into what the status page shows. `apiLatencyMs` is the health
 * request's round trip as the browser measured it: the API's latency as a visitor feels it.
 */
export function summarizeStatus(
  health: PromiseSettledResult<Health>,
  ready: PromiseSettledResult<Readiness>,
  apiLatencyMs?: number,
): StatusSummary {
  if (health.status === 'rejected' && ready.status === 'rejected') {
    return { kind: 'unreachable', message: messageOf(health.reason) };
  }
  const components = [apiComponent(health, apiLatencyMs), ...checkComponents(ready)];
  // A not_ready answer with every listed check passing still means the api is not serving.
  const readyOk = ready.status === 'fulfilled' && ready.value.status === 'ready';
  const allUp = components.every((component) => component.state === 'up');
  return { kind: 'reported', overall: allUp && readyOk ? 'operational' : 'degraded', components };
}

export function formatLatency(latencyMs: number): string {
  if (latencyMs < 1) return '<1 ms';
  return `${Math.round(latencyMs)} ms`;
}

/** Each data source of GET /api/status as the page lists it. */
export interface SourceView {
  id: string;
  label: string;
  state: ComponentState;
  /** Newest data the source delivered (its freshness); null before its first. */
  dataAt: string | null;
  /** Its last successful fetch. */
  fetchedAt: string | null;
  failures: number;
}

export type SourcesSummary = { kind: 'reported'; sources: SourceView[] } | { kind: 'unavailable'; message: string };

const SOURCE_LABELS: Record<string, string> = {
  cftc: 'CFTC futures positioning (COT)',
  binance: 'Binance crypto prices',
  coingecko: 'CoinGecko crypto prices',
  alpaca: 'Alpaca stock prices',
  simulated: 'Simulated prices (no live source configured)',
};

export function summarizeSources(status: PromiseSettledResult<{ sources: SourceStatus[] }>): SourcesSummary {
  if (status.status === 'rejected') return { kind: 'unavailable', message: messageOf(status.reason) };
  return {
    kind: 'reported',
    sources: status.value.sources.map((source) => ({
      id: source.source,
      label: SOURCE_LABELS[source.source] ?? labelFor(source.source),
      state: source.healthy ? 'up' : 'down',
      dataAt: source.lastDataAt,
      fetchedAt: source.lastSuccessAt,
      failures: source.consecutiveFailures,
    })),
  };
}

/** "just now", "4 min ago", "3 h ago", "6 d ago": how old an instant is. */
export function formatAge(atMs: number, nowMs: number): string {
  const minutes = Math.floor((nowMs - atMs) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} d ago`;
}
