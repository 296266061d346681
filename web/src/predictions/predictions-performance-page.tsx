// /dashboard/predictions/performance: the viewer's scorecard. The accuracy figure beside the Brier
// and log scores, each with the market's (the price at each forecast's moment) and the skill
// between them; the calibration plot (points with Wilson intervals against the diagonal); both
// scores by month against the market's; the Brier decomposition; the categories where the viewer
// beats the market and those where it beats them; and the viewer's forecasts.
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { PredictionCategoryScore, PredictionPerformanceView } from '@tickerbell/jobs/predictions/shapes';
import { appendPage, LoadMore, RequestFailed, shownData, useLoadMore, useRequest } from '../api/use-request';
import { CalibrationPlot, TrendChart } from './predictions-charts';
import {
  RESOLUTION_LABELS,
  formatDateTime,
  formatMonth,
  formatProbability,
  formatScore,
  formatSkillPoints,
  getForecasts,
  getPerformance,
  type ForecastStatus,
} from './predictions-client';
import { PREDICTIONS_PATH, predictionMarketPath } from './predictions-paths';
import { PredictionsTabs } from './predictions-parts';
import './predictions.css';

/** One sentence on the skill: did the viewer beat the market price? */
export function verdictOf(performance: PredictionPerformanceView): string {
  const skill = performance.skill.brier;
  if (skill === null) return 'No resolved forecast yet.';
  if (Math.abs(skill) < 0.0005) return 'You matched the market: your Brier score equals the market price’s at the moments you forecast.';
  return skill > 0
    ? `You beat the market: your Brier score is ${formatScore(skill)} lower than the market price’s at the moments you forecast.`
    : `The market beat you: its price scored ${formatScore(-skill)} better (Brier) than your forecasts at the same moments.`;
}

function tone(value: number | null): string | undefined {
  if (value === null || Math.abs(value) < 0.0005) return undefined;
  return value > 0 ? 'pm-up' : 'pm-down';
}

function Headline({ performance }: { performance: PredictionPerformanceView }) {
  const { accuracy, brierScore, logScore, market, skill } = performance;
  return (
    <dl className="pm-scorecard">
      <div className="pm-score pm-score--accuracy">
        <dt>Accuracy</dt>
        <dd>
          <span className="pm-score__value">{formatProbability(accuracy)}</span>
          <span className="pm-score__sub">
            {performance.correctPredictions} of {performance.totalPredictions} resolved {performance.totalPredictions === 1 ? 'forecast' : 'forecasts'} on the side that happened
          </span>
        </dd>
      </div>
      <div className="pm-score">
        <dt>Brier score</dt>
        <dd>
          <span className="pm-score__value">{formatScore(brierScore)}</span>
          <span className="pm-score__sub">
            market {formatScore(market.brier)} · skill <span className={tone(skill.brier)}>{formatScore(skill.brier, { signed: true })}</span>
          </span>
          <span className="pm-score__hint">0 is perfect, 0.25 is always saying 50 %; lower is better.</span>
        </dd>
      </div>
      <div className="pm-score">
        <dt>Log score</dt>
        <dd>
          <span className="pm-score__value">{formatScore(logScore)}</span>
          <span className="pm-score__sub">
            market {formatScore(market.log)} · skill <span className={tone(skill.log)}>{formatScore(skill.log, { signed: true })}</span>
          </span>
          <span className="pm-score__hint">The mean log of the probability you gave what happened: 0 is perfect; higher is better.</span>
        </dd>
      </div>
      <div className="pm-score">
        <dt>Points</dt>
        <dd>
          <span className={`pm-score__value ${tone(performance.totalPoints) ?? ''}`}>{formatSkillPoints(performance.totalPoints)}</span>
          <span className="pm-score__sub">skill against the market price, summed over your forecasts</span>
        </dd>
      </div>
    </dl>
  );
}

