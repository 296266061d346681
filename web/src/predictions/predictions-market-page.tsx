// /dashboard/predictions/markets/:id: one market. Its YES price from our snapshots, the viewer's
// forecasts on it (each edit is a new row of the history), the users' consensus, its active
// mispricing alerts, following it, and the forecast form: a probability, a percentage or odds,
// previewed as typed, the api's refusals shown beside their fields. Once the market closes the
// form gives way to its resolution and the viewer's points.
import { Fragment, useId, useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router-dom';
import type { PredictionForecastView, PredictionMarketPage, PredictionMarketView } from '@tickerbell/jobs/predictions/shapes';
import { fieldErrorsOf } from '../accounts/account-client';
import { messageOf } from '../accounts/auth-client';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import { formatUsdCompact } from '../format/usd';
import { useTheme } from '../theme/theme-provider';
import { PriceChart } from './predictions-charts';
import {
  INPUT_FORM_LABELS,
  NOTES_MAX,
  RESOLUTION_LABELS,
  addFollow,
  closesIn,
  formatDate,
  formatDateTime,
  formatPoints,
  formatProbability,
  formatSkillPoints,
  formatTime,
  getFollows,
  getMarket,
  makeForecast,
  oddsOf,
  previewForecast,
  removeFollow,
  withdrawForecast,
  yesName,
} from './predictions-client';
import { PREDICTIONS_PATH } from './predictions-paths';
import { MispricingList, StateBadge } from './predictions-parts';
import './predictions.css';

type Status = { state: 'idle' | 'saving' } | { state: 'done'; message: string } | { state: 'failed'; message: string };

/** What became of each forecast of the history: current, replaced by the next edit, or withdrawn. */
export function forecastFate(forecast: PredictionForecastView, history: readonly PredictionForecastView[]): 'current' | 'replaced' | 'withdrawn' {
  if (forecast.supersededAt === null) return 'current';
  return history.some((other) => other.id !== forecast.id && other.dateMade === forecast.supersededAt) ? 'replaced' : 'withdrawn';
}

/** The sum of the points of the viewer's scored forecasts on the market; null when none is scored. */
export function pointsOf(forecasts: readonly PredictionForecastView[]): number | null {
  const scored = forecasts.filter((forecast) => forecast.points !== null);
  return scored.length ? scored.reduce((sum, forecast) => sum + Number(forecast.points), 0) : null;
}

const FIELDS = ['prediction', 'confidence', 'notes'] as const;

function ForecastForm({ market, current, onSaved, onWithdrawn }: { market: PredictionMarketView; current: PredictionForecastView | null; onSaved: (forecast: PredictionForecastView) => void; onWithdrawn: () => void }) {
  const id = useId();
  const [prediction, setPrediction] = useState('');
  const [confidence, setConfidence] = useState('');
  const [notes, setNotes] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [status, setStatus] = useState<Status>({ state: 'idle' });
  const preview = previewForecast(prediction);
  const yes = yesName(market);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const confidenceValue = confidence.trim() === '' ? null : Number(confidence);
    setErrors({});
    setStatus({ state: 'saving' });
    makeForecast(market.id, { prediction: prediction.trim(), confidence: confidenceValue, notes: notes.trim() || null })
      .then((saved) => {
        onSaved(saved);
        setPrediction('');
        setConfidence('');
        setNotes('');
        setStatus({ state: 'done', message: `Saved: ${formatProbability(saved.userPrediction)} for ${yes} (the market was at ${formatProbability(saved.marketPrice)}).` });
      })
      .catch((error: unknown) => {
        const fields = fieldErrorsOf(error);
        setErrors(fields);
        const named = FIELDS.filter((field) => fields[field]);
        setStatus({ state: 'failed', message: named.length ? `Check the ${named.length === 1 ? 'field' : 'fields'} marked below.` : messageOf(error) });
      });
  };

  const withdraw = () => {
    setStatus({ state: 'saving' });
    withdrawForecast(market.id)
      .then(() => {
        onWithdrawn();
        setStatus({ state: 'done', message: 'Forecast withdrawn. The time it stood still counts when the market resolves.' });
      })
      .catch((error: unknown) => setStatus({ state: 'failed', message: messageOf(error) }));
  };

  const described = (field: (typeof FIELDS)[number], ...more: string[]) => [errors[field] ? `${id}-${field}-error` : '', ...more].filter(Boolean).join(' ') || undefined;
  const fieldError = (field: (typeof FIELDS)[number]) =>
    errors[field] ? (
      <span id={`${id}-${field}-error`} className="pm-field__error">
        {errors[field]}
      </span>
    ) : null;

  return (
    <form className="pm-forecast-form" aria-label="Your forecast" onSubmit={submit} noValidate>
      <div className="pm-field">
        <label htmlFor={`${id}-prediction`} className="pm-field__label">
          Your probability of {yes}
        </label>
        <input
          id={`${id}-prediction`}
          className="form-field__input pm-forecast-input"
          value={prediction}
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          maxLength={40}
          placeholder="0.62, 62% or 3:2"
          required
          aria-invalid={errors.prediction || preview.ok === false ? true : undefined}
          aria-describedby={described('prediction', `${id}-preview`)}
          onChange={(event) => {
            setPrediction(event.target.value);
            if (errors.prediction) setErrors(({ prediction: _gone, ...rest }) => rest);
          }}
        />
        <span id={`${id}-preview`} className={`pm-preview${preview.ok === false ? ' pm-preview--bad' : ''}`} aria-live="polite">
          {preview.ok === null && 'A probability (0.62), a percentage (62%) or odds for YES (3:2).'}
          {preview.ok === true && (
            <>
              = <strong>{formatProbability(preview.p)}</strong> for {yes} (odds {oddsOf(preview.p)}, read as {INPUT_FORM_LABELS[preview.form]})
              {market.yesPrice !== null && <> · market {formatProbability(market.yesPrice)}</>}
            </>
          )}
          {preview.ok === false && preview.message}
        </span>
        {fieldError('prediction')}
      </div>
      <div className="pm-form-row">
        <div className="pm-field">
          <label htmlFor={`${id}-confidence`} className="pm-field__label">
            Confidence, 0–100 (optional)
          </label>
          <input
            id={`${id}-confidence`}
            className="form-field__input"
            inputMode="numeric"
            value={confidence}
            maxLength={3}
            placeholder="e.g. 70"
            aria-invalid={errors.confidence ? true : undefined}
            aria-describedby={described('confidence')}
            onChange={(event) => setConfidence(event.target.value)}
          />
          {fieldError('confidence')}
        </div>
      </div>
      <div className="pm-field">
        <label htmlFor={`${id}-notes`} className="pm-field__label">
          Notes (optional, only you see them)
        </label>
        <textarea
          id={`${id}-notes`}
          className="form-field__input pm-notes"
          rows={3}
          value={notes}
          aria-invalid={errors.notes ? true : undefined}
          aria-describedby={described('notes', `${id}-notes-count`)}
          onChange={(event) => setNotes(event.target.value)}
        />
        <span id={`${id}-notes-count`} className={`pm-field__hint${notes.length > NOTES_MAX ? ' pm-preview--bad' : ''}`}>
          {notes.length} / {NOTES_MAX} characters
        </span>
        {fieldError('notes')}
      </div>
      <div className="pm-form-actions">
        <button type="submit" className="button button--primary" disabled={status.state === 'saving'}>
          {status.state === 'saving' ? 'Saving…' : current ? 'Update forecast' : 'Save forecast'}
        </button>
        {current && (
          <button type="button" className="button button--ghost" onClick={withdraw} disabled={status.state === 'saving'}>
            Withdraw
          </button>
        )}
      </div>
      {status.state === 'done' && (
        <p className="form-message form-message--success" role="status">
          {status.message}
        </p>
      )}
      {status.state === 'failed' && (
        <p className="form-message form-message--error" role="alert">
          {status.message}
        </p>
      )}
      <p className="pm-field__hint">Each edit is kept in your history; the score counts each forecast for the time it stood, against the market price when you made it.</p>
    </form>
  );
}

