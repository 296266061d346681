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

function apiComponent(health: PromiseSettledResult<Health>): ComponentStatus {
  const base = { id: 'api', label: 'API' };
  if (health.status === 'rejected') return { ...base, state: 'down', detail: messageOf(health.reason) };
  if (health.value.status !== 'ok') {
    return { ...base, state: 'down', detail: `Reported status "${health.value.status}"` };
  }
  return { ...base, state: 'up' };
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

/** Combines the two probes into what the status page shows. */
export function summarizeStatus(
  health: PromiseSettledResult<Health>,
  ready: PromiseSettledResult<Readiness>,
): StatusSummary {
  if (health.status === 'rejected' && ready.status === 'rejected') {
    return { kind: 'unreachable', message: messageOf(health.reason) };
  }
  const components = [apiComponent(health), ...checkComponents(ready)];
  // A not_ready answer with every listed check passing still means the api is not serving.
  const readyOk = ready.status === 'fulfilled' && ready.value.status === 'ready';
  const allUp = components.every((component) => component.state === 'up');
  return { kind: 'reported', overall: allUp && readyOk ? 'operational' : 'degraded', components };
}

export function formatLatency(latencyMs: number): string {
  if (latencyMs < 1) return '<1 ms';
  return `${Math.round(latencyMs)} ms`;
}
