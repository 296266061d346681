// A list of yield alerts with their actions (edit in the dialog, pause or resume, delete after a
// confirmation): the pool page shows the user's alerts on that pool, the alerts page all of them.
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import type { YieldAlertView } from '@tickerbell/jobs/yields/shapes';
import { messageOf } from '../accounts/auth-client';
import { YieldAlertDialog, type PoolNow } from './yields-alert-dialog';
import { ageOf, deleteYieldAlert, formatCooldown, formatUtc, updateYieldAlert, yieldPoolPath } from './yields-client';

/** "Active", "Paused", or "Waiting to re-arm" (it fired; it re-arms once the value is back past the threshold by the margin). */
export function alertState(alert: YieldAlertView): { label: string; tone: 'on' | 'off' | 'wait' } {
  if (!alert.isActive) return { label: 'Paused', tone: 'off' };
  if (!alert.armed) return { label: 'Waiting to re-arm', tone: 'wait' };
  return { label: 'Active', tone: 'on' };
}

function channelsOf(alert: YieldAlertView): string {
  return ['in app', 'push', ...(alert.emailEnabled ? ['email'] : []), ...(alert.telegramEnabled ? ['Telegram'] : [])].join(', ');
}

interface AlertListProps {
  alerts: readonly YieldAlertView[];
  /** Show each alert's pool (the alerts page); on a pool's page it is that pool. */
  showPool: boolean;
  onChange: (alerts: YieldAlertView[]) => void;
  now?: PoolNow;
  caption: string;
}

export function YieldAlertList({ alerts, showPool, onChange, now, caption }: AlertListProps) {
  const [editing, setEditing] = useState<YieldAlertView | null>(null);
  const [confirming, setConfirming] = useState<number | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const [message, setMessage] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const opener = useRef<HTMLElement | null>(null);

  const replace = (saved: YieldAlertView) => onChange(alerts.map((alert) => (alert.id === saved.id ? saved : alert)));

  const toggle = (alert: YieldAlertView) => {
    setBusy(alert.id);
    updateYieldAlert(alert.id, { isActive: !alert.isActive })
      .then((saved) => {
        replace(saved);
        setMessage({ tone: 'success', text: `${saved.isActive ? 'Resumed' : 'Paused'}: ${saved.pool.symbol}, ${saved.description}.` });
      })
      .catch((error: unknown) => setMessage({ tone: 'error', text: messageOf(error) }))
      .finally(() => setBusy(null));
  };

  const remove = (alert: YieldAlertView) => {
    setBusy(alert.id);
    deleteYieldAlert(alert.id)
      .then(() => {
        onChange(alerts.filter((other) => other.id !== alert.id));
        setConfirming(null);
        setMessage({ tone: 'success', text: `Deleted: ${alert.pool.symbol}, ${alert.description}.` });
      })
      .catch((error: unknown) => setMessage({ tone: 'error', text: messageOf(error) }))
      .finally(() => setBusy(null));
  };

  const lastFired = (alert: YieldAlertView) =>
    alert.lastTriggered ? (
      <time dateTime={alert.lastTriggered} title={formatUtc(alert.lastTriggered)}>
        {ageOf(alert.lastTriggered)}
      </time>
    ) : (
      'Never'
    );

  const actions = (alert: YieldAlertView) =>
    confirming === alert.id ? (
      <span className="yield-confirm" role="group" aria-label={`Delete the alert ${alert.description}?`}>
        <span>Delete it and its history?</span>
        <button type="button" className="button button--danger button--small" onClick={() => remove(alert)} disabled={busy === alert.id}>
          Delete
        </button>
        <button type="button" className="button button--ghost button--small" onClick={() => setConfirming(null)}>
          Keep
        </button>
      </span>
    ) : (
      <>
        <button
          type="button"
          className="button button--secondary button--small"
          onClick={(event) => {
            opener.current = event.currentTarget;
            setEditing(alert);
          }}
          aria-label={`Edit ${alert.description}`}
        >
          Edit
        </button>
        <button type="button" className="button button--ghost button--small" onClick={() => toggle(alert)} disabled={busy === alert.id} aria-label={`${alert.isActive ? 'Pause' : 'Resume'} ${alert.description}`}>
          {alert.isActive ? 'Pause' : 'Resume'}
        </button>
        <button type="button" className="button button--ghost button--small" onClick={() => setConfirming(alert.id)} aria-label={`Delete ${alert.description}`}>
          Delete
        </button>
      </>
    );

  const badge = (alert: YieldAlertView) => {
    const state = alertState(alert);
    return (
      <span className={`yield-state yield-state--${state.tone}`} title={state.tone === 'wait' ? `It fired; it re-arms once the value is back past the threshold by ${alert.hysteresisMargin}.` : undefined}>
        {state.label}
      </span>
    );
  };

  return (
    <>
      {message && (
        <p className={`form-message form-message--${message.tone}`} role={message.tone === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      {showPool ? (
        <div className="table-scroll" role="region" aria-label={caption} tabIndex={0}>
          <table className="data-table data-table--cards yield-alert-table">
            <caption className="visually-hidden">{caption}</caption>
            <thead>
              <tr>
                <th scope="col">Pool</th>
                <th scope="col">Condition</th>
                <th scope="col">State</th>
                <th scope="col">Last fired</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {alerts.map((alert) => (
                <tr key={alert.id} data-alert-id={alert.id}>
                  <td data-label="Pool">
                    <Link to={yieldPoolPath(alert.poolId)} className="yield-pool-name">
                      {alert.pool.symbol}
                    </Link>
                    <span className="data-table__sub">
                      {alert.pool.dex} · {alert.pool.chain}
                    </span>
                  </td>
                  <td data-label="Condition">
                    <span className="yield-strong">{alert.description}</span>
                    <span className="data-table__sub">
                      {formatCooldown(alert.cooldownMinutes)} · {channelsOf(alert)}
                    </span>
                  </td>
                  <td data-label="State">{badge(alert)}</td>
                  <td data-label="Last fired">{lastFired(alert)}</td>
                  <td className="yield-actions">{actions(alert)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <ul className="yield-alert-cards" aria-label={caption}>
          {alerts.map((alert) => (
            <li key={alert.id} className="yield-alert-card" data-alert-id={alert.id}>
              <div className="yield-alert-card__head">
                <span className="yield-strong">{alert.description}</span>
                {badge(alert)}
              </div>
              <span className="data-table__sub">
                {formatCooldown(alert.cooldownMinutes)} · {channelsOf(alert)} · {alert.lastTriggered ? <>last fired {lastFired(alert)}</> : 'never fired'}
              </span>
              <div className="yield-alert-card__actions">{actions(alert)}</div>
            </li>
          ))}
        </ul>
      )}
      {editing && (
        <YieldAlertDialog
          pool={editing.pool}
          alert={editing}
          now={now}
          returnFocus={opener}
          onClose={() => setEditing(null)}
          onSaved={(saved) => {
            replace(saved);
            setEditing(null);
            setMessage({ tone: 'success', text: `Saved: ${saved.pool.symbol}, ${saved.description}.` });
          }}
        />
      )}
    </>
  );
}