function CategoryTable({ rows, caption, empty }: { rows: readonly PredictionCategoryScore[]; caption: string; empty: string }) {
  if (rows.length === 0) return <p className="empty-state">{empty}</p>;
  return (
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
      <table className="data-table pm-small-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Category</th>
            <th scope="col" className="num">
              Forecasts
            </th>
            <th scope="col" className="num">
              Your Brier
            </th>
            <th scope="col" className="num">
              Market’s
            </th>
            <th scope="col" className="num">
              Skill
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.category}>
              <th scope="row">{row.category}</th>
              <td className="num">{row.count}</td>
              <td className="num">{formatScore(row.brier)}</td>
              <td className="num">{formatScore(row.marketBrier)}</td>
              <td className={`num pm-strong ${tone(row.skill) ?? ''}`}>{formatScore(row.skill, { signed: true })}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function Trend({ performance }: { performance: PredictionPerformanceView }) {
  const { trend } = performance;
  if (trend.length === 0) return <p className="empty-state">No month with a resolved forecast yet.</p>;
  return (
    <>
      <div className="pm-trend-grid">
        <TrendChart trend={trend} score="brier" />
        <TrendChart trend={trend} score="log" />
      </div>
      <details className="pm-disclosure">
        <summary>Scores by month ({trend.length})</summary>
        <div className="table-scroll" role="region" aria-label="Scores by month" tabIndex={0}>
          <table className="data-table pm-small-table">
            <caption className="visually-hidden">Your scores and the market’s by month of resolution</caption>
            <thead>
              <tr>
                <th scope="col">Month</th>
                <th scope="col" className="num">
                  Forecasts
                </th>
                <th scope="col" className="num">
                  Accuracy
                </th>
                <th scope="col" className="num">
                  Brier
                </th>
                <th scope="col" className="num">
                  Market Brier
                </th>
                <th scope="col" className="num">
                  Log
                </th>
                <th scope="col" className="num">
                  Market log
                </th>
              </tr>
            </thead>
            <tbody>
              {[...trend].reverse().map((point) => (
                <tr key={point.month}>
                  <th scope="row">{formatMonth(point.month)}</th>
                  <td className="num">{point.count}</td>
                  <td className="num">{formatProbability(point.accuracy)}</td>
                  <td className="num">{formatScore(point.brier)}</td>
                  <td className="num">{formatScore(point.marketBrier)}</td>
                  <td className="num">{formatScore(point.log)}</td>
                  <td className="num">{formatScore(point.marketLog)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}

function Decomposition({ performance }: { performance: PredictionPerformanceView }) {
  const d = performance.decomposition;
  if (!d) return null;
  return (
    <dl className="pm-decomposition">
      <div>
        <dt>Reliability</dt>
        <dd>
          {formatScore(d.reliability)} <span className="pm-score__hint">how far your forecasts sit from what happened at those levels; lower is better</span>
        </dd>
      </div>
      <div>
        <dt>Resolution</dt>
        <dd>
          {formatScore(d.resolution)} <span className="pm-score__hint">how well you tell likelier events from less likely ones; higher is better</span>
        </dd>
      </div>
      <div>
        <dt>Uncertainty</dt>
        <dd>
          {formatScore(d.uncertainty)} <span className="pm-score__hint">how hard the questions were: the base rate’s spread, not up to you</span>
        </dd>
      </div>
    </dl>
  );
}

const STATUS_LABELS: Readonly<Record<ForecastStatus, string>> = { all: 'All', open: 'Open', resolved: 'Resolved' };

function YourForecasts() {
  const [status, setStatus] = useState<ForecastStatus>('all');
  const [result, update, retry] = useRequest(`forecasts:${status}`, (signal) => getForecasts({ status, limit: 25 }, signal));
  const data = shownData(result);
  const { more, loadMore } = useLoadMore(`forecasts:${status}`, data?.nextCursor, (cursor) => getForecasts({ status, cursor, limit: 25 }), update, appendPage);
  return (
    <section className="dashboard-panel" aria-labelledby="pm-yours-title">
      <div className="pm-panel-head">
        <h2 id="pm-yours-title">Your forecasts</h2>
        <div className="pm-segmented" role="group" aria-label="Which forecasts">
          {(['all', 'open', 'resolved'] as const).map((value) => (
            <button key={value} type="button" className={`button button--small ${status === value ? 'button--primary' : 'button--secondary'}`} aria-pressed={status === value} onClick={() => setStatus(value)}>
              {STATUS_LABELS[value]}
            </button>
          ))}
        </div>
      </div>
      {result.state === 'loading' && data === null && (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading your forecasts…
        </p>
      )}
      {result.state === 'failed' && <RequestFailed what="Your forecasts" message={result.message} onRetry={retry} />}
      {data !== null &&
        (data.rows.length === 0 ? (
          <p className="empty-state">{status === 'all' ? 'You have made no forecast yet.' : status === 'open' ? 'No open forecast.' : 'None of your forecasts is resolved yet.'}</p>
        ) : (
          <>
            <div className="table-scroll" role="region" aria-label="Your forecasts across markets" tabIndex={0} aria-busy={result.state === 'loading'}>
              <table className="data-table data-table--cards data-table--grid-cards pm-table pm-forecasts-table">
                <caption className="visually-hidden">Your current forecasts, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Market</th>
                    <th scope="col" className="num">
                      Your forecast
                    </th>
                    <th scope="col" className="num">
                      Market then
                    </th>
                    <th scope="col">Outcome</th>
                    <th scope="col" className="num">
                      Points
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.rows.map((row) => (
                    <tr key={row.id} data-row-id={row.id}>
                      <td data-label="Market" className="pm-question data-table__wide">
                        <Link to={predictionMarketPath(row.market.id)}>{row.market.question}</Link>
                        <span className="data-table__sub">
                          {[row.market.category, `made ${formatDateTime(row.dateMade)}`].filter(Boolean).join(' · ')}
                        </span>
                      </td>
                      <td data-label="Your forecast" className="num pm-strong">
                        {formatProbability(row.userPrediction)}
                      </td>
                      <td data-label="Market then" className="num">
                        {formatProbability(row.marketPrice)}
                      </td>
                      <td data-label="Outcome">
                        {row.resolution ? RESOLUTION_LABELS[row.resolution] : row.market.closed ? 'Closed, awaiting resolution' : `Open · now ${formatProbability(row.market.yesPrice)}`}
                      </td>
                      <td data-label="Points" className={`num pm-strong ${tone(row.points === null ? null : Number(row.points)) ?? ''}`}>
                        {formatSkillPoints(row.points)}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <LoadMore className="pm-more" more={more} hasNext={!!data.nextCursor} onLoadMore={loadMore} label="Load more forecasts" failed="More forecasts could not be loaded" />
          </>
        ))}
    </section>
  );
}

export function PredictionsPerformancePage() {
  const [result, , retry] = useRequest('performance', (signal) => getPerformance(signal));
  const data = shownData(result);
  const scored = data !== null && data.totalPredictions > 0;

  return (
    <div className="predictions-page">
      <title>Your forecasting performance · Tickerbell</title>
      <h1>Your forecasting performance</h1>
      <PredictionsTabs />
      <p className="page-lede">
        Every resolved forecast scored twice: yours, and the market price at the moment you made it. The difference is your skill: positive means you beat the market.
      </p>
      {result.state === 'loading' && data === null && (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading your performance…
        </p>
      )}
      {result.state === 'failed' && <RequestFailed what="Your performance" message={result.message} onRetry={retry} />}
      {data !== null && !scored && (
        <div className="dashboard-panel pm-empty-card">
          <h2>No resolved forecast yet</h2>
          <p>
            Your scorecard appears when the first market you forecast resolves: accuracy, Brier and log scores against the market’s, and a calibration plot. Make forecasts on{' '}
            <Link to={PREDICTIONS_PATH}>open markets</Link>; the more you make, the more the figures say.
          </p>
        </div>
      )}
      {data !== null && scored && (
        <>
          <p className="pm-verdict">{verdictOf(data)}</p>
          <Headline performance={data} />
          {data.lastCalculated && <p className="pm-updated">Updated {formatDateTime(data.lastCalculated)}, after the latest resolution.</p>}
          <div className="pm-performance-grid">
            <section className="dashboard-panel" aria-labelledby="pm-calibration-title">
              <h2 id="pm-calibration-title">Calibration</h2>
              <CalibrationPlot bins={data.calibration} />
            </section>
            <section className="dashboard-panel" aria-labelledby="pm-decomposition-title">
              <h2 id="pm-decomposition-title">Where the Brier score comes from</h2>
              <p className="pm-muted">Brier ≈ reliability − resolution + uncertainty (Murphy).</p>
              <Decomposition performance={data} />
            </section>
          </div>
          <section className="dashboard-panel" aria-labelledby="pm-trend-title">
            <h2 id="pm-trend-title">Over time</h2>
            <Trend performance={data} />
          </section>
          <div className="pm-performance-grid">
            <section className="dashboard-panel" aria-labelledby="pm-best-title">
              <h2 id="pm-best-title">Best categories</h2>
              <CategoryTable rows={data.bestCategories} caption="Categories where you beat the market" empty="No category where you beat the market yet." />
            </section>
            <section className="dashboard-panel" aria-labelledby="pm-improve-title">
              <h2 id="pm-improve-title">Improvement areas</h2>
              <CategoryTable rows={data.improvementAreas} caption="Categories where the market beat you" empty="No category where the market beat you." />
            </section>
          </div>
        </>
      )}
      {data !== null && <YourForecasts />}
    </div>
  );
}
