// /dashboard/yields/pools/:poolId: one pool: its latest TVL, volume, fees and volume/TVL; our fee
// APR over 24 h, 7 d and 30 d beside DefiLlama's APY (with the disagreement flag and the APY's
// parts); the score's named components; daily charts over 30 or 90 days; and the user's alerts
// on it, with the dialog to add one.
import { useRef, useState, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { YieldPoolPage, YieldSeriesPoint, YieldSnapshotView } from '@tickerbell/jobs/yields/shapes';
import { YIELD_APR_TOLERANCE } from '@tickerbell/jobs/yields/shapes';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import { useTheme } from '../theme/theme-provider';
import type { Theme } from '../theme/theme-rules';
import { YieldAlertDialog } from './yields-alert-dialog';
import { YieldAlertList } from './yields-alert-list';
import { PoolCharts } from './yields-charts';
import { YIELDS_ALERTS_PATH, YIELDS_POOLS_PATH, ageOf, formatFeeTier, formatPercent, formatUsdCompact, formatUtc, formatVtr, getPool, getPoolSeries } from './yields-client';
import { ScoreBreakdown, ScoreValue, SourceNote } from './yields-parts';
import './yields.css';

const DATA_SOURCE_NAMES: Readonly<Record<YieldSnapshotView['dataSource'], string>> = {
  'uniswap-subgraph': 'the Uniswap v3 subgraph',
  defillama: 'DefiLlama’s pool list',
  'defillama-chart': 'DefiLlama’s pool history',
};

function Figure({ label, value, sub }: { label: string; value: ReactNode; sub?: ReactNode }) {
  return (
    <div className="yield-figure">
      <dt className="yield-figure__label">{label}</dt>
      <dd className="yield-figure__value">
        {value}
        {sub && <span className="data-table__sub">{sub}</span>}
      </dd>
    </div>
  );
}

/** Our APRs beside DefiLlama's APY and its parts, and whether they agree. */
function AprComparison({ latest }: { latest: YieldSnapshotView }) {
  const ours = latest.feeApr24h ?? latest.apr;
  return (
    <>
      {latest.aprDisagrees === true ? (
        <p className="yield-flag yield-flag--warn" role="note">
          <strong>Our APR and DefiLlama’s APY disagree.</strong> {formatPercent(latest.apr)} against {formatPercent(latest.defillamaApy)}: more than{' '}
          {YIELD_APR_TOLERANCE.absolutePoints} percentage point and {YIELD_APR_TOLERANCE.relative * 100} % apart. Neither is trusted blindly: check the fees and TVL
          below.
        </p>
      ) : latest.aprDisagrees === false ? (
        <p className="yield-flag" role="note">
          Our APR and DefiLlama’s APY agree within {YIELD_APR_TOLERANCE.absolutePoints} percentage point or {YIELD_APR_TOLERANCE.relative * 100} %.
        </p>
      ) : (
        <p className="yield-flag" role="note">
          {ours === null ? 'We have no fee data for this pool, so the APR shown is DefiLlama’s APY.' : 'DefiLlama gives no APY to compare with.'}
        </p>
      )}
      <div className="yield-apr-grid">
        <section className="yield-apr-col" aria-labelledby="yield-ours">
          <h3 id="yield-ours">Our fee APR</h3>
          <dl className="yield-pairs">
            <div>
              <dt>24 hours</dt>
              <dd>{formatPercent(latest.feeApr24h)}</dd>
            </div>
            <div>
              <dt>7 days</dt>
              <dd>{formatPercent(latest.feeApr7d)}</dd>
            </div>
            <div>
              <dt>30 days</dt>
              <dd>{formatPercent(latest.feeApr30d)}</dd>
            </div>
            <div>
              <dt>Headline APR</dt>
              <dd>
                {formatPercent(latest.apr)}
                <span className="data-table__sub">{latest.aprSource === 'computed' ? 'fee APR 24 h + reward APY' : latest.aprSource === 'defillama' ? 'DefiLlama’s APY (no fees to compute from)' : ''}</span>
              </dd>
            </div>
          </dl>
          <p className="form-field__hint">Fees over the window × 365 / average TVL over the window.</p>
        </section>
        <section className="yield-apr-col" aria-labelledby="yield-theirs">
          <h3 id="yield-theirs">DefiLlama’s APY</h3>
          <dl className="yield-pairs">
            <div>
              <dt>APY</dt>
              <dd>{formatPercent(latest.defillamaApy)}</dd>
            </div>
            <div>
              <dt>Base (fees)</dt>
              <dd>{formatPercent(latest.apyBase)}</dd>
            </div>
            <div>
              <dt>Rewards</dt>
              <dd>{formatPercent(latest.apyReward)}</dd>
            </div>
            <div>
              <dt>30-day mean</dt>
              <dd>{formatPercent(latest.apyMean30d)}</dd>
            </div>
          </dl>
          {latest.prediction?.predictedClass && (
            <p className="form-field__hint">
              DefiLlama’s forecast: {latest.prediction.predictedClass}
              {latest.prediction.predictedProbability !== null && <> ({Math.round(latest.prediction.predictedProbability)} %</>}
              {latest.prediction.binnedConfidence !== null && <>, confidence {latest.prediction.binnedConfidence} of 3</>}
              {latest.prediction.predictedProbability !== null && ')'}.
            </p>
          )}
        </section>
        <section className="yield-apr-col yield-apr-col--wide" aria-labelledby="yield-risk">
          <h3 id="yield-risk">Spike baseline and risk</h3>
          <dl className="yield-pairs yield-pairs--two">
            <div>
              <dt>APR 30-day mean</dt>
              <dd>{formatPercent(latest.aprMean30d)}</dd>
            </div>
            <div>
              <dt>APR 30-day σ</dt>
              <dd>{latest.aprSigma30d === null ? '—' : `${formatPercent(latest.aprSigma30d).replace(/\s?%$/, '')}\u00a0pts`}</dd>
            </div>
            <div>
              <dt>Impermanent loss, 7 d</dt>
              <dd>{formatPercent(latest.il7d)}</dd>
            </div>
            <div>
              <dt>Outlier (DefiLlama)</dt>
              <dd>{latest.outlier === null ? '—' : latest.outlier ? 'Yes: mu or sigma is unusual' : 'No'}</dd>
            </div>
          </dl>
        </section>
      </div>
    </>
  );
}

function History({ page, theme }: { page: YieldPoolPage; theme: Theme }) {
  const [days, setDays] = useState<30 | 90>(30);
  const [result, , retry] = useRequest<{ points: YieldSeriesPoint[] } | null>(`${page.pool.id}:${days}`, (signal) =>
    days === 30 ? Promise.resolve({ points: page.series }) : getPoolSeries(page.pool.id, days, signal),
  );
  const shown = shownData(result);
  const points = shown?.points ?? (days === 30 ? page.series : []);
  return (
    <section className="dashboard-panel" aria-labelledby="yield-history-title">
      <div className="yield-panel-head">
        <h2 id="yield-history-title">History</h2>
        <div className="yield-segmented" role="group" aria-label="Period">
          {([30, 90] as const).map((choice) => (
            <button key={choice} type="button" className={`button button--small ${days === choice ? 'button--primary' : 'button--ghost'}`} aria-pressed={days === choice} onClick={() => setDays(choice)}>
              {choice} days
            </button>
          ))}
        </div>
      </div>
      {result.state === 'failed' && <RequestFailed what="The history" message={result.message} onRetry={retry} />}
      {points.length === 0 ? (
        <p className="empty-state">
          {page.pool.tracked
            ? 'No daily snapshot yet: the first appears after the next hourly ingest.'
            : 'No history: this pool is not tracked. Create an alert on it to have it stored every hour.'}
        </p>
      ) : (
        <PoolCharts points={points} theme={theme} symbol={page.pool.symbol} />
      )}
    </section>
  );
}

export function YieldsPoolPage() {
  const { poolId: raw = '' } = useParams();
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
  const [result, update, retry] = useRequest(String(id), (signal) => (id === null ? Promise.reject(new Error('not a pool id')) : getPool(id, signal)));
  const data = shownData(result);
  const { theme } = useTheme();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);

  const back = (
    <p className="yield-back">
      <Link to={YIELDS_POOLS_PATH}>← Pools</Link>
    </p>
  );
  if (id === null || result.state === 'failed') {
    return (
      <div className="yields-page">
        <title>Pool · Yields · Tickerbell</title>
        {back}
        <h1>Pool</h1>
        {id === null || (result.state === 'failed' && result.status === 404) ? (
          <p className="form-message form-message--error" role="alert">
            There is no pool {raw ? `“${raw}”` : 'here'}. It may have been removed from DefiLlama’s list; find it again in the pools table.
          </p>
        ) : (
          result.state === 'failed' && <RequestFailed what="The pool" message={result.message} onRetry={retry} />
        )}
      </div>
    );
  }
  if (!data) {
    return (
      <div className="yields-page">
        <title>Pool · Yields · Tickerbell</title>
        {back}
        <h1>Pool</h1>
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading the pool…
        </p>
      </div>
    );
  }

  const { pool, latest } = data;
  const fee = formatFeeTier(pool.feeTier);
  const now = { apr: latest?.apr ?? pool.apr, vtr: latest?.vtr ?? pool.vtr, aprMean30d: latest?.aprMean30d ?? null };
  return (
    <div className="yields-page">
      <title>{`${pool.symbol} · Yields · Tickerbell`}</title>
      {back}
      <div className="yield-title">
        <div>
          <h1 className="yield-break">{pool.symbol}</h1>
          <p className="yield-sub">
            <span>{pool.dex}</span>·<span>{pool.chain}</span>
            {fee && (
              <>
                ·<span>{fee} fee tier</span>
              </>
            )}
            {pool.poolMeta && pool.poolMeta.replace(/\s/g, '') !== fee?.replace(/\s/g, '') && (
              <>
                ·<span>{pool.poolMeta}</span>
              </>
            )}
            {pool.stablecoin && <span className="badge yield-badge--stable">Stablecoin</span>}
            {pool.ilRisk === 'yes' && <span className="badge yield-badge--warn">Impermanent-loss risk</span>}
            {pool.exposure && <span className="badge">{pool.exposure === 'single' ? 'Single asset' : 'Multi asset'}</span>}
            {!pool.isActive && <span className="badge yield-badge--warn">No longer listed</span>}
          </p>
        </div>
        <button
          ref={newButton}
          type="button"
          className="button button--primary"
          onClick={() => {
            setCreated(null);
            setCreating(true);
          }}
          disabled={!pool.isActive}
        >
          New alert
        </button>
      </div>
      <SourceNote source={data.source} />
      {!pool.tracked && (
        <p className="yield-flag" role="note">
          Not tracked hourly: these are DefiLlama’s latest list figures. Creating an alert on this pool makes Tickerbell store its snapshot every hour from the next
          ingest.
        </p>
      )}

      <dl className="yield-figures">
        <Figure label="TVL" value={formatUsdCompact(latest?.tvlUsd ?? pool.tvlUsd)} />
        <Figure label="Volume, 24 h" value={formatUsdCompact(latest?.volumeUsd ?? null)} sub={latest?.volumeUsd7d ? `7 d ${formatUsdCompact(latest.volumeUsd7d)}` : undefined} />
        <Figure label="Fees, 24 h" value={formatUsdCompact(latest?.feesUsd ?? null)} />
        <Figure label="Volume / TVL" value={formatVtr(latest?.vtr ?? pool.vtr)} />
        <Figure label="APR" value={formatPercent(latest?.apr ?? pool.apr)} sub={latest?.aprDisagrees ? 'disagrees with DefiLlama' : undefined} />
        <Figure label="Score" value={<ScoreValue value={latest?.yieldScore ?? pool.yieldScore} />} />
      </dl>
      <p className="yield-asof">
        {latest ? (
          <>
            Snapshot of <time dateTime={latest.timestamp}>{formatUtc(latest.timestamp)}</time> ({ageOf(latest.timestamp)}), volume and fees from {DATA_SOURCE_NAMES[latest.dataSource]}.
          </>
        ) : pool.asOf ? (
          <>
            DefiLlama’s list of <time dateTime={pool.asOf}>{formatUtc(pool.asOf)}</time> ({ageOf(pool.asOf)}).
          </>
        ) : null}
      </p>

      <div className="yield-pool-grid">
        <div className="yield-pool-grid__main">
          <section className="dashboard-panel" aria-labelledby="yield-apr-title">
            <h2 id="yield-apr-title">APR: ours beside DefiLlama’s</h2>
            {latest ? <AprComparison latest={latest} /> : <p className="empty-state">No snapshot of this pool yet: only DefiLlama’s listed APY ({formatPercent(pool.defillamaApy)}) is known.</p>}
          </section>
          <History page={data} theme={theme} />
        </div>
        <div className="yield-pool-grid__side">
          <section className="dashboard-panel" aria-labelledby="yield-alerts-title">
            <h2 id="yield-alerts-title">Your alerts on this pool</h2>
            {created && (
              <p className="form-message form-message--success" role="status">
                {created}
              </p>
            )}
            {data.alerts.length === 0 ? (
              <p className="empty-state">No alert on this pool yet. “New alert” watches its APR, a spike, a TVL drop or its volume/TVL.</p>
            ) : (
              <YieldAlertList alerts={data.alerts} showPool={false} now={now} caption={`Your alerts on ${pool.symbol}`} onChange={(alerts) => update((page) => ({ ...page, alerts }))} />
            )}
            <p className="yield-panel-link">
              <Link to={YIELDS_ALERTS_PATH}>All your yield alerts and their history</Link>
            </p>
          </section>
          <section className="dashboard-panel" aria-labelledby="yield-score-title">
            <h2 id="yield-score-title">Score breakdown</h2>
            <ScoreBreakdown score={latest?.score ?? null} />
          </section>
        </div>
      </div>

      {creating && (
        <YieldAlertDialog
          pool={pool}
          alert={null}
          now={now}
          returnFocus={newButton}
          onClose={() => setCreating(false)}
          onSaved={(alert) => {
            update((page) => ({ ...page, alerts: [alert, ...page.alerts], pool: { ...page.pool, tracked: true } }));
            setCreating(false);
            setCreated(`Alert created: ${alert.description}. It is checked against every new snapshot.`);
          }}
        />
      )}
    </div>
  );
}
