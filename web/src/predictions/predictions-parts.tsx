// Pieces shared by the predictions screens: the section tabs, the data-source note, a market's
// state badge, the mispricing feed's table and a market's own alerts.
import { Link } from 'react-router-dom';
import { SectionTabs } from '../layout/section-tabs';
import type { MispricingAlertView, PredictionMarketView, PredictionSourceView } from '@tickerbell/jobs/predictions/shapes';
import { MISPRICING_SOURCE_LABELS, ageOf, formatDateTime, formatPoints, formatProbability, marketState } from './predictions-client';
import { PREDICTIONS_MISPRICING_PATH, PREDICTIONS_PATH, PREDICTIONS_PERFORMANCE_PATH, predictionMarketPath } from './predictions-paths';

/** The three predictions screens, as tabs under the page heading. */
export function PredictionsTabs() {
  return (
    <SectionTabs
      label="Prediction screens"
      tabs={[
        { to: PREDICTIONS_PATH, label: 'Markets', end: true },
        { to: PREDICTIONS_PERFORMANCE_PATH, label: 'Performance' },
        { to: PREDICTIONS_MISPRICING_PATH, label: 'Mispricing' },
      ]}
    />
  );
}

/** Where the markets come from, and when they were last synced. */
export function SourceNote({ source }: { source: PredictionSourceView }) {
  const synced = source.lastSyncAt ? (
    <>
      Last synced{' '}
      <time dateTime={source.lastSyncAt} title={formatDateTime(source.lastSyncAt)}>
        {ageOf(source.lastSyncAt)}
      </time>
      .
    </>
  ) : (
    <>Not synced yet.</>
  );
  if (source.kind === 'replay') {
    return (
      <p className="pm-note" role="note">
        <span className="badge pm-badge--replay">Replay data</span> These markets come from the offline replay of recorded Polymarket answers, varied in
        the same shapes; prices are not live. No Polymarket connection is configured. {synced}
      </p>
    );
  }
  return (
    <p className="pm-source">
      <span className="pm-live-dot" aria-hidden="true" /> Live Polymarket markets, synced every few minutes. {synced}
    </p>
  );
}

export function StateBadge({ market }: { market: Pick<PredictionMarketView, 'closed' | 'resolution' | 'isActive'> }) {
  const state = marketState(market);
  return <span className={`pm-state pm-state--${state.tone}`}>{state.label}</span>;
}

/** "+6.0 pts" in the up colour when YES looks cheap, the down colour when it looks dear. */
export function Deviation({ value }: { value: string }) {
  const n = Number(value);
  return (
    <span className={n > 0 ? 'pm-up' : n < 0 ? 'pm-down' : undefined} title={n > 0 ? 'YES looks cheap against the fair value' : n < 0 ? 'YES looks dear against the fair value' : undefined}>
      {formatPoints(value)}
    </span>
  );
}

interface MispricingTableProps {
  rows: readonly MispricingAlertView[];
  caption: string;
  busy?: boolean;
}

export function MispricingTable({ rows, caption, busy = false }: MispricingTableProps) {
  return (
    <div className="table-scroll" role="region" aria-label={caption} tabIndex={0} aria-busy={busy}>
      <table className="data-table data-table--cards data-table--grid-cards pm-table pm-mispricing-table">
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Market</th>
            <th scope="col">Fair value from</th>
            <th scope="col" className="num">
              Price → fair value
            </th>
            <th scope="col" className="num">
              Gap after fees
            </th>
            <th scope="col" className="num">
              Confidence
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((alert) => (
            <tr key={alert.id} data-row-id={alert.id}>
              <td data-label="Market" className="pm-question data-table__wide">
                <Link to={predictionMarketPath(alert.marketId)}>{alert.question}</Link>
                <span className="data-table__sub">
                  {alert.category && <>{alert.category} · </>}
                  {alert.isActive ? 'detected' : 'opened'}{' '}
                  <time dateTime={alert.detectedAt} title={formatDateTime(alert.detectedAt)}>
                    {ageOf(alert.detectedAt)}
                  </time>
                  {!alert.isActive && alert.resolvedAt && (
                    <>
                      , closed{' '}
                      <time dateTime={alert.resolvedAt} title={formatDateTime(alert.resolvedAt)}>
                        {ageOf(alert.resolvedAt)}
                      </time>
                    </>
                  )}
                </span>
              </td>
              <td data-label="Fair value from" className="pm-reason data-table__wide">
                <span className={`badge pm-badge--${alert.fairValueSource}`}>{MISPRICING_SOURCE_LABELS[alert.fairValueSource]}</span>
                <span className="data-table__sub">{alert.reasoning}</span>
              </td>
              <td data-label="Price → fair value" className="num">
                {formatProbability(alert.currentPrice)} → <strong>{formatProbability(alert.fairValue)}</strong>
              </td>
              <td data-label="Gap after fees" className="num pm-strong">
                <Deviation value={alert.deviation} />
              </td>
              <td data-label="Confidence" className="num">
                {formatProbability(alert.confidence)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A market's own alerts, as a short list (its page has no room for the feed's table). */
export function MispricingList({ rows }: { rows: readonly MispricingAlertView[] }) {
  return (
    <ul className="pm-alerts" aria-label="Active mispricing alerts of this market">
      {rows.map((alert) => (
        <li key={alert.id} className="pm-alert">
          <p className="pm-alert__head">
            <span className={`badge pm-badge--${alert.fairValueSource}`}>{MISPRICING_SOURCE_LABELS[alert.fairValueSource]}</span>{' '}
            fair value <strong>{formatProbability(alert.fairValue)}</strong> against {formatProbability(alert.currentPrice)}:{' '}
            <strong>
              <Deviation value={alert.deviation} />
            </strong>{' '}
            after fees
          </p>
          <p className="pm-alert__reason">{alert.reasoning}</p>
          <p className="pm-alert__meta">
            Confidence {formatProbability(alert.confidence)} · detected{' '}
            <time dateTime={alert.detectedAt} title={formatDateTime(alert.detectedAt)}>
              {ageOf(alert.detectedAt)}
            </time>
          </p>
        </li>
      ))}
    </ul>
  );
}
