// /dashboard/alerts: the user's price and technical alerts, their history, and the dialog that
// creates and edits them.
import { useEffect, useRef, useState, type MouseEvent } from 'react';
import { Link } from 'react-router-dom';
import { ApiError } from '../api/client';
import { useNotifications } from '../notifications/notification-provider';
import { messageOf } from '../accounts/auth-client';
import { FREQUENCY_LABELS, conditionSummary, isTechnicalType } from './alert-conditions';
import { AlertDialog, PLAN_LIMIT_CODE } from './alert-dialog';
import { AlertHistory } from './alert-history';
import { formatAlertTime, isExpired } from './alert-time';
import { deleteAlert, listAlerts, updateAlert, type Alert } from './alerts-client';
import { ModalDialog } from './modal-dialog';
import { NextCheck } from './next-check';
import './alerts.css';

/**
 * A firing of one of the listed alerts that arrived live: the row shows it at once (last
 * triggered; a `once` alert is now inactive, as the server made it) instead of after a reload.
 */
export function applyLiveFirings(alerts: readonly Alert[], firings: ReadonlyMap<number, string>): Alert[] {
  if (!firings.size) return alerts as Alert[];
  return alerts.map((alert) => {
    const at = firings.get(Number(alert.id));
    if (!at || (alert.lastTriggered && Date.parse(alert.lastTriggered) >= Date.parse(at))) return alert;
    return { ...alert, lastTriggered: at, isActive: alert.frequency === 'once' ? false : alert.isActive };
  });
}

export type AlertStatus = 'active' | 'inactive' | 'expired';

export function alertStatus(alert: Alert, now: Date): AlertStatus {
  if (isExpired(alert.expiresAt, now)) return 'expired';
  return alert.isActive ? 'active' : 'inactive';
}

const STATUS_LABELS: Readonly<Record<AlertStatus, string>> = { active: 'Active', inactive: 'Inactive', expired: 'Expired' };

export function conditionText(alert: Alert): string {
  if (!alert.condition) return alert.conditionType;
  const summary = conditionSummary(alert.condition);
  return isTechnicalType(alert.condition.type) && alert.interval ? `${summary} (${alert.interval} bars)` : summary;
}

export function frequencyText(alert: Alert): string {
  // News alerts: a digest ignores the frequency, and every_time has no cooldown (one firing per item).
  if (alert.condition?.type === 'news') {
    if (alert.condition.digest) return 'Hourly digest';
    if (alert.frequency === 'every_time') return 'Every item';
  }
  return alert.frequency === 'every_time' ? `${FREQUENCY_LABELS.every_time}, cooldown ${alert.cooldownSeconds} s` : FREQUENCY_LABELS[alert.frequency];
}

/** `nextBefore`: the cursor of the next (older) page, null once every alert is loaded. */
type ListState = { state: 'loading' } | { state: 'ready'; alerts: Alert[]; nextBefore: string | null } | { state: 'failed'; message: string };
type MoreState = { loading: boolean; error: string | null };
type Banner = { kind: 'plan' | 'error' | 'success'; message: string };
type DialogState = { mode: 'create' } | { mode: 'edit'; alert: Alert; notice?: string };
type Filter = 'all' | 'active';

function isPlanLimit(error: unknown): error is ApiError {
  return error instanceof ApiError && error.status === 403 && error.code === PLAN_LIMIT_CODE;
}

