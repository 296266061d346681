// /research/yields (public): the best-scoring tracked pools with their score broken into its named
// parts, and how Tickerbell computes APR, volume/TVL, the score and the alerts.
import { Link } from 'react-router-dom';
import type { YieldTopPool } from '@tickerbell/jobs/yields/shapes';
import { YIELD_APR_TOLERANCE } from '@tickerbell/jobs/yields/shapes';
import { ContentPage } from '../pages/content-page';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import { YIELDS_POOLS_PATH, formatPercent, formatUsdCompact, formatVtr, getTopPools } from './yields-client';
import { AprValue, PoolName, ScoreBreakdown, ScoreValue, SourceNote } from './yields-parts';
import './yields.css';

function TopPoolCard({ pool, rank }: { pool: YieldTopPool; rank: number }) {
  return (
    <li className="yield-top__card">
      <div className="yield-top__head">
        <span className="yield-top__rank" aria-hidden="true">
          {rank}
        </span>
        <div className="yield-top__name">
          <PoolName pool={pool} link={false} />
        </div>
        <div className="yield-top__score">
          <span className="yield-top__score-label">Score</span>
          <ScoreValue value={pool.yieldScore} />
        </div>
      </div>
      <dl className="yield-pairs yield-pairs--row">
        <div>
          <dt>TVL</dt>
          <dd>{formatUsdCompact(pool.tvlUsd)}</dd>
        </div>
        <div>
          <dt>APR</dt>
          <dd>
            <AprValue row={pool} />
          </dd>
        </div>
        <div>
          <dt>DefiLlama APY</dt>
          <dd>{formatPercent(pool.defillamaApy)}</dd>
        </div>
        <div>
          <dt>Volume / TVL</dt>
          <dd>{formatVtr(pool.vtr)}</dd>
        </div>
      </dl>
      <details className="yield-disclosure" open={rank === 1}>
        <summary>How the score is made</summary>
        <ScoreBreakdown score={pool.score} />
      </details>
    </li>
  );
}

function TopPools() {
  const [result, , retry] = useRequest('top', (signal) => getTopPools(20, signal));
  const data = shownData(result);
  if (result.state === 'failed') return <RequestFailed what="The top pools" message={result.message} onRetry={retry} />;
  if (data === null) {
    return (
      <p role="status" className="page-loading">
        <span className="spinner" aria-hidden="true" /> Loading the top pools…
      </p>
    );
  }
  return (
    <>
      <SourceNote source={data.source} />
      {data.rows.length === 0 ? (
        <p className="empty-state">No pool has a score yet: scores are computed from the hourly snapshots of tracked pools of $1M or more.</p>
      ) : (
        <ol className="yield-top" aria-label="Top pools by score">
          {data.rows.map((pool, i) => (
            <TopPoolCard key={pool.id} pool={pool} rank={i + 1} />
          ))}
        </ol>
      )}
    </>
  );
}

export function ResearchYieldsPage() {
  return (
    <ContentPage
      title="Liquidity-pool yields"
      eyebrow="Research"
      lede={
        <p>
          A pool’s advertised yield can hide thin trading, a TVL about to leave, or rewards paid in a token that may not hold its value. Tickerbell computes each
          pool’s fee APR itself, puts it beside DefiLlama’s APY, says when the two disagree, and scores the pool from 0 to 100 with every part of the score shown.
          These are the best-scoring pools with at least $1M of TVL.
        </p>
      }
      sections={[
        { id: 'top', heading: 'Top pools by score', body: <TopPools /> },
        {
          id: 'sources',
          heading: 'Where the numbers come from',
          body: (
            <p>
              DefiLlama’s yields list gives every pool’s TVL, APY (its base and reward parts), 30-day mean, mu and sigma, and outlier flag; the Uniswap v3 subgraph
              gives the daily volume, fees and TVL of Uniswap pools (daily figures only: its hourly fee and volume fields are known to read zero). The list is read
              every hour; the top pools of each chain by TVL, and every pool someone has an alert on, get a stored snapshot each hour.
            </p>
          ),
        },
        {
          id: 'apr',
          heading: 'Fee APR and volume/TVL',
          body: (
            <>
              <p>
                Fee APR = fees over the window × 365 / average TVL over the window × 100, over 24 hours, 7 days and 30 days. Volume/TVL is the day’s volume
                divided by TVL: how hard the pool’s liquidity works.
              </p>
              <p>
                Our APR and DefiLlama’s APY are said to disagree when they differ by more than {YIELD_APR_TOLERANCE.absolutePoints} percentage point and by more than{' '}
                {YIELD_APR_TOLERANCE.relative * 100} % of the larger. Neither is trusted blindly: both are shown.
              </p>
            </>
          ),
        },
        {
          id: 'score',
          heading: 'The score',
          body: (
            <p>
              The score adds seven weighted parts, each scored from 0 to 1: the fee APR, volume/TVL, how steady the TVL was over 30 days, DefiLlama’s mu against
              sigma, whether DefiLlama flags the pool as an outlier, the share of the APY that is organic rather than token rewards, and how close the APR is to its
              30-day mean. A part without data is left out and the other weights are scaled up; with fewer than three parts there is no score.
            </p>
          ),
        },
        {
          id: 'alerts',
          heading: 'Alerts that do not flap',
          body: (
            <p>
              Signed in, the <Link to={YIELDS_POOLS_PATH}>pools table</Link> filters by chain, project, token, stablecoins and TVL, and any pool can carry alerts: APR
              above or below a level, an APR spike over its 30-day mean, a TVL drop within a window, or volume/TVL above a level. An alert that fires waits for its
              cooldown and re-arms only once the value has moved back past the threshold by a margin, so a yield hovering around your level does not alert you every
              hour. Alerts reach you in the app and by push, and by email or Telegram when you choose.
            </p>
          ),
        },
      ]}
    />
  );
}