function Resolution({ page }: { page: PredictionMarketPage }) {
  const { market, forecasts } = page;
  const points = pointsOf(forecasts);
  return (
    <div className="pm-resolution" aria-label="Resolution" role="group">
      <p className="pm-resolution__state">
        {market.resolution ? (
          <>
            <strong>{RESOLUTION_LABELS[market.resolution]}</strong>
            {market.resolvedAt && <> on {formatDate(market.resolvedAt)}</>}.
          </>
        ) : (
          <>
            <strong>Closed</strong>
            {market.closedTime && <> on {formatDate(market.closedTime)}</>}, awaiting its resolution. Forecasts are no longer taken.
          </>
        )}
      </p>
      {forecasts.length === 0 ? (
        <p className="pm-muted">You made no forecast on this market.</p>
      ) : market.resolution === 'void' ? (
        <p className="pm-muted">A void market is not scored: your forecasts on it count nowhere.</p>
      ) : points === null ? (
        <p className="pm-muted">Your forecasts are scored when the resolution is recorded (within minutes).</p>
      ) : (
        <p>
          Your points on this market: <strong className={points > 0 ? 'pm-up' : points < 0 ? 'pm-down' : undefined}>{formatSkillPoints(points)}</strong>
          <span className="pm-field__hint"> Positive: you beat the market price of the moments you forecast.</span>
        </p>
      )}
    </div>
  );
}