export function AlertsPage() {
  const [list, setList] = useState<ListState>({ state: 'loading' });
  const [reload, setReload] = useState(0);
  const [filter, setFilter] = useState<Filter>('all');
  const [dialog, setDialog] = useState<DialogState | null>(null);
  const [confirming, setConfirming] = useState<Alert | null>(null);
  const [history, setHistory] = useState<Alert | null>(null);
  const [banner, setBanner] = useState<Banner | null>(null);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [more, setMore] = useState<MoreState>({ loading: false, error: null });
  // Aborts an older page in flight when the list is reloaded or the page unmounts.
  const moreRequest = useRef<AbortController | null>(null);
  // The button that opened a dialog gets focus back when it closes.
  const opener = useRef<HTMLElement | null>(null);
  const newButton = useRef<HTMLButtonElement>(null);
  const remember = (event: MouseEvent<HTMLElement>): void => {
    opener.current = event.currentTarget;
  };

  // Alert firings among the live notifications: alert id -> when it fired (the newest).
  const { notifications } = useNotifications();
  const firingsKey = notifications
    .filter((n) => typeof n.details?.alertId === 'number')
    .map((n) => `${String(n.details?.alertId)}@${new Date(n.timestamp).toISOString()}`)
    .join(',');
  useEffect(() => {
    if (!firingsKey) return;
    const firings = new Map<number, string>();
    for (const entry of firingsKey.split(',')) {
      const [id, at] = entry.split('@');
      const seen = firings.get(Number(id));
      if (!seen || seen < at) firings.set(Number(id), at);
    }
    setList((current) => (current.state === 'ready' ? { ...current, alerts: applyLiveFirings(current.alerts, firings) } : current));
  }, [firingsKey]);

  useEffect(() => {
    const controller = new AbortController();
    moreRequest.current?.abort();
    setMore({ loading: false, error: null });
    setList({ state: 'loading' });
    listAlerts(null, controller.signal)
      .then((page) => {
        if (!controller.signal.aborted) setList({ state: 'ready', alerts: page.items, nextBefore: page.nextBefore });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setList({ state: 'failed', message: messageOf(error) });
      });
    return () => {
      controller.abort();
      moreRequest.current?.abort();
    };
  }, [reload]);

  const onLoadMore = async (before: string): Promise<void> => {
    const controller = new AbortController();
    moreRequest.current = controller;
    setMore({ loading: true, error: null });
    try {
      const page = await listAlerts(before, controller.signal);
      if (controller.signal.aborted) return;
      setList((current) => {
        if (current.state !== 'ready') return current;
        // An alert created here meanwhile is already at the top; never list one twice.
        const known = new Set(current.alerts.map((alert) => alert.id));
        return { state: 'ready', alerts: [...current.alerts, ...page.items.filter((alert) => !known.has(alert.id))], nextBefore: page.nextBefore };
      });
      setMore({ loading: false, error: null });
    } catch (error) {
      if (!controller.signal.aborted) setMore({ loading: false, error: messageOf(error) });
    }
  };

  const alerts = list.state === 'ready' ? list.alerts : [];
  const now = new Date();
  const shown = filter === 'active' ? alerts.filter((alert) => alertStatus(alert, now) === 'active') : alerts;

  const replace = (saved: Alert): void =>
    setList((current) => {
      if (current.state !== 'ready') return current;
      const exists = current.alerts.some((alert) => alert.id === saved.id);
      return {
        ...current,
        alerts: exists ? current.alerts.map((alert) => (alert.id === saved.id ? saved : alert)) : [saved, ...current.alerts],
      };
    });

  const setBusyId = (id: string, on: boolean): void =>
    setBusy((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const onToggle = async (alert: Alert): Promise<void> => {
    setBanner(null);
    setBusyId(alert.id, true);
    try {
      replace(await updateAlert(alert.id, { isActive: !alert.isActive }));
    } catch (error) {
      setBanner({ kind: isPlanLimit(error) ? 'plan' : 'error', message: isPlanLimit(error) ? error.message : `Could not ${alert.isActive ? 'deactivate' : 'activate'} “${alert.name}”: ${messageOf(error)}` });
    } finally {
      setBusyId(alert.id, false);
    }
  };

  const onDelete = async (alert: Alert): Promise<void> => {
    setBusyId(alert.id, true);
    try {
      await deleteAlert(alert.id);
      // The cursor stays valid: the api compares ids, it does not look the cursor's alert up.
      setList((current) => (current.state === 'ready' ? { ...current, alerts: current.alerts.filter((item) => item.id !== alert.id) } : current));
      if (history?.id === alert.id) setHistory(null);
      // Its row (and the Delete button that opened the confirmation) is gone.
      opener.current = newButton.current;
      setConfirming(null);
      setBanner({ kind: 'success', message: `Deleted “${alert.name}”.` });
    } catch (error) {
      setConfirming(null);
      setBanner({ kind: 'error', message: `Could not delete “${alert.name}”: ${messageOf(error)}` });
    } finally {
      setBusyId(alert.id, false);
    }
  };

  const onSaved = (saved: Alert, created: boolean): void => {
    replace(saved);
    if (history?.id === saved.id) setHistory(saved);
    // The webhook secret is shown once more, in the dialog, right after it was made.
    if (created && saved.webhookSecret) {
      setDialog({ mode: 'edit', alert: saved, notice: 'Alert created. Copy its webhook signing secret below.' });
      return;
    }
    setDialog(null);
    setBanner({ kind: 'success', message: created ? `Created “${saved.name}”.` : `Saved “${saved.name}”.` });
  };

  return (
    <>
      <title>Alerts · Tickerbell</title>
      <h1>Alerts</h1>
      <p className="page-lede">
        Price, channel, movement and technical alerts on any market, delivered in the app and on the live stream, and by push, email,
        webhook or a spoken message if you choose.
      </p>
      <div className="toolbar alert-toolbar">
        <button
          ref={newButton}
          type="button"
          className="button button--primary"
          onClick={(event) => {
            remember(event);
            setBanner(null);
            setDialog({ mode: 'create' });
          }}
        >
          New alert
        </button>
        <fieldset className="alert-filter">
          <legend className="visually-hidden">Show</legend>
          {(['all', 'active'] as const).map((value) => (
            <label key={value} className="choice-group__option">
              <input type="radio" name="alert-filter" value={value} checked={filter === value} onChange={() => setFilter(value)} /> {value === 'all' ? 'All alerts' : 'Active only'}
            </label>
          ))}
        </fieldset>
      </div>

      {banner && (
        <div className={`form-message form-message--${banner.kind === 'success' ? 'success' : 'error'}`} role={banner.kind === 'success' ? 'status' : 'alert'}>
          {banner.message}
          {banner.kind === 'plan' && (
            <>
              {' '}
              <Link to="/pricing">Compare plans</Link> or deactivate another alert.
            </>
          )}
        </div>
      )}

      {list.state === 'loading' && <p role="status">Loading alerts…</p>}
      {list.state === 'failed' && (
        <p className="form-message form-message--error" role="alert">
          Alerts could not be loaded: {list.message}{' '}
          <button type="button" className="button button--ghost button--small" onClick={() => setReload((n) => n + 1)}>
            Try again
          </button>
        </p>
      )}
      {list.state === 'ready' && alerts.length === 0 && list.nextBefore === null && (
        <div className="empty-state alert-empty">
          <p>You have no alerts yet.</p>
          <p>Create one to be told when a price crosses a level, leaves a channel, moves fast, or an indicator turns.</p>
        </div>
      )}
      {list.state === 'ready' && alerts.length > 0 && shown.length === 0 && <p className="empty-state">No active alerts. Choose “All alerts” to see inactive and expired ones.</p>}
      {shown.length > 0 && (
        <div className="table-scroll">
          <table className="data-table alert-table data-table--cards">
            <caption className="visually-hidden">Your alerts</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Symbol</th>
                <th scope="col">Condition</th>
                <th scope="col">Frequency</th>
                <th scope="col">Status</th>
                <th scope="col">Last triggered</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {shown.map((alert) => {
                const status = alertStatus(alert, now);
                const rowBusy = busy.has(alert.id);
                return (
                  <tr key={alert.id}>
                    <th scope="row">
                      {alert.name}
                      {alert.useAudio && <span className="data-table__sub">Spoken</span>}
                    </th>
                    {/* data-label: the column's name beside the value when a phone shows each row as a card. */}
                    <td data-label="Symbol">{alert.symbol}</td>
                    <td data-label="Condition">{conditionText(alert)}</td>
                    <td data-label="Frequency">{frequencyText(alert)}</td>
                    <td data-label="Status">
                      <span className={`alert-status alert-status--${status}`}>{STATUS_LABELS[status]}</span>
                      {alert.expiresAt && status !== 'expired' && <span className="data-table__sub">until {formatAlertTime(alert.expiresAt)}</span>}
                    </td>
                    <td data-label="Last triggered">
                      {alert.lastTriggered ? <time dateTime={alert.lastTriggered}>{formatAlertTime(alert.lastTriggered)}</time> : 'Never'}
                      {status === 'active' && alert.condition && isTechnicalType(alert.condition.type) && alert.interval && <NextCheck interval={alert.interval} />}
                    </td>
                    <td className="alert-actions">
                      <label className="alert-switch" title={status === 'expired' ? 'Expired: edit its expiry to use it again' : undefined}>
                        <input type="checkbox" role="switch" checked={alert.isActive && status !== 'expired'} disabled={rowBusy || status === 'expired'} onChange={() => void onToggle(alert)} />
                        <span className="visually-hidden">Active: {alert.name}</span>
                      </label>
                      <button
                        type="button"
                        className="button button--ghost button--small"
                        onClick={(event) => {
                          remember(event);
                          setBanner(null);
                          setDialog({ mode: 'edit', alert });
                        }}
                      >
                        Edit<span className="visually-hidden"> {alert.name}</span>
                      </button>
                      <button type="button" className="button button--ghost button--small" aria-pressed={history?.id === alert.id} onClick={() => setHistory(history?.id === alert.id ? null : alert)}>
                        History<span className="visually-hidden"> of {alert.name}</span>
                      </button>
                      <button
                        type="button"
                        className="button button--ghost button--small"
                        disabled={rowBusy}
                        onClick={(event) => {
                          remember(event);
                          setConfirming(alert);
                        }}
                      >
                        Delete<span className="visually-hidden"> {alert.name}</span>
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      {list.state === 'ready' && list.nextBefore !== null && (
        <div className="toolbar">
          {more.error && (
            <p className="form-message form-message--error" role="alert">
              More alerts could not be loaded: {more.error}
            </p>
          )}
          {more.loading ? (
            <p role="status">Loading more alerts…</p>
          ) : (
            <button type="button" className="button button--secondary" onClick={() => list.nextBefore !== null && void onLoadMore(list.nextBefore)}>
              {more.error ? 'Try again' : 'Load more alerts'}
            </button>
          )}
        </div>
      )}

      {history && <AlertHistory key={history.id} alert={history} onClose={() => setHistory(null)} />}

      {dialog && (
        <AlertDialog
          key={dialog.mode === 'edit' ? `edit-${dialog.alert.id}-${dialog.notice ?? ''}` : 'create'}
          alert={dialog.mode === 'edit' ? dialog.alert : null}
          notice={dialog.mode === 'edit' ? dialog.notice : undefined}
          onClose={() => setDialog(null)}
          onSaved={onSaved}
          returnFocus={opener}
        />
      )}

      {confirming && (
        <ModalDialog titleId="alert-delete-title" role="alertdialog" onClose={() => setConfirming(null)} returnFocus={opener} className="alert-confirm">
          <h2 id="alert-delete-title">Delete “{confirming.name}”?</h2>
          <p>The alert and its history are removed. This cannot be undone.</p>
          <div className="toolbar">
            <button type="button" className="button button--secondary" onClick={() => setConfirming(null)}>
              Cancel
            </button>
            <button type="button" className="button button--danger" disabled={busy.has(confirming.id)} onClick={() => void onDelete(confirming)}>
              Delete alert
            </button>
          </div>
        </ModalDialog>
      )}
    </>
  );
}
