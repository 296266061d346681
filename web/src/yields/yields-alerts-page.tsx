// /dashboard/yields/alerts: the user's yield alerts (edit, pause, delete) and every time one
// fired, newest first, with what it measured and whether the email and Telegram copies went out.
import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import type { YieldAlertHistoryPage, YieldAlertView } from '@tickerbell/jobs/yields/shapes';
import { appendPage, LoadMore, RequestFailed, shownData, useLoadMore, useRequest } from '../api/use-request';
import { YieldAlertList } from './yields-alert-list';
import { KIND_SHORT, YIELDS_POOLS_PATH, ageOf, formatKindValue, formatUtc, getAlertHistory, getYieldAlerts, yieldPoolPath } from './yields-client';
import { YieldsTabs } from './yields-parts';
import './yields.css';

function History({ alerts }: { alerts: readonly YieldAlertView[] }) {
  const [alertId, setAlertId] = useState<number | undefined>(undefined);
  const [result, update, retry] = useRequest<YieldAlertHistoryPage>(`history:${alertId ?? 'all'}`, (signal) => getAlertHistory({ alertId, limit: 50 }, signal));
  const data = shownData(result);
  // An alert deleted from the list above takes its history with it.
  useEffect(() => {
    if (alertId !== undefined && !alerts.some((alert) => alert.id === alertId)) setAlertId(undefined);
  }, [alerts, alertId]);
  const spikeUnits = new Map(alerts.map((alert) => [alert.id, alert.spikeUnit]));

  const { more, loadMore } = useLoadMore(`history:${alertId ?? 'all'}`, data?.nextCursor, (cursor) => getAlertHistory({ alertId, cursor, limit: 50 }), update, appendPage);

  return (
    <section className="dashboard-panel" aria-labelledby="yield-history-title">
      <div className="yield-panel-head">
        <h2 id="yield-history-title">History</h2>
        {alerts.length > 0 && (
          <label className="yield-field yield-field--inline">
            <span className="yield-field__label">Alert</span>
            <select className="form-field__input" value={alertId ?? ''} onChange={(event) => setAlertId(event.target.value ? Number(event.target.value) : undefined)}>
              <option value="">Every alert</option>
              {alerts.map((alert) => (
                <option key={alert.id} value={alert.id}>
                  {alert.pool.symbol}: {alert.description}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {result.state === 'failed' && <RequestFailed what="The history" message={result.message} onRetry={retry} />}
      {result.state === 'loading' && data === null && (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading the history…
        </p>
      )}
      {data !== null &&
        (data.rows.length === 0 ? (
          <p className="empty-state">No alert has fired yet. Each firing is listed here with the value that crossed the threshold.</p>
        ) : (
          <>
            <div className="table-scroll" role="region" aria-label="Alert history" tabIndex={0} aria-busy={result.state === 'loading'}>
              <table className="data-table data-table--cards data-table--grid-cards yield-history-table">
                <caption className="visually-hidden">Yield alert firings, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Fired</th>
                    <th scope="col">Pool</th>
                    <th scope="col" className="num">
                      Value
                    </th>
                    <th scope="col" className="num">
                      Threshold
                    </th>
                    <th scope="col">Message</th>
                    <th scope="col">Copies</th>
                  </tr>
                </thead>
                <tbody>
                  {data.rows.map((row) => {
                    const unit = spikeUnits.get(row.alertId) ?? null;
                    return (
                      <tr key={row.id}>
                        <td data-label="Fired" className="nowrap">
                          <time dateTime={row.triggeredAt} title={formatUtc(row.triggeredAt)}>
                            {ageOf(row.triggeredAt)}
                          </time>
                          <span className="data-table__sub">{formatUtc(row.triggeredAt)}</span>
                        </td>
                        <td data-label="Pool">
                          <Link to={yieldPoolPath(row.poolId)} className="yield-pool-name">
                            {row.poolSymbol}
                          </Link>
                          <span className="data-table__sub">{KIND_SHORT[row.kind]}</span>
                        </td>
                        <td data-label="Value" className="num yield-strong">
                          {formatKindValue(row.kind, row.triggeredValue, unit)}
                        </td>
                        <td data-label="Threshold" className="num">
                          {formatKindValue(row.kind, row.threshold, unit)}
                        </td>
                        <td data-label="Message" className="data-table__wide yield-message">
                          {row.message}
                        </td>
                        <td data-label="Copies">
                          {row.emailSent || row.telegramSent ? [row.emailSent && 'Email', row.telegramSent && 'Telegram'].filter(Boolean).join(', ') : 'In app and push only'}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
            <LoadMore className="yield-more" more={more} hasNext={!!data.nextCursor} onLoadMore={loadMore} label="Load older firings" end={`That is the whole history (${data.rows.length}).`} failed="Older firings could not be loaded" />
          </>
        ))}
    </section>
  );
}

export function YieldsAlertsPage() {
  const [result, update, retry] = useRequest('alerts', (signal) => getYieldAlerts(signal));
  const data = shownData(result);
  return (
    <div className="yields-page">
      <title>Yield alerts · Tickerbell</title>
      <h1>Yield alerts</h1>
      <YieldsTabs />
      <p className="page-lede">
        Alerts on a pool’s APR, an APR spike over its 30-day mean, a TVL drop or its volume/TVL, checked against every hourly snapshot. An alert that fires waits for its
        cooldown and re-arms only once the value has moved back past the threshold, so it does not flap. Add one from a pool’s page in the{' '}
        <Link to={YIELDS_POOLS_PATH}>pools table</Link>.
      </p>
      {result.state === 'failed' && <RequestFailed what="Your yield alerts" message={result.message} onRetry={retry} />}
      {result.state === 'loading' && data === null && (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading your yield alerts…
        </p>
      )}
      {data && (
        <>
          {(!data.channels.email || !data.channels.telegram) && (
            <p className="yield-flag" role="note">
              {!data.channels.email && !data.channels.telegram
                ? 'Email and Telegram are not set up on this server: alerts reach you in the app and by push.'
                : !data.channels.email
                  ? 'Email is not set up on this server: alerts reach you in the app, by push and on Telegram if you chose it.'
                  : 'Telegram is not set up on this server: alerts reach you in the app, by push and by email if you chose it.'}
            </p>
          )}
          <section className="dashboard-panel" aria-labelledby="yield-your-alerts">
            <h2 id="yield-your-alerts">Your alerts</h2>
            {data.rows.length === 0 ? (
              <p className="empty-state">
                You have no yield alert yet. Open a pool from the <Link to={YIELDS_POOLS_PATH}>pools table</Link> and choose “New alert”.
              </p>
            ) : (
              <YieldAlertList alerts={data.rows} showPool caption="Your yield alerts" onChange={(rows) => update((page) => ({ ...page, rows }))} />
            )}
          </section>
          <History alerts={data.rows} />
        </>
      )}
    </div>
  );
}