function FollowButton({ market, following, onChange }: { market: PredictionMarketView; following: boolean; onChange: (following: boolean) => void }) {
  const [status, setStatus] = useState<{ state: 'idle' | 'busy' } | { state: 'failed'; message: string }>({ state: 'idle' });
  const toggle = () => {
    setStatus({ state: 'busy' });
    const change = following
      ? getFollows().then((follows) => {
          const mine = follows.find((follow) => follow.marketId === market.id);
          return mine ? removeFollow(mine.id) : undefined;
        })
      : addFollow({ marketId: market.id }).then(() => undefined);
    change
      .then(() => {
        onChange(!following);
        setStatus({ state: 'idle' });
      })
      .catch((error: unknown) => setStatus({ state: 'failed', message: messageOf(error) }));
  };
  return (
    <div className="pm-follow">
      <button type="button" className={`button button--small ${following ? 'button--secondary' : 'button--primary'}`} aria-pressed={following} onClick={toggle} disabled={status.state === 'busy'}>
        {following ? 'Following' : 'Follow market'}
      </button>
      <span className="pm-field__hint">{following ? 'You are notified of its mispricing alerts. Press again to stop.' : 'Be notified when it looks mispriced.'}</span>
      {status.state === 'failed' && (
        <p className="form-message form-message--error" role="alert">
          {status.message}
        </p>
      )}
    </div>
  );
}

