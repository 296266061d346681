// One alert's firings (GET /api/alerts/:id/logs), newest first, older pages on demand.
import { useEffect, useState } from 'react';
import { messageOf } from '../accounts/auth-client';
import { formatAlertTime } from './alert-time';
import { getAlertLogs, type Alert, type AlertLog } from './alerts-client';

type HistoryState = { items: AlertLog[]; nextBefore: string | null; loading: boolean; error: string | null; loaded: boolean };

const WEBHOOK_LABELS: Readonly<Record<string, string>> = { pending: 'Pending', delivered: 'Delivered', failed: 'Failed' };

function webhookText(log: AlertLog): string {
  if (log.webhookStatus === null) return '—';
  const label = WEBHOOK_LABELS[log.webhookStatus] ?? log.webhookStatus;
  const attempts = log.webhookAttempts !== null && log.webhookAttempts > 1 ? ` after ${log.webhookAttempts} attempts` : '';
  return `${label}${attempts}`;
}

export function AlertHistory({ alert, onClose }: { alert: Alert; onClose: () => void }) {
  const [state, setState] = useState<HistoryState>({ items: [], nextBefore: null, loading: true, error: null, loaded: false });
  const [before, setBefore] = useState<string | null>(null);
  const [page, setPage] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setState((current) => ({ ...current, loading: true, error: null }));
    getAlertLogs(alert.id, before, controller.signal)
      .then((result) => {
        if (controller.signal.aborted) return;
        setState((current) => ({ items: [...current.items, ...result.items], nextBefore: result.nextBefore, loading: false, error: null, loaded: true }));
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setState((current) => ({ ...current, loading: false, error: messageOf(error) }));
      });
    return () => controller.abort();
    // `page` re-runs a failed load of the same cursor.
  }, [alert.id, before, page]);

  const headingId = `alert-history-${alert.id}`;
  return (
    <section className="dashboard-panel alert-history" aria-labelledby={headingId}>
      <div className="alert-dialog__header">
        <h2 id={headingId}>History of “{alert.name}”</h2>
        <button type="button" className="button button--ghost button--small" onClick={onClose}>
          Close history
        </button>
      </div>
      {state.loaded && state.items.length === 0 && <p className="empty-state">This alert has not fired yet.</p>}
      {state.items.length > 0 && (
        <div className="table-scroll">
          <table className="data-table">
            <caption className="visually-hidden">Firings of {alert.name}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Value</th>
                <th scope="col">Message</th>
                <th scope="col">Notified</th>
                <th scope="col">Webhook</th>
              </tr>
            </thead>
            <tbody>
              {state.items.map((log) => (
                <tr key={log.id}>
                  <td>
                    <time dateTime={log.triggeredAt}>{formatAlertTime(log.triggeredAt)}</time>
                  </td>
                  <td className="alert-num">{log.value ?? '—'}</td>
                  <td>{log.message ?? '—'}</td>
                  <td>{log.wasNotified ? 'Yes' : 'No'}</td>
                  <td title={log.webhookLastError ?? undefined}>{webhookText(log)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {state.loading && <p role="status">Loading history…</p>}
      {state.error && (
        <p className="form-message form-message--error" role="alert">
          History could not be loaded: {state.error}{' '}
          <button type="button" className="button button--ghost button--small" onClick={() => setPage((n) => n + 1)}>
            Try again
          </button>
        </p>
      )}
      {!state.loading && !state.error && state.nextBefore !== null && (
        <button type="button" className="button button--secondary" onClick={() => setBefore(state.nextBefore)}>
          Load more
        </button>
      )}
    </section>
  );
}
