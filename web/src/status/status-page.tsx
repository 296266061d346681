import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { getHealth, getReadiness, type Health } from '../api/client';
import { getSystemStatus, timed } from './status-client';
import {
  formatAge,
  formatLatency,
  summarizeSources,
  summarizeStatus,
  type ComponentStatus,
  type SourcesSummary,
  type SourceView,
  type StatusSummary,
} from './status-summary';
import './status.css';

export const STATUS_REFRESH_MS = 30_000;

interface StatusView {
  summary: StatusSummary | null;
  sources: SourcesSummary | null;
  checkedAt: Date | null;
  checking: boolean;
}

function useStatusChecks(refreshMs: number): StatusView & { refresh: () => void } {
  const [view, setView] = useState<StatusView>({ summary: null, sources: null, checkedAt: null, checking: true });
  const inFlight = useRef<AbortController | null>(null);

  const refresh = useCallback(() => {
    // A newer check supersedes an older one still waiting on a slow api.
    inFlight.current?.abort();
    const controller = new AbortController();
    inFlight.current = controller;
    setView((current) => ({ ...current, checking: true }));
    void Promise.allSettled([
      timed(() => getHealth(controller.signal)),
      getReadiness(controller.signal),
      getSystemStatus(controller.signal),
    ]).then(([timedHealth, ready, system]) => {
      if (controller.signal.aborted) return;
      inFlight.current = null;
      const health: PromiseSettledResult<Health> =
        timedHealth.status === 'fulfilled' ? { status: 'fulfilled', value: timedHealth.value.value } : timedHealth;
      const latencyMs = timedHealth.status === 'fulfilled' ? timedHealth.value.latencyMs : undefined;
      setView({ summary: summarizeStatus(health, ready, latencyMs), sources: summarizeSources(system), checkedAt: new Date(), checking: false });
    });
  }, []);

  useEffect(() => {
    refresh();
    const timer = window.setInterval(() => {
      // No point polling for a tab nobody is looking at; it catches up when shown again.
      if (document.visibilityState !== 'hidden') refresh();
    }, refreshMs);
    const onVisible = (): void => {
      if (document.visibilityState === 'visible') refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
      inFlight.current?.abort();
    };
  }, [refresh, refreshMs]);

  return { ...view, refresh };
}

function StateBadge({ state, down = 'Down' }: { state: ComponentStatus['state']; down?: string }) {
  return (
    <span className={`state-badge state-badge--${state}`}>
      <span className="state-badge__dot" aria-hidden="true" />
      {state === 'up' ? 'Up' : down}
    </span>
  );
}

function Instant({ at, now }: { at: string | null; now: number }) {
  if (at === null) return <>Not yet</>;
  const ms = Date.parse(at);
  return (
    <time dateTime={at} title={new Date(ms).toLocaleString()}>
      {new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })} ({formatAge(ms, now)})
    </time>
  );
}

function SourceRow({ source, now }: { source: SourceView; now: number }) {
  const labelId = `status-source-${source.id}`;
  return (
    <li className="status-component" aria-labelledby={labelId}>
      <div className="status-component__main">
        <span id={labelId} className="status-component__name">
          {source.label}
        </span>
        <StateBadge state={source.state} down="Failing" />
      </div>
      <dl className="status-component__meta status-component__meta--stacked">
        <div>
          <dt>Newest data</dt>
          <dd>
            <Instant at={source.dataAt} now={now} />
          </dd>
        </div>
        <div>
          <dt>Last fetched</dt>
          <dd>
            <Instant at={source.fetchedAt} now={now} />
          </dd>
        </div>
      </dl>
      {source.failures > 0 && (
        <p className="status-component__detail">
          {source.failures === 1 ? 'The last fetch failed.' : `The last ${source.failures} fetches failed.`}
        </p>
      )}
    </li>
  );
}

function DataSources({ sources, now }: { sources: SourcesSummary; now: number }) {
  return (
    <section aria-labelledby="status-sources-heading">
      <h2 id="status-sources-heading" className="section-title">
        Data sources
      </h2>
      {sources.kind === 'unavailable' ? (
        <p className="status-page__note">Data-source freshness could not be read: {sources.message}</p>
      ) : sources.sources.length === 0 ? (
        <p className="status-page__note">No data source has reported yet: the background workers record each fetch here.</p>
      ) : (
        <ul className="status-components">
          {sources.sources.map((source) => (
            <SourceRow key={source.id} source={source} now={now} />
          ))}
        </ul>
      )}
    </section>
  );
}

function ComponentRow({ component }: { component: ComponentStatus }) {
  const labelId = `status-component-${component.id}`;
  return (
    <li className="status-component" aria-labelledby={labelId}>
      <div className="status-component__main">
        <span id={labelId} className="status-component__name">
          {component.label}
        </span>
        <StateBadge state={component.state} />
      </div>
      <dl className="status-component__meta">
        <dt>Latency</dt>
        <dd>{component.latencyMs === undefined ? 'n/a' : formatLatency(component.latencyMs)}</dd>
      </dl>
      {component.detail && <p className="status-component__detail">{component.detail}</p>}
    </li>
  );
}

function headline(summary: StatusSummary | null): { text: string; tone: 'pending' | 'ok' | 'bad' } {
  if (!summary) return { text: 'Checking systems…', tone: 'pending' };
  if (summary.kind === 'unreachable') return { text: 'The Tickerbell API is unreachable', tone: 'bad' };
  return summary.overall === 'operational'
    ? { text: 'All systems operational', tone: 'ok' }
    : { text: 'Some systems are down', tone: 'bad' };
}

export function StatusPage({ refreshMs = STATUS_REFRESH_MS }: { refreshMs?: number }) {
  const { summary, sources, checkedAt, checking, refresh } = useStatusChecks(refreshMs);
  const { text, tone } = headline(summary);
  const refreshSeconds = Math.round(refreshMs / 1000);

  return (
    <div className="container page status-page">
      <title>System status · Tickerbell</title>
      <div className="page-header">
        <h1>System status</h1>
        <p className="page-lede">
          Live health of the Tickerbell API and the services it depends on. This page checks again
          every {refreshSeconds} seconds.
        </p>
      </div>

      <section className={`status-banner status-banner--${tone}`} aria-labelledby="status-headline">
        <div role="status" aria-live="polite">
          <h2 id="status-headline" className="status-banner__title">
            {text}
          </h2>
          {summary?.kind === 'unreachable' && (
            <p className="status-banner__detail">
              {summary.message} This page will try again automatically.
            </p>
          )}
        </div>
        <div className="status-banner__actions">
          {checkedAt && (
            <p className="status-banner__time">
              Last checked{' '}
              <time dateTime={checkedAt.toISOString()}>{checkedAt.toLocaleTimeString()}</time>
            </p>
          )}
          <button type="button" className="button button--secondary" onClick={refresh} disabled={checking}>
            {checking ? 'Checking…' : 'Check now'}
          </button>
        </div>
      </section>

      {summary?.kind === 'reported' && (
        <section aria-labelledby="status-components-heading">
          <h2 id="status-components-heading" className="section-title">
            Components
          </h2>
          <ul className="status-components">
            {summary.components.map((component) => (
              <ComponentRow key={component.id} component={component} />
            ))}
          </ul>
        </section>
      )}

      {summary?.kind === 'reported' && sources && <DataSources sources={sources} now={checkedAt?.getTime() ?? Date.now()} />}

      <p className="status-page__help">
        Something not working while every component is up? See the <Link to="/help">help centre</Link>{' '}
        or <Link to="/contact">contact us</Link>.
      </p>
    </div>
  );
}