function History({ forecasts, resolved }: { forecasts: readonly PredictionForecastView[]; resolved: boolean }) {
  if (forecasts.length === 0) return <p className="empty-state">No forecast yet. Yours will be listed here with the market price of its moment.</p>;
  return (
    <div className="table-scroll" role="region" aria-label="Your forecasts on this market" tabIndex={0}>
      <table className="data-table data-table--cards data-table--grid-cards pm-table pm-history-table">
        <caption className="visually-hidden">Your forecasts on this market, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Made</th>
            <th scope="col" className="num">
              Yours
            </th>
            <th scope="col" className="num">
              Market then
            </th>
            <th scope="col" className="num">
              Gap
            </th>
            <th scope="col">Status</th>
            {resolved && (
              <th scope="col" className="num">
                Points
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {forecasts.map((forecast) => {
            const fate = forecastFate(forecast, forecasts);
            const rowClass = [fate === 'current' ? 'pm-row--current' : '', forecast.notes ? 'pm-row--with-notes' : ''].filter(Boolean).join(' ') || undefined;
            return (
              <Fragment key={forecast.id}>
                <tr data-row-id={forecast.id} className={rowClass}>
                  <td data-label="Made">
                    <time dateTime={forecast.dateMade} title={formatDateTime(forecast.dateMade)}>
                      <span className="nowrap">{formatDate(forecast.dateMade)}</span>
                      <span className="data-table__sub">{formatTime(forecast.dateMade)}</span>
                    </time>
                  </td>
                  <td data-label="Yours" className="num pm-strong">
                    {formatProbability(forecast.userPrediction)}
                    <span className="data-table__sub">
                      typed “{forecast.inputText}”{forecast.confidence !== null && <> · confidence {forecast.confidence}</>}
                    </span>
                  </td>
                  <td data-label="Market then" className="num">
                    {formatProbability(forecast.marketPrice)}
                  </td>
                  <td data-label="Gap" className="num" title="Your forecast minus the market price then, in percentage points">
                    {formatPoints(Number(forecast.userPrediction) - Number(forecast.marketPrice))}
                  </td>
                  <td data-label="Status">
                    {fate === 'current' ? (
                      <span className="badge pm-badge--current">Current</span>
                    ) : (
                      <span className="pm-muted">
                        {fate === 'replaced' ? 'Replaced' : 'Withdrawn'}
                        <span className="data-table__sub">
                          <time dateTime={forecast.supersededAt ?? undefined}>{formatDateTime(forecast.supersededAt)}</time>
                        </span>
                      </span>
                    )}
                  </td>
                  {resolved && (
                    <td data-label="Points" className="num pm-strong">
                      {formatSkillPoints(forecast.points)}
                    </td>
                  )}
                </tr>
                {forecast.notes && (
                  <tr className={`pm-notes-row${fate === 'current' ? ' pm-row--current' : ''}`}>
                    <td colSpan={resolved ? 6 : 5}>
                      <span className="pm-notes-text">Note: {forecast.notes}</span>
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function MarketFigures({ page }: { page: PredictionMarketPage }) {
  const { market, consensus } = page;
  return (
    <dl className="pm-figures">
      <div className="pm-figure pm-figure--main">
        <dt>{yesName(market)} price</dt>
        <dd>{formatProbability(market.yesPrice)}</dd>
      </div>
      <div className="pm-figure">
        <dt>Bid / ask</dt>
        <dd>
          {formatProbability(market.bestBid)} / {formatProbability(market.bestAsk)}
        </dd>
      </div>
      <div className="pm-figure">
        <dt>Consensus</dt>
        <dd>
          {consensus ? (
            <>
              {formatProbability(consensus.probability)}
              <span className="pm-figure__sub">
                {consensus.forecasters} {consensus.forecasters === 1 ? 'forecaster' : 'forecasters'}
              </span>
            </>
          ) : (
            <span className="pm-figure__sub">Too few forecasters yet</span>
          )}
        </dd>
      </div>
      <div className="pm-figure">
        <dt>24 h volume</dt>
        <dd>{formatUsdCompact(market.volume24h)}</dd>
      </div>
      <div className="pm-figure">
        <dt>Liquidity</dt>
        <dd>{formatUsdCompact(market.liquidity)}</dd>
      </div>
      <div className="pm-figure">
        <dt>Total volume</dt>
        <dd>{formatUsdCompact(market.volume)}</dd>
      </div>
    </dl>
  );
}

export function PredictionsMarketPage() {
  const { id: raw = '' } = useParams();
  const id = /^[1-9]\d{0,9}$/.test(raw) ? Number(raw) : null;
  const { theme } = useTheme();
  const [result, update, retry] = useRequest(`market:${raw}`, (signal) => (id === null ? Promise.reject(new Error('This is not a market’s address.')) : getMarket(id, signal)));
  const data = shownData(result);
  const [now] = useState(() => Date.now());

  const back = (
    <p className="pm-back">
      <Link to={PREDICTIONS_PATH}>← All markets</Link>
    </p>
  );
  if (data === null) {
    return (
      <div className="predictions-page">
        <title>Prediction market · Tickerbell</title>
        {back}
        <h1>Prediction market</h1>
        {result.state === 'loading' && (
          <p role="status" className="page-loading">
            <span className="spinner" aria-hidden="true" /> Loading the market…
          </p>
        )}
        {result.state === 'failed' &&
          (result.status === 404 ? (
            <p className="empty-state">No such market. It may have been removed from the source; pick another one from the list.</p>
          ) : (
            <RequestFailed what="The market" message={result.message} onRetry={retry} />
          ))}
      </div>
    );
  }

  const { market, forecasts } = data;
  const current = forecasts.find((forecast) => forecast.supersededAt === null) ?? null;
  const saved = (forecast: PredictionForecastView) =>
    update((page) => ({ ...page, forecasts: [forecast, ...page.forecasts.map((f) => (f.supersededAt === null ? { ...f, supersededAt: forecast.dateMade } : f))] }));

  return (
    <div className="predictions-page">
      <title>{`${market.question} · Tickerbell`}</title>
      {back}
      <h1 className="pm-title">{market.question}</h1>
      <p className="pm-sub">
        <StateBadge market={market} />
        {market.category && <span>{market.category}</span>}
        {market.eventTitle && market.eventTitle !== market.question && <span>{market.eventTitle}</span>}
        <span>{market.closed ? `Closed ${formatDate(market.closedTime ?? market.endDate)}` : market.endDate ? `Ends ${formatDate(market.endDate)} (${closesIn(market.endDate, now)})` : 'No end date'}</span>
        {market.dataSource === 'replay' && <span className="badge pm-badge--replay">Replay data</span>}
        <a href={market.polymarketUrl} target="_blank" rel="noreferrer">
          On Polymarket<span className="visually-hidden"> (opens in a new tab)</span>
        </a>
      </p>

      <div className="pm-market-grid">
        <div className="pm-market-grid__main">
          <section className="dashboard-panel pm-section--price" aria-labelledby="pm-price-title">
            <h2 id="pm-price-title">Price</h2>
            <MarketFigures page={data} />
            <PriceChart points={data.history} theme={theme} forecast={current?.userPrediction ?? null} consensus={data.consensus?.probability ?? null} />
          </section>
          <section className="dashboard-panel pm-section--history" aria-labelledby="pm-history-title">
            <h2 id="pm-history-title">Your forecasts</h2>
            <History forecasts={forecasts} resolved={market.resolution !== null} />
          </section>
          {data.mispricing.length > 0 && (
            <section className="dashboard-panel pm-section--mispricing" aria-labelledby="pm-mispricing-title">
              <h2 id="pm-mispricing-title">Mispricing</h2>
              <MispricingList rows={data.mispricing} />
            </section>
          )}
          {market.description && (
            <details className="pm-disclosure pm-rules pm-section--rules">
              <summary>How this market resolves</summary>
              <p className="pm-description">{market.description}</p>
            </details>
          )}
        </div>
        <aside className="pm-market-grid__side">
          <section className="dashboard-panel pm-section--forecast" aria-labelledby="pm-forecast-title">
            <h2 id="pm-forecast-title">{data.canForecast ? (current ? 'Update your forecast' : 'Make a forecast') : 'Outcome'}</h2>
            {data.canForecast && current && (
              <p className="pm-current">
                Your forecast: <strong>{formatProbability(current.userPrediction)}</strong> since {formatDateTime(current.dateMade)}.
              </p>
            )}
            {data.canForecast ? (
              <ForecastForm market={market} current={current} onSaved={saved} onWithdrawn={retry} />
            ) : (
              <Resolution page={data} />
            )}
          </section>
          <section className="dashboard-panel pm-section--follow" aria-labelledby="pm-follow-title">
            <h2 id="pm-follow-title">Follow</h2>
            <FollowButton market={market} following={data.following} onChange={(following) => update((page) => ({ ...page, following }))} />
          </section>
        </aside>
      </div>
    </div>
  );
}
