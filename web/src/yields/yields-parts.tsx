// Pieces shared by the yields screens: the section tabs, the data-source note, a pool's name, the
// APR cell with its disagreement flag, and the score breakdown.
import { Link } from 'react-router-dom';
import { SectionTabs } from '../layout/section-tabs';
import type { YieldPoolRow, YieldScoreBreakdown, YieldsSourceView } from '@tickerbell/jobs/yields/shapes';
import { YIELDS_ALERTS_PATH, YIELDS_POOLS_PATH, ageOf, aprSourceLabel, formatFeeTier, formatPercent, formatScore, formatUtc, yieldPoolPath } from './yields-client';

/** The two yields screens, as tabs under the page heading. */
export function YieldsTabs() {
  return (
    <SectionTabs
      label="Yield screens"
      tabs={[
        { to: YIELDS_POOLS_PATH, label: 'Pools', end: true },
        { to: YIELDS_ALERTS_PATH, label: 'Alerts' },
      ]}
    />
  );
}

const SOURCE_NAMES: Readonly<Record<string, string>> = { 'defillama-yields': 'DefiLlama yields', 'uniswap-subgraph': 'Uniswap v3 subgraph' };

/** Where the numbers come from (live or replay, simulated or recorded), how fresh, and any failing source. */
export function SourceNote({ source, now = Date.now() }: { source: YieldsSourceView; now?: number }) {
  const snapshot = source.lastSnapshotAt ? (
    <>
      Last snapshot{' '}
      <time dateTime={source.lastSnapshotAt} title={formatUtc(source.lastSnapshotAt)}>
        {ageOf(source.lastSnapshotAt, now)}
      </time>
      ; {source.poolsKnown.toLocaleString('en-US')} pools known, {source.poolsTracked.toLocaleString('en-US')} tracked hourly.
    </>
  ) : (
    <>No snapshot has been stored yet: the first hourly ingest fills this page.</>
  );
  const failing = source.sources.filter((health) => health.consecutiveFailures > 0);
  if (!source.lastSnapshotAt && failing.length === 0) {
    // Before the first ingest nothing says whether the sources are live or the replay: claim neither.
    return (
      <div className="yield-note" role="note">
        <p>
          <span className="badge">No data yet</span> No snapshot has been stored yet: the first hourly ingest of DefiLlama’s pool list fills this page.
        </p>
      </div>
    );
  }
  return (
    <div className={source.kind === 'replay' ? 'yield-note yield-note--replay' : 'yield-note'} role="note">
      <p>
        {source.kind === 'replay' ? (
          <>
            <span className="badge yield-badge--replay">Replay data</span>
            <span className="badge yield-badge--replay">Simulated</span>{' '}
          </>
        ) : (
          <>
            <span className="yield-live-dot" aria-hidden="true" />
            <span className="badge">Live</span>{' '}
          </>
        )}
        {source.note} {snapshot}
      </p>
      {failing.map((health) => (
        <p key={health.source} className="yield-note__failing">
          {SOURCE_NAMES[health.source] ?? health.source}: the last {health.consecutiveFailures === 1 ? 'attempt' : `${health.consecutiveFailures} attempts`} failed
          {health.lastErrorAt && <> ({ageOf(health.lastErrorAt, now)})</>}
          {health.lastError && <>: {health.lastError}</>}. The figures shown are from the last good snapshot.
        </p>
      ))}
    </div>
  );
}

/** A pool's name, linked to its page, with its project, chain and fee tier below. */
export function PoolName({ pool, link = true }: { pool: Pick<YieldPoolRow, 'id' | 'symbol' | 'dex' | 'chain' | 'feeTier' | 'stablecoin'>; link?: boolean }) {
  const fee = formatFeeTier(pool.feeTier);
  return (
    <>
      {link ? (
        <Link to={yieldPoolPath(pool.id)} className="yield-pool-name">
          {pool.symbol}
        </Link>
      ) : (
        <span className="yield-pool-name">{pool.symbol}</span>
      )}
      {pool.stablecoin && <span className="badge yield-badge--stable">Stablecoin</span>}
      <span className="data-table__sub">
        {pool.dex} · {pool.chain}
        {fee && <> · {fee} fee</>}
      </span>
    </>
  );
}

/** The headline APR, where it comes from, and a flag when ours and DefiLlama's disagree. */
export function AprValue({ row }: { row: Pick<YieldPoolRow, 'apr' | 'aprSource' | 'aprDisagrees' | 'defillamaApy'> }) {
  return (
    <>
      <span className="yield-strong">{formatPercent(row.apr)}</span>
      {row.aprDisagrees && (
        <span className="badge yield-badge--warn" title={`Our APR and DefiLlama’s APY (${formatPercent(row.defillamaApy)}) differ by more than 1 point and 25 %`}>
          Disagrees
        </span>
      )}
      <span className="data-table__sub">{aprSourceLabel(row.aprSource)}</span>
    </>
  );
}

/** The score out of 100 with a small bar. */
export function ScoreValue({ value }: { value: string | number | null }) {
  if (value === null) return <span className="yield-muted">—</span>;
  const n = Math.max(0, Math.min(100, Number(value)));
  return (
    <span className="yield-score-value">
      <span className="yield-strong">{formatScore(value)}</span>
      <span className="yield-bar" aria-hidden="true">
        <span className="yield-bar__fill" style={{ width: `${n}%` }} />
      </span>
    </span>
  );
}

/**
 * The score's named parts: each one's points out of its weight, a bar of its 0..1 score, and the
 * sentence saying what it was scored from. An unavailable part says so (the others are renormalised).
 */
export function ScoreBreakdown({ score, headingLevel = 3, title }: { score: YieldScoreBreakdown | null; headingLevel?: 2 | 3 | 4; title?: string }) {
  const Heading = `h${headingLevel}` as const;
  if (!score) return <p className="empty-state">No score yet: it is computed from a tracked pool’s snapshots.</p>;
  const available = score.components.filter((component) => component.score !== null);
  const weightShown = available.reduce((sum, component) => sum + component.weight, 0);
  return (
    <div className="yield-breakdown">
      {title && <Heading className="yield-breakdown__title">{title}</Heading>}
      <p className="yield-breakdown__total">
        <span className="yield-breakdown__number">{score.total === null ? '—' : formatScore(score.total)}</span>
        <span className="yield-muted"> / 100</span>
        {score.total === null ? (
          <span className="data-table__sub">Fewer than 3 of the 7 parts are available, so no total is given.</span>
        ) : (
          weightShown < 100 && <span className="data-table__sub">{available.length} of {score.components.length} parts available: their weights are scaled up to 100.</span>
        )}
      </p>
      <ul className="yield-breakdown__list">
        {score.components.map((component) => (
          <li key={component.name} className={component.score === null ? 'yield-part yield-part--missing' : 'yield-part'}>
            <div className="yield-part__head">
              <span className="yield-part__label">{component.label}</span>
              <span className="yield-part__points">
                {component.score === null ? (
                  'not available'
                ) : (
                  <>
                    {component.points.toLocaleString('en-US', { maximumFractionDigits: 1 })} pts
                  </>
                )}
                <span className="yield-muted"> · weight {component.weight}</span>
              </span>
            </div>
            <span className="yield-bar yield-bar--wide" aria-hidden="true">
              <span className="yield-bar__fill" style={{ width: `${Math.round((component.score ?? 0) * 100)}%` }} />
            </span>
            <span className="yield-part__why">
              {component.score !== null && <>Scored {Math.round(component.score * 100)} of 100. </>}
              {component.explanation}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
